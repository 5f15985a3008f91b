/**
 * The user field parameters of add-user and alter-user (spec, "Internal call: add-user": its
 * parameter table; "Errors"), declared once for both calls, in the order they are checked.
 *
 * Errors: a parameter the spec names an error for answers it (country_code 420, the booleans
 * 316, phone_number 547 from version 1.6.1: checked by the core API, which knows the version);
 * a text over its maximum answers 482 string_parameter_too_long; everything else 419
 * parameter_invalid. Every text is trimmed (not the password); an empty value clears a field
 * (null; a boolean goes back to its default). Rules that need more than one parameter, the
 * request's version or the database (birthday with birthday_field_format, gender by version,
 * phone numbers, stores, member-number ranges, referral codes) are the core API's
 * (core-api/src/users/).
 */
import { z } from "zod";
import { USER_GENDERS } from "../user-info.ts";
import { param } from "./call.ts";
import { chars, countryCode, formatted } from "./param-values.ts";

const FORMAT = { params: { refusal: "format" } } as const;
const LENGTH = { params: { refusal: "length" } } as const;

/** The four birthday formats besides ISO 8601 (spec: `birthday_field_format`). */
export const BIRTHDAY_FIELD_FORMATS = ["DD-MM-YYYY", "D-M-YYYY", "DD/MM/YYYY", "D/M/YYYY"] as const;
export type BirthdayFieldFormat = (typeof BIRTHDAY_FIELD_FORMATS)[number];

/** Crockford base32 digits (no I, L, O, U). */
export const CROCKFORD_DIGITS = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/** Length of a referral code. */
export const REFERRAL_CODE_LENGTH = 8;

/**
 * A referral code as a person may type it: case ignored, `I`/`L` read as `1`, `O` as `0`, hyphens
 * dropped (Crockford's decoding rules).
 * @returns the canonical code, or null when it is no 8-digit Crockford base32 code
 */
export function canonicalReferralCode(text: string): string | null {
  const code = text.trim().toUpperCase().replace(/-/g, "").replace(/[IL]/g, "1").replace(/O/g, "0");
  return code.length === REFERRAL_CODE_LENGTH && [...code].every((ch) => CROCKFORD_DIGITS.includes(ch)) ? code : null;
}

/** Text that must be one of `values` (trimmed). */
const oneOf = (values: readonly string[], max: number) =>
  chars(max).refine((s) => s === "" || values.includes(s), { ...FORMAT, message: `must be one of ${values.join(", ")}` }).meta({ enum: [...values] });

/**
 * The genders older clients send as one letter: `M` male, `F` female (any case). Unambiguous, so
 * accepted at every version, as are the listed values in any case; stored as the listed value.
 */
export const GENDER_LETTERS: Readonly<Record<string, (typeof USER_GENDERS)[number]>> = { m: "male", f: "female" };

/** A gender as a client may send it: a listed value in any case, or a letter of GENDER_LETTERS. */
const genderText = () =>
  chars(16)
    .overwrite((s) => {
      const folded = s.toLowerCase();
      return GENDER_LETTERS[folded] ?? ((USER_GENDERS as readonly string[]).includes(folded) ? folded : s);
    })
    .refine((s) => s === "" || (USER_GENDERS as readonly string[]).includes(s), {
      ...FORMAT,
      message: `must be one of ${USER_GENDERS.join(", ")} (any case), or M / F for male / female`,
    })
    .meta({ enum: [...USER_GENDERS] });

/** A member number: decimal digits. */
export const MEMBER_NUMBER_TEXT = /^\d{1,64}$/;

/** An IETF BCP 47 language tag, by the runtime's own parser. */
export function isLanguageTag(s: string): boolean {
  try {
    return Intl.getCanonicalLocales(s).length === 1;
  } catch {
    return false;
  }
}

/** An optional text parameter: 482 when too long, 419 otherwise; empty clears. */
const textParam = (schema: z.ZodType<string>, description?: string) =>
  param(schema.nullable(), { invalid: "parameter_invalid", length: "string_parameter_too_long", ...(description ? { description } : {}) }).optional();
