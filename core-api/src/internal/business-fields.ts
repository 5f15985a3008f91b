/**
 * The business fields of add-business and alter-business (spec, "Internal call: add-business",
 * "Internal call: alter-business", "Errors"): their parameters read with the call's shared
 * declaration (`@service/shared/internal/business-fields`, read by http/coerce.ts), mapped to
 * the columns they write, and the rules that join fields.
 *
 * Everything is checked before anything is written; the first failure raises, in this order:
 * the field parameters in declaration order (the text parameters, then latitude, longitude and
 * the booleans; their errors are declared with them: 124-143, 316, 419, 420, 435 / 436, 482),
 * then the rules that join fields:
 * - the business ends up with both coordinates or neither, else 98 lat_long_both_required;
 * - a postal code in a form its country (NL, DE, BE) does not use is 278 postalcode_invalid
 *   (131 is for over 20 characters);
 * - a phone or fax number must be valid in the numbering plan of its + prefix, else of the
 *   country, else 136 / 137.
 * The request's fields are completed with the stored business for these rules.
 */
import type { CallDeclaration } from "@service/shared/internal/call";
import { POSTAL_CODE_FORMATS } from "@service/shared/internal/business-fields";
import { PHONE_TEXT } from "@service/shared/internal/param-values";
import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js/max";
import type { BusinessChanges, BusinessRow } from "../businesses/business-repository.ts";
import { readCallParams } from "../http/coerce.ts";
import type { Params } from "../http/params.ts";
import { ServiceError } from "../http/service-error.ts";

/** The column each field parameter writes. */
const COLUMN = {
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
  latitude: "latitude",
  longitude: "longitude",
  is_shut_down: "isShutDown",
  programme_opted_in: "programmeOptedIn",
} as const satisfies Record<string, keyof BusinessChanges>;

export interface BusinessFieldOptions {
  /** the stored business the request changes; its country and coordinates complete the request's */
  current?: BusinessRow | null;
}

/**
 * Reads and checks the business field parameters `call` declares (add-business or
 * alter-business; unknown parameters are ignored).
 * @param params the request's parameters (http/params.ts)
 * @returns the changes to write: only the fields the request gives; an empty text clears a field (null)
 * @throws ServiceError the first failing check, see the module comment for codes
 */
export function readBusinessFields(params: Params, call: CallDeclaration, opts: BusinessFieldOptions = {}): BusinessChanges {
  const fields = [...call.parameters.keys()].filter((name) => Object.hasOwn(COLUMN, name));
  // A required field (add-business's name) is required by the handler, before the access check.
  const values = readCallParams(call, params, fields, { present: false }) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [param, value] of Object.entries(values)) out[COLUMN[param as keyof typeof COLUMN]] = value;
  checkJoinedFields(out as BusinessChanges, opts.current ?? null);
  return out as BusinessChanges;
}

/** The rules that join fields, on the request's changes completed with the stored business. */
function checkJoinedFields(out: BusinessChanges, current: BusinessRow | null): void {
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
  if (!PHONE_TEXT.test(number)) return false;
  const plan = country && isSupportedCountry(country) ? (country as CountryCode) : undefined;
  const parsed = parsePhoneNumberFromString(number, plan);
  if (parsed) return parsed.isValid();
  if (number.startsWith("+") || plan) return false;
  const digits = number.replace(/\D/g, "").length;
  return digits >= 6 && digits <= 15;
}
