/**
 * The user field parameters of add-user and alter-user (`@service/shared/internal/user-params`)
 * as the changes they make (spec, "Internal call: add-user": its parameter table; handbook, "The
 * user"). Reading is pure: the parameters are read with the call's declaration (http/coerce.ts,
 * which answers each parameter's own error), then the rules that need the request's version or
 * more than one parameter:
 * - gender: male or female only before version 1.4.10 (419);
 * - birthday: ISO 8601 or the form of birthday_field_format (users/birthday.ts, 419);
 * - language: stored in canonical case (`en-us` -> `en-US`);
 * - a boolean sent empty goes back to its default (is_employee, mailing list, programme: false;
 *   registered: true); printed_mailing_list_subscribed and opt_in_secondary have none (null).
 * What needs the user's stored fields (the phone number, the postal code's country) is decided by
 * `completeUserChanges`, inside the write.
 */
import { BASIC_USER_GENDERS, type UserGender } from "@service/shared/user-info";
import type { CallDeclaration } from "@service/shared/internal/call";
import { POSTAL_CODE_FORMATS } from "@service/shared/internal/business-fields";
import type { BirthdayFieldFormat } from "@service/shared/internal/user-params";
import { userFieldParams } from "@service/shared/internal/user-params";
import { readCallParams } from "../http/coerce.ts";
import type { Params } from "../http/params.ts";
import { ServiceError } from "../http/service-error.ts";
import { parseBirthday } from "./birthday.ts";
import { decidePhone, type PhoneDecision } from "./phone-number.ts";
import type { UserColumns, UserRow } from "./user-repository.ts";
import type { UserVersionRules } from "./version-rules.ts";

/** The names of the user field parameters. */
export const USER_FIELD_NAMES = Object.keys(userFieldParams) as Array<keyof typeof userFieldParams>;
export type UserFieldName = (typeof USER_FIELD_NAMES)[number];

/** Parameters stored as they are read, by column. */
const DIRECT = {
  first_name: "firstName",
  last_name: "lastName",
  address_streetname: "addressStreetname",
  address_housenumber: "addressHousenumber",
  address_housenumber_extension: "addressHousenumberExtension",
  address_line_2: "addressLine2",
  address_line_3: "addressLine3",
  address_postalcode: "addressPostalcode",
  address_regionstate: "addressRegionstate",
  address_towncity: "addressTowncity",
  affiliate_code: "affiliateCode",
  authentication_point_identifier: "authenticationPointIdentifier",
  authentication_point_multi_id: "authenticationPointMultiId",
  auxiliary_identifier: "auxiliaryIdentifier",
  country_code: "countryCode",
  gender: "gender",
} as const satisfies Partial<Record<UserFieldName, keyof UserColumns>>;

/** Booleans by column, with the value an empty parameter gives back. */
const FLAGS = {
  is_employee: ["isEmployee", false],
  mailing_list_sub_offered: ["mailingListSubOffered", false],
  mailing_list_subscribed: ["mailingListSubscribed", false],
  printed_mailing_list_subscribed: ["printedMailingListSubscribed", null],
  programme_opted_in: ["programmeOptedIn", false],
  opt_in_secondary: ["optInSecondary", null],
  registered: ["registered", true],
} as const satisfies Partial<Record<UserFieldName, readonly [keyof UserColumns, boolean | null]>>;

/**
 * What the request changes. For every key: absent (undefined) = unchanged, null = sent empty
 * (cleared), otherwise the new value.
 */
export interface UserChanges {
  /** column values taken straight from parameters */
  columns: UserColumns;
  /** parameters given, by name (also those empty) */
  given: ReadonlySet<UserFieldName>;
  username?: string | null;
  password?: string | null;
  memberNumber?: string | null;
  phoneNumber?: string | null;
  /** the signup store: by id when store_id was sent (even empty), else by owner code */
  signupStore?: { storeId: number | null } | { ownerCode: string | null };
  homeStoreId?: number | null;
  /** a referral code as given (trimmed); looked up by user-references.ts */
  referralCode?: string | null;
}

