/**
 * The user info object (spec, "Webshop connector endpoints": the keys of `user_info`; "Internal
 * call: add-user"): a platform user (shopper) as every party sees it, declared once. It is
 * - the `results.user` of add-user, get-user and alter-user (core API);
 * - the shape the connector's `update` accepts as `user_info` (connector.ts derives its lenient
 *   input schema from these fields);
 * - the input of `last_hash` (user-info-hash.ts).
 *
 * Keys: the spec's user_info keys (member_number, user_id, username, address_*, birthday,
 * country_code, entity_code, first_name, last_name, gender, id, mailing_list {...},
 * opt_in_programme {...}, phone_number) plus the user fields the spec names elsewhere
 * (signup_channel, phone_number_status, phone_number_duplicate, referral_code,
 * auxiliary_identifier, authentication_point_identifier, language, home_store_id,
 * signup_store_id, is_employee, registered, opt_in_secondary, created_date, last_modified_date).
 * `id` and `user_id` are the same number (get-user calls it `id`, the connector `user_id`).
 * `entity_code` names the entity the user belongs to: `{code: "<chain id>", type: "chain"}`.
 */
import { z } from "zod";
import { responseDateTime } from "./internal/param-values.ts";

/** The gender values of add-user from version 1.4.10 (spec, "Internal call: add-user", "Versioning"). */
export const USER_GENDERS = [
  "male", "female", "nonbinary", "transgender", "agender", "genderqueer", "genderfluid",
  "bigender", "twospirit", "androgynous", "pangender", "neutrois", "demigender", "other",
] as const;
export type UserGender = (typeof USER_GENDERS)[number];

/** The gender values before version 1.4.10, when the extended list arrived. */
export const BASIC_USER_GENDERS = ["male", "female"] as const satisfies readonly UserGender[];

/** `phone_number_status` (spec, "Internal call: add-user"): 0 unchecked, 1 invalid, 2 validated, 3 verified. */
export const PHONE_NUMBER_STATUS = { unchecked: 0, invalid: 1, validated: 2, verified: 3 } as const;
export type PhoneNumberStatus = (typeof PHONE_NUMBER_STATUS)[keyof typeof PHONE_NUMBER_STATUS];

/** `YYYY-MM-DD` */
export const ISO_DATE = /^\d{4}-\d\d-\d\d$/;

const text = (max: number) => z.string().max(max).nullable();

/**
 * The fields of the user info object with their types, one line each. Text maxima are the
 * columns the core API stores them in.
 */
export const userInfoFields = {
  id: z.int().positive(),
  user_id: z.int().positive(),
  /** decimal string from the chain's member-number ranges */
  member_number: text(64),
  /** an email address (a dummy one when the user gave none) */
  username: z.string().max(255),
  address_streetname: text(255),
  address_housenumber: text(64),
  address_housenumber_extension: text(64),
  address_line_2: text(255),
  address_line_3: text(255),
  address_postalcode: text(20),
  address_regionstate: text(255),
  address_towncity: text(255),
  /** YYYY-MM-DD */
  birthday: z.string().regex(ISO_DATE, "must be YYYY-MM-DD").nullable(),
  /** ISO 3166-1 alpha-2, upper case */
  country_code: z.string().length(2).nullable(),
  entity_code: z.strictObject({ code: z.string(), type: z.string() }).nullable(),
  first_name: text(255),
  last_name: text(255),
  gender: z.enum(USER_GENDERS).nullable(),
  mailing_list: z.strictObject({
    mailing_list_sub_offered: z.boolean(),
    mailing_list_subscribed: z.boolean(),
    printed_mailing_list_subscribed: z.boolean().nullable(),
  }),
  opt_in_programme: z.strictObject({ programme_opted_in: z.boolean() }),
  /** E.164 from version 1.6.1; as given by older versions */
  phone_number: text(32),
  /** set once at creation, never changed */
  signup_channel: text(64),
  phone_number_status: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]),
  phone_number_duplicate: z.boolean(),
  /** 8 characters, Crockford base32, unique in the chain */
  referral_code: z.string().length(8).nullable(),
  auxiliary_identifier: text(255),
  authentication_point_identifier: text(255),
  /** IETF BCP 47 tag, canonical case */
  language: text(35),
  home_store_id: z.int().positive().nullable(),
  signup_store_id: z.int().positive().nullable(),
  is_employee: z.boolean(),
  registered: z.boolean(),
  opt_in_secondary: z.boolean().nullable(),
  created_date: responseDateTime,
  last_modified_date: responseDateTime,
};

/** The user info object: exactly these keys, every one present. */
export const userInfoSchema = z.strictObject(userInfoFields);
export type UserInfo = z.infer<typeof userInfoSchema>;

/** A referring user as add-user returns it (`referring_user`). */
export const referringUserSchema = z.strictObject({
  id: z.int().positive(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
});
export type ReferringUser = z.infer<typeof referringUserSchema>;
