/**
 * The text parameters of add-business and alter-business as data: maximum length, the error a
 * too-long value raises, and the format each must have (spec, "Internal call: add-business",
 * "Internal call: alter-business", "Errors", "Limits").
 *
 * Maxima: where the spec's error table states smaller maxima than the parameter tables (address
 * lines 128, towncity / region 56, owner_code 32) the parameter tables win (handbook), and the
 * error names stay as listed. A parameter with an error of its own (124-143) raises it for every
 * failure, too long or badly formed; the others raise 482 string_parameter_too_long when too long,
 * and their format error (`formatError`) when badly formed. The core API reads its parameters with
 * these rules and the zod params schemas of the two calls are built from them, so the contract and
 * the server cannot drift apart.
 */
import type { ErrorName } from "../errors.ts";

/** Format checks beyond length. */
export type TextFormat = "email" | "phone" | "url" | "username" | "country" | "postalcode" | "opening_times";

export interface TextParamRule {
  /** most characters (Unicode code points), after trimming */
  readonly max: number;
  /** fewest characters of a non-empty value; shorter raises `error` */
  readonly min?: number;
  /** raised when the value is too long or too short */
  readonly error: ErrorName;
  readonly format?: TextFormat;
  /** raised when the format check fails (default: `error`) */
  readonly formatError?: ErrorName;
  /** other parameter names accepted for the same value; the rule's own name wins */
  readonly aliases?: readonly string[];
}

const r = <T extends TextParamRule>(rule: T): T => rule;

/** The text parameters both calls take, with the same rules. */
export const COMMON_BUSINESS_TEXT_PARAMS = {
  name: r({ max: 255, error: "business_name_invalid" }),
  owner_code: r({ max: 64, error: "business_owner_code_invalid" }),
  address_1: r({ max: 255, error: "business_address_1_invalid" }),
  address_2: r({ max: 255, error: "business_address_2_invalid" }),
  address_3: r({ max: 255, error: "business_address_3_invalid" }),
  towncity: r({ max: 255, error: "business_towncity_invalid" }),
  region: r({ max: 255, error: "business_region_invalid" }),
  postalcode: r({ max: 20, error: "business_postalcode_invalid", format: "postalcode", formatError: "postalcode_invalid" }),
  countrycode: r({ min: 2, max: 2, error: "business_country_code_invalid", format: "country", formatError: "country_code_invalid" }),
  description: r({ max: 512, error: "business_description_invalid" }),
  email_address: r({ max: 255, error: "business_email_address_invalid", format: "email" }),
  phone_number: r({ max: 32, error: "business_phone_number_invalid", format: "phone" }),
  fax_number: r({ max: 56, error: "business_fax_number_invalid", format: "phone" }),
  website_url: r({ max: 255, error: "business_website_url_invalid", format: "url" }),
  socialnetwork_a_url: r({ max: 255, error: "business_socialnetwork_a_url_invalid", format: "url" }),
  socialnetwork_b_url: r({ max: 255, error: "business_socialnetwork_b_url_invalid", format: "url" }),
  socialnetwork_c_username: r({ max: 15, error: "business_socialnetwork_c_username_invalid", format: "username" }),
  format: r({ max: 64, error: "string_parameter_too_long" }),
  image_url: r({ max: 512, error: "string_parameter_too_long" }),
  opening_times: r({ max: 2048, error: "string_parameter_too_long", format: "opening_times", formatError: "parameter_invalid" }),
} as const;

/** Text parameters of add-business (review_url max 255). */
export const ADD_BUSINESS_TEXT_PARAMS = {
  ...COMMON_BUSINESS_TEXT_PARAMS,
  google_place_id: r({ max: 1024, error: "string_parameter_too_long" }),
  review_url: r({ max: 255, error: "string_parameter_too_long" }),
} as const;

/**
 * Text parameters of alter-business (review_url max 512). The place id is named `place_id` here;
 * `google_place_id` (its name in the response) is accepted too.
 */
export const ALTER_BUSINESS_TEXT_PARAMS = {
  ...COMMON_BUSINESS_TEXT_PARAMS,
  place_id: r({ max: 1024, error: "string_parameter_too_long", aliases: ["google_place_id"] }),
  review_url: r({ max: 512, error: "string_parameter_too_long" }),
} as const;

export type AddBusinessTextParam = keyof typeof ADD_BUSINESS_TEXT_PARAMS;
export type AlterBusinessTextParam = keyof typeof ALTER_BUSINESS_TEXT_PARAMS;
export type BusinessTextParam = AddBusinessTextParam | AlterBusinessTextParam;

/** Countries whose postal codes are checked, with the accepted forms (spec, alter-business). */
export const POSTAL_CODE_FORMATS: Readonly<Record<string, RegExp>> = {
  /** `1234 AB`, also `1234AB` (letters in either case) */
  NL: /^\d{4} ?[A-Z]{2}$/i,
  /** `12345` or `D-12345` */
  DE: /^(?:D-)?\d{5}$/i,
  /** `1234` or `1234 BE` */
  BE: /^\d{4}(?: BE)?$/i,
};

/** Social network username (`socialnetwork_c_username`): 1-15 letters, digits or `_`, no leading @. */
export const SOCIAL_USERNAME = /^[A-Za-z0-9_]{1,15}$/;