/**
 * Reads the user field parameters `call` declares (add-user or alter-user).
 * @param today the request's clock (birthday may not lie after it)
 * @throws ServiceError the declared error of the first parameter refused (316, 419, 420, 482),
 *   then 419 for a gender of the extended list before version 1.4.10 or a birthday of neither form
 */
export function readUserChanges(call: CallDeclaration, params: Params, rules: UserVersionRules, today: Date): UserChanges {
  const values = readCallParams(call, params, USER_FIELD_NAMES, { present: false }) as Partial<Record<UserFieldName, unknown>>;
  const given = new Set(Object.keys(values) as UserFieldName[]);
  const columns: Record<string, unknown> = {};
  for (const [name, column] of Object.entries(DIRECT)) if (given.has(name as UserFieldName)) columns[column] = values[name as UserFieldName];
  for (const [name, [column, empty]] of Object.entries(FLAGS)) if (given.has(name as UserFieldName)) columns[column] = values[name as UserFieldName] ?? empty;

  const gender = values.gender as UserGender | null | undefined;
  if (gender && !rules.extendedGenders && !(BASIC_USER_GENDERS as readonly string[]).includes(gender)) {
    throw new ServiceError("parameter_invalid", `gender ${gender} is accepted from version 1.4.10; before it only ${BASIC_USER_GENDERS.join(" or ")}.`);
  }
  if (given.has("birthday")) {
    const text = values.birthday as string | null;
    columns.birthday = text === null ? null : parseBirthday(text, values.birthday_field_format as BirthdayFieldFormat | null | undefined, today);
  }
  if (given.has("language")) {
    const tag = values.language as string | null;
    columns.language = tag === null ? null : Intl.getCanonicalLocales(tag)[0]!;
  }

  const changes: UserChanges = { columns: columns as UserColumns, given };
  if (given.has("username")) changes.username = values.username as string | null;
  if (given.has("password")) changes.password = values.password as string | null;
  if (given.has("member_number")) changes.memberNumber = values.member_number as string | null;
  if (given.has("phone_number")) changes.phoneNumber = values.phone_number as string | null;
  if (given.has("store_id")) changes.signupStore = { storeId: values.store_id as number | null };
  else if (given.has("branch_business_owner_code")) changes.signupStore = { ownerCode: values.branch_business_owner_code as string | null };
  if (given.has("home_store_id")) changes.homeStoreId = values.home_store_id as number | null;
  if (given.has("referral_code")) {
    const code = values.referral_code as string | null;
    changes.referralCode = code;
  }
  return changes;
}

/** The columns the stored user and the request decide together. */
export interface CompletedChanges {
  /** the phone columns, when the request gives phone_number */
  phone?: PhoneDecision;
}

/**
 * The rules that need the user's stored fields, on the request completed with them:
 * - a postal code in a form its country (NL, DE, BE) does not use is 278 postalcode_invalid;
 * - phone_number by version (users/phone-number.ts), with the country as the hint.
 * @param stored the user as stored; null for a new user
 * @throws ServiceError postalcode_invalid (278); invalid_phone_number (547) from version 1.6.1
 */
export function completeUserChanges(changes: UserChanges, stored: UserRow | null, rules: UserVersionRules): CompletedChanges {
  const country = changes.columns.countryCode !== undefined ? changes.columns.countryCode : (stored?.countryCode ?? null);
  const postalcode = changes.columns.addressPostalcode !== undefined ? changes.columns.addressPostalcode : (stored?.addressPostalcode ?? null);
  const touched = changes.columns.countryCode !== undefined || changes.columns.addressPostalcode !== undefined;
  const form = country ? POSTAL_CODE_FORMATS[country] : undefined;
  if (touched && postalcode && form && !form.test(postalcode)) {
    throw new ServiceError("postalcode_invalid", `address_postalcode ${postalcode} is not a postal code of ${country}.`);
  }
  if (changes.phoneNumber === undefined) return {};
  const current = stored ? { number: stored.phoneNumber, status: stored.phoneNumberStatus, duplicate: stored.phoneNumberDuplicate } : null;
  return { phone: decidePhone(changes.phoneNumber, country, rules, current) };
}
