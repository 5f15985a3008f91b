/**
 * Reading the business fields of add-business and alter-business from their parameters (spec,
 * "Internal call: add-business", "Internal call: alter-business", "Errors"), driven by the
 * parameter rules of the shared contract (`@service/shared/internal/business-params`).
 *
 * Everything is checked before anything is written; the first failure raises, in this order:
 * the text parameters in the order of their rules, then latitude, longitude, the booleans, and
 * the rules that join fields (coordinates in pairs, postal code for the country, phone numbers
 * for the country).
 *
 * Where several codes could apply, one rule: a parameter with an error of its own (124-143)
 * raises it for every failure of that parameter, too long or badly formed, except that
 * - countrycode of 2 characters that is no ISO 3166-1 alpha-2 code raises 420 country_code_invalid
 *   (132 is for a length other than 2),
 * - postalcode in a form its country (NL, DE, BE) does not use raises 278 postalcode_invalid
 *   (131 is for over 20 characters),
 * - latitude / longitude out of range raise 435 / 436 in add-business (133 / 134 in
 *   alter-business, whose table gives the range with those codes; 133 / 134 in both for text that
 *   is no decimal number);
 * parameters without an error of their own raise 482 string_parameter_too_long when too long and
 * 419 parameter_invalid when badly formed (opening_times).
 */
import type { ErrorName } from "@service/shared";
import {
  POSTAL_CODE_FORMATS,
  type BusinessTextParam,
  type TextParamRule,
} from "@service/shared/internal/business-params";
import { TEXT_FORMAT_CHECKS } from "@service/shared/internal/param-values";
import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js/max";
import type { BusinessChanges, BusinessRow } from "../businesses/repository.ts";
import { readBoolean, readFloat, readString } from "../http/coerce.ts";
import type { Params } from "../http/params.ts";
import { ServiceError } from "../http/service-error.ts";

/** The column each text parameter writes. */
const COLUMN: Record<BusinessTextParam, keyof BusinessChanges> = {
  name: "name",
  owner_code: "ownerCode",
  address_1: "address1",
  address_2: "address2",
  address_3: "address3",
  towncity: "towncity",
  region: "region",
  postalcode: "postalcode",
  countrycode: "countryCode",
  description: "description",
  email_address: "emailAddress",
  phone_number: "phoneNumber",
  fax_number: "faxNumber",
  website_url: "websiteUrl",
  socialnetwork_a_url: "socialnetworkAUrl",
  socialnetwork_b_url: "socialnetworkBUrl",
  socialnetwork_c_username: "socialnetworkCUsername",
  format: "businessFormat",
  image_url: "imageUrl",
  opening_times: "openingTimes",
  google_place_id: "googlePlaceId",
  place_id: "googlePlaceId",
  review_url: "reviewUrl",
};

export interface BusinessFieldOptions {
  /** the stored business the request changes; its country and coordinates complete the request's */
  current?: BusinessRow | null;
  /** errors for a coordinate outside -90..90 / -180..180 */
  outOfRange: { latitude: ErrorName; longitude: ErrorName };
}

/**
 * Reads and checks every business field parameter of `rules` (unknown parameters are ignored).
 * An empty text clears a nullable field (null); `name` cannot be cleared.
 * @returns the changes to write: only the fields the request gives
 * @throws ServiceError the first failing check, see the module comment for codes
 */
