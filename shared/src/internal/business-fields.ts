/**
 * The business field parameters of add-business and alter-business (spec, "Internal call:
 * add-business", "Internal call: alter-business", "Errors", "Limits"), declared once for both
 * calls; where the calls differ (the place id's name, review_url's maximum, the error of a
 * coordinate out of range) the call passes its own.
 *
 * Maxima: where the spec's error table states smaller maxima than the parameter tables (address
 * lines 128, towncity / region 56, owner_code 32) the parameter tables win (handbook), and the
 * error names stay as listed. A parameter with an error of its own (124-143) answers it for every
 * refusal, too long or badly formed, except countrycode (132 for a length other than 2, 420
 * country_code_invalid for two letters that are no ISO 3166-1 code) and postalcode (131 over 20
 * characters; the core API answers 278 postalcode_invalid for a form its country does not use).
 * The others answer 482 string_parameter_too_long when too long and 419 parameter_invalid
 * otherwise. Every text is trimmed; an empty one clears a nullable field.
 */
import { z } from "zod";
import type { ErrorName } from "../errors.ts";
import { param } from "./call.ts";
import { chars, countryCode, formatted, openingTimesValue, text } from "./param-values.ts";

/** Countries whose postal codes are checked, with the accepted forms (spec, alter-business). */
export const POSTAL_CODE_FORMATS: Readonly<Record<string, RegExp>> = {
  /** `1234 AB`, also `1234AB` (letters in either case) */
  NL: /^\d{4} ?[A-Z]{2}$/i,
  /** `12345` or `D-12345` */
  DE: /^(?:D-)?\d{5}$/i,
  /** `1234` or `1234 BE` */
  BE: /^\d{4}(?: BE)?$/i,
};

/** An optional text parameter that an empty value clears. */
const clearable = <T extends z.ZodType>(schema: T, invalid: ErrorName, more: { length?: ErrorName; format?: ErrorName; description?: string } = {}) =>
  param(schema.nullable(), { invalid, ...more }).optional();
/** An optional text parameter without an error of its own: 482 when too long, 419 otherwise. */
const plain = <T extends z.ZodType>(schema: T, description?: string) =>
  clearable(schema, "parameter_invalid", { length: "string_parameter_too_long", ...(description ? { description } : {}) });

/**
 * The text field parameters both calls take with the same rules, in the order they are checked
 * (after `name`, which each call declares: required in add-business, optional in alter-business).
 */
export const businessTextParams = {
  owner_code: clearable(chars(64), "business_owner_code_invalid", { description: "unique among the chain's live businesses" }),
  address_1: clearable(chars(255), "business_address_1_invalid"),
  address_2: clearable(chars(255), "business_address_2_invalid"),
  address_3: clearable(chars(255), "business_address_3_invalid"),
  towncity: clearable(chars(255), "business_towncity_invalid"),
  region: clearable(chars(255), "business_region_invalid"),
  postalcode: clearable(chars(20), "business_postalcode_invalid", { description: "NL, DE and BE codes must have a form of their country (278 postalcode_invalid)" }),
  countrycode: clearable(countryCode(), "business_country_code_invalid", { format: "country_code_invalid", description: "ISO 3166-1 alpha-2; stored upper case" }),
  description: clearable(chars(512), "business_description_invalid"),
  email_address: clearable(formatted(chars(255), "email"), "business_email_address_invalid"),
  phone_number: clearable(formatted(chars(32), "phone"), "business_phone_number_invalid", { description: "valid in the numbering plan of its + prefix, else of countrycode" }),
  fax_number: clearable(formatted(chars(56), "phone"), "business_fax_number_invalid", { description: "valid in the numbering plan of its + prefix, else of countrycode" }),
  website_url: clearable(formatted(chars(255), "url"), "business_website_url_invalid"),
  socialnetwork_a_url: clearable(formatted(chars(255), "url"), "business_socialnetwork_a_url_invalid"),
  socialnetwork_b_url: clearable(formatted(chars(255), "url"), "business_socialnetwork_b_url_invalid"),
  socialnetwork_c_username: clearable(formatted(chars(15), "username"), "business_socialnetwork_c_username_invalid", { description: "no leading @" }),
  format: plain(chars(64), "sets business_format"),
  image_url: plain(chars(512)),
  opening_times: plain(
    openingTimesValue(),
    "JSON text with keys monday..sunday ({open, close} times HH:MM, both null when closed) and special_hours " +
      "([{date, open, close, reason}]); in a JSON body also the object itself",
  ),
};

/** The place id (1024 characters), under the name each call gives it. */
export const placeIdParam = (aliases?: readonly string[]) =>
  param(chars(1024).nullable(), {
    invalid: "parameter_invalid",
    length: "string_parameter_too_long",
    ...(aliases ? { aliases } : {}),
    description: "the Google place id of the business",
  }).optional();

/** review_url, whose maximum differs per call (255 add, 512 alter). */
export const reviewUrlParam = (max: number) => plain(chars(max));

/**
 * The coordinates and the booleans, checked after the text parameters.
 * @param outOfRange the error of a coordinate outside -90..90 / -180..180 (435 / 436 in
 *   add-business; 133 / 134, the errors of a coordinate that is no number, in alter-business)
 */
export function businessLocationParams(outOfRange: { latitude: ErrorName; longitude: ErrorName }) {
  return {
    latitude: param(z.number().min(-90).max(90), {
      invalid: "business_latitude_invalid",
      range: outOfRange.latitude,
      description: "decimal degrees; the business has both coordinates or neither (98 lat_long_both_required); an empty value leaves it",
    }).optional(),
    longitude: param(z.number().min(-180).max(180), {
      invalid: "business_longitude_invalid",
      range: outOfRange.longitude,
      description: "decimal degrees; an empty value leaves it",
    }).optional(),
    is_shut_down: param(z.boolean(), { invalid: "parameter_supplied_not_boolean", description: "a new business starts with false" }).optional(),
    programme_opted_in: param(z.boolean(), { invalid: "parameter_supplied_not_boolean", description: "a new business starts with true" }).optional(),
  };
}

/** The business name: 1-255 characters (it cannot be emptied). */
export const businessName = () => text(255);
