/**
 * A user's phone number by the request's version (spec, "Internal call: add-user": phone_number
 * and the phone status fields; "Versioning"), with libphonenumber-js and its full metadata:
 *
 * - empty: the number is cleared (status 0 unchecked, not a duplicate);
 * - from 1.6.1 the number is stored in E.164, a national number read with `country_code` as the
 *   hint; one that cannot be parsed, or is no valid number of its plan, is 547
 *   invalid_phone_number, and so is input the E.164 form would silently lose something of: an
 *   extension ("ext. 5", "x5", ";ext=5"), control or format characters (a NUL, a zero-width
 *   space), or any other text around the number (libphonenumber-js reads the text as a whole,
 *   `extract: false`); spaces, dashes, dots, brackets and a "00" or national prefix are only
 *   formatting and are dropped; before 1.6.1 the number is stored as given;
 * - `phone_number_status`: from 1.6.3 a valid number is 2 validated, and a re-submitted verified
 *   number stays 3 verified; a request below 1.6.1 storing an invalid number gives 1 invalid
 *   (rather than 0 unchecked); otherwise 0 unchecked, or what the unchanged number had;
 * - `phone_number_duplicate`: from 1.6.3 checked against the chain's other users (the caller
 *   runs the query: "check"); before, false for a new number, kept for an unchanged one.
 * Pure; the duplicate query and the chain's require_unique_phone_number (555) are the caller's.
 */
import { PHONE_NUMBER_STATUS, type PhoneNumberStatus } from "@service/shared/user-info";
import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode, type PhoneNumber } from "libphonenumber-js/max";
import { ServiceError } from "../http/service-error.ts";
import type { UserVersionRules } from "./version-rules.ts";

/** What the user has stored now. */
export interface StoredPhone {
  number: string | null;
  status: number;
  duplicate: boolean;
}

/** The phone columns to store; `duplicate: "check"` asks the caller to look for another user with the number. */
export interface PhoneDecision {
  number: string | null;
  status: PhoneNumberStatus;
  duplicate: boolean | "check";
}

/**
 * Decides the stored phone number and its status fields.
 * @param given the trimmed phone_number; null when sent empty (clears)
 * @param countryCode the user's country (the request's, else the stored one): the hint for national numbers
 * @param stored the user's current phone fields; null for a new user
 * @throws ServiceError invalid_phone_number (547) from version 1.6.1 for a number that cannot be
 *   parsed, is not valid, or would lose an extension, control characters or other text
 * @example decidePhone("06 12345678", "NL", { e164PhoneNumbers: true, phoneNumberStatus: true, extendedGenders: true }, null)
 *   // { number: "+31612345678", status: 2, duplicate: "check" }
 */
export function decidePhone(given: string | null, countryCode: string | null, rules: UserVersionRules, stored: StoredPhone | null): PhoneDecision {
  if (given === null || given === "") return { number: null, status: PHONE_NUMBER_STATUS.unchecked, duplicate: false };
  const hint = countryCode && isSupportedCountry(countryCode) ? (countryCode as CountryCode) : undefined;
  const parsed = parsePhoneNumberFromString(given, { ...(hint ? { defaultCountry: hint } : {}), extract: false });
  const valid = parsed?.isValid() === true;
  if (rules.e164PhoneNumbers) refuseLossyNumber(given, parsed, valid, hint);
  const number = rules.e164PhoneNumbers ? parsed!.number : given;
  const unchanged = stored !== null && stored.number === number;
  const keptStatus = unchanged ? (stored.status as PhoneNumberStatus) : PHONE_NUMBER_STATUS.unchecked;
  let status: PhoneNumberStatus;
  if (rules.phoneNumberStatus) status = unchanged && stored.status === PHONE_NUMBER_STATUS.verified ? PHONE_NUMBER_STATUS.verified : PHONE_NUMBER_STATUS.validated;
  else if (!rules.e164PhoneNumbers && !valid) status = PHONE_NUMBER_STATUS.invalid;
  else status = keptStatus;
  const duplicate = rules.phoneNumberStatus ? "check" : unchanged ? stored.duplicate : false;
  return { number, status, duplicate };
}

/** Control (Cc) and format (Cf) characters: a NUL, a tab, a zero-width space, a direction mark. */
const INVISIBLE = /[\p{Cc}\p{Cf}]/u;

/**
 * Refuses a number that is none, or whose E.164 form would drop part of what was given.
 * @throws ServiceError invalid_phone_number (547), naming what is wrong
 */
function refuseLossyNumber(given: string, parsed: PhoneNumber | undefined, valid: boolean, hint: CountryCode | undefined): void {
  const shown = JSON.stringify(given);
  if (INVISIBLE.test(given)) throw new ServiceError("invalid_phone_number", `phone_number ${shown} holds control characters; give the number only.`);
  if (!valid) throw new ServiceError("invalid_phone_number", `phone_number ${shown} is no valid phone number${hint ? ` (read with country ${hint})` : ""}.`);
  if (parsed!.ext) throw new ServiceError("invalid_phone_number", `phone_number ${shown} has an extension (${parsed!.ext}), which a stored E.164 number cannot hold; give the number without it.`);
}
