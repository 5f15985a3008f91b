/**
 * The error catalogue of the specification ("Errors"), as data.
 *
 * Every row of the spec's error table is here, keyed by its name. Where the spec leaves the HTTP
 * status open (266, 424, 544, 547, 555, too_many_duplicate_objects) the handbook's decision is
 * used: 401 / 403 / 404 / 400 / 409 / 409. Code 13 has two names (one per required method).
 *
 * Every error body carries an integer code (handbook, "error body"). Where the spec gives none
 * (`user_already_exists` and `too_many_duplicate_objects`, "-" in its table) or the error is not
 * the spec's (`too_many_login_attempts`), the code is ours: OUR_CODES_FROM and up, a range the
 * spec does not use, so a client can tell our codes from the spec's.
 */
export interface ErrorDefinition {
  /** Numeric error code: the spec's, or ours (>= OUR_CODES_FROM) where the spec gives none. */
  readonly code: number;
  /** HTTP status of the response carrying this error. */
  readonly status: number;
  /** Default human-readable description. */
  readonly description: string;
}

/** Our own error codes start here; the spec's highest is 555. */
export const OUR_CODES_FROM = 900;

const e = (code: number, status: number, description: string): ErrorDefinition => ({
  code,
  status,
  description,
});

export const ERRORS = {
  http_vars_missing: e(3, 400, "A required parameter is missing."),
  no_valid_session: e(6, 401, "No valid session: the session is missing, unknown or expired."),
  http_request_method_non_PUT_not_allowed: e(13, 405, "This call only accepts the PUT method."),
  http_request_method_non_POST_not_allowed: e(13, 405, "This call only accepts the POST method."),
  http_request_method_non_GET_not_allowed: e(13, 405, "This call only accepts the GET method."),
  http_request_method_non_DELETE_not_allowed: e(13, 405, "This call only accepts the DELETE method."),
  business_id_invalid: e(15, 400, "business_id is not an integer."),
  permission_denied_or_non_existent: e(68, 403, "Insufficient permission, or the object does not exist."),
  chain_id_invalid: e(76, 400, "chain_id is not an integer."),
  lat_long_both_required: e(98, 400, "Latitude and longitude must be given together."),
  lat_long_invalid: e(99, 400, "Latitude must lie in -90..90 and longitude in -180..180."),
  business_name_invalid: e(124, 400, "The business name is invalid (at most 255 characters)."),
  business_description_invalid: e(125, 400, "The business description is invalid (at most 512 characters)."),
  business_address_1_invalid: e(126, 400, "address_1 is invalid (at most 255 characters)."),
  business_address_2_invalid: e(127, 400, "address_2 is invalid (at most 255 characters)."),
  business_address_3_invalid: e(128, 400, "address_3 is invalid (at most 255 characters)."),
  business_towncity_invalid: e(129, 400, "towncity is invalid (at most 255 characters)."),
  business_region_invalid: e(130, 400, "region is invalid (at most 255 characters)."),
  business_postalcode_invalid: e(131, 400, "postalcode is invalid (at most 20 characters)."),
  business_country_code_invalid: e(132, 400, "The country code must be 2 characters."),
  business_latitude_invalid: e(133, 400, "latitude is not a decimal degree within -90..90."),
  business_longitude_invalid: e(134, 400, "longitude is not a decimal degree within -180..180."),
  business_email_address_invalid: e(135, 400, "The email address is invalid."),
  business_phone_number_invalid: e(136, 400, "The phone number is invalid."),
  business_fax_number_invalid: e(137, 400, "The fax number is invalid."),
  business_website_url_invalid: e(138, 400, "The website URL is invalid."),
  business_socialnetwork_a_url_invalid: e(139, 400, "socialnetwork_a_url is not a valid URL."),
  business_socialnetwork_c_username_invalid: e(140, 400, "socialnetwork_c_username is invalid (at most 15 characters, no leading @)."),
  business_socialnetwork_b_url_invalid: e(141, 400, "socialnetwork_b_url is not a valid URL."),
  business_owner_code_invalid: e(143, 400, "owner_code is invalid (at most 64 characters)."),
  campaign_id_invalid: e(244, 400, "campaign_id is not an integer."),
  campaign_id_not_present: e(245, 400, "campaign_id is missing."),
  campaign_id_not_found: e(246, 404, "The campaign was not found."),
  access_token_invalid: e(266, 401, "The access token is inactive or deleted, or its service client is disabled or deleted."),
  postalcode_invalid: e(278, 400, "The postal code format is invalid for the country."),
  business_already_exists: e(311, 400, "A business with this owner_code already exists in the chain."),
  parameter_supplied_not_boolean: e(316, 400, "A boolean parameter has a value that is not a boolean."),
  parameter_invalid: e(419, 400, "A parameter has the wrong format."),
  country_code_invalid: e(420, 400, "The country code is not an ISO 3166-1 alpha-2 code."),
  access_denied: e(424, 403, "The token scope is not allowed."),
  latitude_value_error: e(435, 400, "latitude lies outside -90..90."),
  longitude_value_error: e(436, 400, "longitude lies outside -180..180."),
  parameter_missing: e(441, 400, "A required parameter is missing."),
  string_parameter_too_long: e(482, 400, "A string parameter exceeds its maximum length."),
  resource_not_found: e(544, 404, "The resource does not exist, belongs to another chain, or is not available for this authentication type."),
  invalid_phone_number: e(547, 400, "The phone number cannot be parsed or validated."),
  phone_number_already_exists: e(555, 409, "The phone number is already in use in a chain that requires unique phone numbers."),
  /** Spec code "-": 901 is ours. */
  user_already_exists: e(901, 400, "A user with this username, member number or authentication point identifier already exists."),
  /** Spec code "-": 902 is ours. */
  too_many_duplicate_objects: e(902, 409, "update_if_exists matches several users."),
  /** Not a spec name (the spec leaves rate limits open), so 903 is ours: login refused after repeated failures (core-api auth/throttle.ts). */
  too_many_login_attempts: e(903, 429, "Too many failed login attempts; try again later."),
  /** Not a spec name, so 904 is ours: the database did not answer in time or cannot be reached (sent with Retry-After). */
  service_unavailable: e(904, 503, "The service is temporarily unavailable; try again later."),
  /** Not a spec name (the spec does not show verify-phone-number's errors), so 905-908 are ours. */
  phone_verification_code_invalid: e(905, 400, "The phone verification code is wrong."),
  phone_verification_code_expired: e(906, 400, "The phone verification code has expired; change or re-submit the phone number for a new one."),
  phone_verification_attempts_exceeded: e(907, 429, "Too many wrong phone verification codes: for the code (change or re-submit the phone number for a new one), or for the user or the number in the chain's window (sent with Retry-After)."),
  phone_verification_not_pending: e(908, 409, "No phone verification code is pending for the user's phone number."),
  /** Not spec names (the spec names the basket calls only), so 909-919 are ours: basket vouchers and referrals. */
  voucher_not_claimed: e(909, 409, "The voucher has not been claimed, so it cannot be redeemed."),
  voucher_already_redeemed: e(910, 409, "The voucher has already been redeemed."),
  voucher_expired: e(911, 409, "The voucher has expired."),
  voucher_locked: e(912, 423, "The voucher is locked, and neither its exclusive basket code nor its locking code matches."),
  voucher_not_redeemable_here: e(913, 403, "The voucher cannot be redeemed in this basket: another business, or a negative basket that refuses it."),
  basket_already_exists: e(914, 409, "A basket with this retailer_basket_code already exists with different content."),
  basket_price_changed: e(915, 409, "The voucher's discount differs from the expected_discount the shop gave."),
  voucher_not_applicable: e(916, 409, "The voucher has nothing to discount in this basket, or double discounting is not allowed."),
  referral_code_own: e(917, 400, "A user cannot apply their own referral code."),
  referral_window_closed: e(918, 409, "The chain's referral code submission window is not configured or has passed for this user."),
  referral_already_applied: e(919, 409, "The user already has a referrer."),
  /** Ours (909-919 are the baskets'): no code was sent to the number because the chain's send limits held it back (sent with Retry-After). */
  phone_verification_send_limited: e(920, 429, "No phone verification code was sent: the chain's limits on codes sent hold it back; re-submit the phone number after Retry-After seconds."),
} as const satisfies Record<string, ErrorDefinition>;

/** The name of an error of the catalogue, for example `parameter_invalid`. */
export type ErrorName = keyof typeof ERRORS;

/** Whether `name` is an error name of the catalogue. */
export function isErrorName(name: string): name is ErrorName {
  return Object.hasOwn(ERRORS, name);
}