export function readBusinessFields(
  params: Params,
  rules: Readonly<Record<string, TextParamRule>>,
  opts: BusinessFieldOptions,
): BusinessChanges {
  const out: BusinessChanges = {};
  for (const [param, rule] of Object.entries(rules)) {
    const value = readTextParam(params, param, rule);
    if (value !== undefined) (out as Record<string, unknown>)[COLUMN[param as BusinessTextParam]] = value;
  }

  const latitude = readCoordinate(params, "latitude", 90, "business_latitude_invalid", opts.outOfRange.latitude);
  const longitude = readCoordinate(params, "longitude", 180, "business_longitude_invalid", opts.outOfRange.longitude);
  if (latitude !== undefined) out.latitude = latitude;
  if (longitude !== undefined) out.longitude = longitude;
  const isShutDown = readBoolean(params, "is_shut_down");
  const optedIn = readBoolean(params, "programme_opted_in");
  if (isShutDown !== undefined) out.isShutDown = isShutDown;
  if (optedIn !== undefined) out.programmeOptedIn = optedIn;

  const current = opts.current ?? null;
  const next = <K extends keyof BusinessChanges>(key: K) =>
    key in out ? out[key] : current ? (current[key as keyof BusinessRow] as BusinessChanges[K]) : undefined;
  const hasLatitude = (next("latitude") ?? null) !== null;
  const hasLongitude = (next("longitude") ?? null) !== null;
  if (hasLatitude !== hasLongitude) {
    throw new ServiceError("lat_long_both_required", "latitude and longitude must be given together.");
  }
  const country = next("countryCode") ?? null;
  const postalcode = next("postalcode") ?? null;
  if (("postalcode" in out || "countryCode" in out) && postalcode && country && !isPostalCodeOf(postalcode, country)) {
    throw new ServiceError("postalcode_invalid", `postalcode "${postalcode}" is not a postal code of ${country}.`);
  }
  for (const [column, error] of [
    ["phoneNumber", "business_phone_number_invalid"],
    ["faxNumber", "business_fax_number_invalid"],
  ] as const) {
    const number = out[column];
    if (number && !isPhoneNumber(number, country)) throw new ServiceError(error, `${number} is not a valid number.`);
  }
  return out;
}

/** The value of `param` (or of its first alias sent); every alias sent is checked too. */
function readTextParam(params: Params, param: string, rule: TextParamRule): string | null | undefined {
  const keys = [param, ...(rule.aliases ?? [])].filter((k) => params[k] !== undefined);
  return keys.map((key) => readTextValue(params, key, param, rule))[0];
}

function readTextValue(params: Params, key: string, param: string, rule: TextParamRule): string | null | undefined {
  const raw = params[key];
  // A JSON body may carry opening_times as the object itself rather than its text.
  const source = rule.format === "opening_times" && raw !== null && typeof raw === "object" ? { [key]: JSON.stringify(raw) } : params;
  const value = readString(source, key, { max: rule.max, min: rule.min, tooLong: rule.error, invalid: rule.error });
  if (value === null && param === "name") throw new ServiceError(rule.error, "name cannot be empty.");
  if (value === null || value === undefined || !rule.format) return value;
  const text = rule.format === "country" ? value.toUpperCase() : value;
  if (!TEXT_FORMAT_CHECKS[rule.format](text)) {
    throw new ServiceError(rule.formatError ?? rule.error, `${key} is not a valid ${rule.format.replace("_", " ")}.`);
  }
  return text;
}

function readCoordinate(params: Params, key: string, bound: number, invalid: ErrorName, outOfRange: ErrorName): number | undefined {
  const value = readFloat(params, key, invalid);
  if (value !== undefined && Math.abs(value) > bound) {
    throw new ServiceError(outOfRange, `${key} must lie within -${bound}..${bound}.`);
  }
  return value;
}

/**
 * Whether `postalcode` has a form used in `country`: NL `1234 AB` or `1234AB`, DE `12345` or
 * `D-12345`, BE `1234` or `1234 BE`; codes of other countries are not checked.
 */
export function isPostalCodeOf(postalcode: string, country: string): boolean {
  const format = POSTAL_CODE_FORMATS[country.toUpperCase()];
  return format ? format.test(postalcode) : true;
}

/**
 * Whether `number` is a valid phone (or fax) number: digits with `+ ( ) . / -` and spaces,
 * valid in the numbering plan of its `+` prefix, else of `country`. Without either (or for a
 * country without a plan of its own, such as AQ), a national number cannot be checked against a
 * plan and passes with 6 to 15 digits.
 */
export function isPhoneNumber(number: string, country: string | null): boolean {
  if (!TEXT_FORMAT_CHECKS.phone(number)) return false;
  const plan = country && isSupportedCountry(country) ? (country as CountryCode) : undefined;
  const parsed = parsePhoneNumberFromString(number, plan);
  if (parsed) return parsed.isValid();
  if (number.startsWith("+") || plan) return false;
  const digits = number.replace(/\D/g, "").length;
  return digits >= 6 && digits <= 15;
}