/** An optional boolean parameter (316); empty resets it to its default. */
const flagParam = (description: string) => param(z.boolean().nullable(), { invalid: "parameter_supplied_not_boolean", description }).optional();
/** An optional id of a business of the chain (419); empty clears. */
const storeParam = (description: string) => param(z.int().min(1).nullable(), { invalid: "parameter_invalid", description }).optional();

/** The user field parameters, in the order they are checked. */
export const userFieldParams = {
  username: textParam(formatted(chars(255), "email"), "an email address; without it a dummy address is made (add-user)"),
  password: param(
    z.string().refine((s) => [...s].length >= 8 && [...s].length <= 256, { ...LENGTH, message: "must have 8 to 256 characters" }).nullable(),
    { invalid: "parameter_invalid", description: "8 to 256 characters; stored as an argon2id hash, never returned" },
  ).optional(),
  member_number: textParam(
    chars(64).refine((s) => s === "" || MEMBER_NUMBER_TEXT.test(s), { ...FORMAT, message: "must be decimal digits" }),
    "decimal digits in one of the chain's member-number ranges; generated when absent (add-user)",
  ),
  authentication_point_identifier: textParam(chars(255), "the user's id in a third-party identity system; unique in the chain"),
  authentication_point_multi_id: param(z.int().min(1).nullable(), { invalid: "parameter_invalid", description: "selects one of several authentication points" }).optional(),
  auxiliary_identifier: textParam(chars(255)),
  affiliate_code: textParam(chars(64)),
  first_name: textParam(chars(255)),
  last_name: textParam(chars(255)),
  address_streetname: textParam(chars(255)),
  address_housenumber: textParam(chars(64)),
  address_housenumber_extension: textParam(chars(64)),
  address_line_2: textParam(chars(255)),
  address_line_3: textParam(chars(255)),
  address_postalcode: textParam(chars(20), "NL, DE and BE codes must have a form of their country (278 postalcode_invalid)"),
  address_regionstate: textParam(chars(255)),
  address_towncity: textParam(chars(255)),
  country_code: param(countryCode().nullable(), { invalid: "country_code_invalid", description: "ISO 3166-1 alpha-2; also the hint for national phone numbers" }).optional(),
  phone_number: textParam(chars(32), "E.164, or national with country_code, from version 1.6.1 (547 invalid_phone_number, also for an extension, control characters or other text the E.164 form would drop); as given before"),
  birthday: param(chars(32).nullable(), { invalid: "parameter_invalid", description: "ISO 8601 date (an offset is converted to UTC), or the form of birthday_field_format" }).optional(),
  birthday_field_format: param(oneOf(BIRTHDAY_FIELD_FORMATS, 10).nullable(), { invalid: "parameter_invalid", description: "the form of a birthday that is not ISO 8601" }).optional(),
  gender: param(genderText().nullable(), { invalid: "parameter_invalid", description: "male or female; the extended list from version 1.4.10" }).optional(),
  language: textParam(
    chars(35).refine((s) => s === "" || isLanguageTag(s), { ...FORMAT, message: "must be an IETF BCP 47 language tag" }),
    "IETF BCP 47 tag, stored in canonical case",
  ),
  store_id: storeParam("signup store: a live business of the chain; wins over branch_business_owner_code, even when empty"),
  branch_business_owner_code: textParam(chars(64), "signup store by the owner_code of a live business of the chain"),
  home_store_id: storeParam("home store: a live business of the chain"),
  // Looked up whatever its shape: codes imported from older systems differ from today's form.
  referral_code: textParam(
    chars(16),
    "another user's referral code in the chain (today's 8 Crockford base32 characters, typed in any case, or an older code as stored); that user is returned as referring_user",
  ),
  is_employee: flagParam("default false"),
  mailing_list_sub_offered: flagParam("default false"),
  mailing_list_subscribed: flagParam("default false"),
  printed_mailing_list_subscribed: flagParam("no default"),
  programme_opted_in: flagParam("default false"),
  opt_in_secondary: flagParam("no default"),
  registered: flagParam("default true"),
};

/** The user field parameters a shopper may not change on their own profile (alter-user). */
export const STAFF_ONLY_USER_FIELDS = ["member_number", "authentication_point_identifier", "is_employee"] as const;
