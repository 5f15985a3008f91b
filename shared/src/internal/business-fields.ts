/**
 * The params both business write calls take with the same rules (spec, "Internal call:
 * add-business", "Internal call: alter-business"): every field of the business but name, the
 * place id and review_url, whose names or maxima differ per call.
 */
import { COMMON_BUSINESS_TEXT_PARAMS as T } from "./business-params.ts";
import { booleanValue, decimalValue, openingTimesValue, textValue } from "./param-values.ts";

/** Zod shape of the shared business field params; absent = unchanged (or the default on creation). */
export const businessFieldParams = {
  owner_code: textValue(T.owner_code).optional(),
  address_1: textValue(T.address_1).optional(),
  address_2: textValue(T.address_2).optional(),
  address_3: textValue(T.address_3).optional(),
  towncity: textValue(T.towncity).optional(),
  region: textValue(T.region).optional(),
  postalcode: textValue(T.postalcode).optional(),
  countrycode: textValue(T.countrycode).optional(),
  /** sets business_format */
  format: textValue(T.format).optional(),
  image_url: textValue(T.image_url).optional(),
  opening_times: openingTimesValue(T.opening_times).optional(),
  description: textValue(T.description).optional(),
  email_address: textValue(T.email_address).optional(),
  phone_number: textValue(T.phone_number).optional(),
  fax_number: textValue(T.fax_number).optional(),
  website_url: textValue(T.website_url).optional(),
  socialnetwork_a_url: textValue(T.socialnetwork_a_url).optional(),
  socialnetwork_b_url: textValue(T.socialnetwork_b_url).optional(),
  socialnetwork_c_username: textValue(T.socialnetwork_c_username).optional(),
  /** degrees, -90..90; the business ends up with both coordinates or neither */
  latitude: decimalValue.optional(),
  /** degrees, -180..180 */
  longitude: decimalValue.optional(),
  /** a new business starts with false */
  is_shut_down: booleanValue.optional(),
  /** a new business starts with true */
  programme_opted_in: booleanValue.optional(),
};
