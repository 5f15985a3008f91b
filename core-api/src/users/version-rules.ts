/**
 * The add-user rules that differ by the request's `X-Service-API-version` (spec, "Versioning":
 * the add-user table), each with the version it starts at. The request's version is parsed once
 * (http/api-version.ts, `ctx.version`); every rule of users/ that differs by version reads it
 * through `userVersionRules`, nowhere else.
 */
import { versionAtLeast, type ApiVersion } from "../http/api-version.ts";

/** The first version of each rule. */
export const USER_RULE_VERSIONS = {
  /** gender accepts the extended list (before: male, female) */
  extendedGenders: [1, 4, 10],
  /** phone numbers stored in E.164; an invalid one is 547 invalid_phone_number (before: stored as given) */
  e164PhoneNumbers: [1, 6, 1],
  /** phone_number_status tracks validation and phone_number_duplicate is checked (before: unchecked, not checked) */
  phoneNumberStatus: [1, 6, 3],
} as const satisfies Record<string, ApiVersion>;

/** Which rules a request's version has. */
export type UserVersionRules = { readonly [K in keyof typeof USER_RULE_VERSIONS]: boolean };

/**
 * The rules of version `version`.
 * @example userVersionRules([1, 6, 1]) // { extendedGenders: true, e164PhoneNumbers: true, phoneNumberStatus: false }
 */
export function userVersionRules(version: ApiVersion): UserVersionRules {
  const has = (v: ApiVersion) => versionAtLeast(version, v[0], v[1], v[2]);
  return {
    extendedGenders: has(USER_RULE_VERSIONS.extendedGenders),
    e164PhoneNumbers: has(USER_RULE_VERSIONS.e164PhoneNumbers),
    phoneNumberStatus: has(USER_RULE_VERSIONS.phoneNumberStatus),
  };
}
