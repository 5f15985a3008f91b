/** The user info object is declared once: the connector's update input and reads derive from it. */
import { describe, expect, it } from "vitest";
import { userInfoInputSchema, userInfoObjectSchema } from "./connector.ts";
import { userInfoSchema, type UserInfo } from "./user-info.ts";
import { userInfoHash } from "./node/user-info-hash.ts";

const USER: UserInfo = {
  id: 7, user_id: 7, member_number: "100000", username: "ann@example.com",
  address_streetname: "Damrak", address_housenumber: "1", address_housenumber_extension: "A", address_line_2: null,
  address_line_3: null, address_postalcode: "1012 LG", address_regionstate: null, address_towncity: "Amsterdam",
  birthday: "1990-05-06", country_code: "NL", entity_code: { code: "1", type: "chain" }, first_name: "Ann", last_name: "Lee",
  gender: "female",
  mailing_list: { mailing_list_sub_offered: true, mailing_list_subscribed: false, printed_mailing_list_subscribed: null },
  opt_in_programme: { programme_opted_in: true }, phone_number: "+31612345678", signup_channel: "pos",
  phone_number_status: 2, phone_number_duplicate: false, referral_code: "ABCD1234", auxiliary_identifier: null,
  authentication_point_identifier: null, language: "nl-NL", home_store_id: 3, signup_store_id: null, is_employee: false,
  registered: true, opt_in_secondary: null, created_date: "2026-11-21T10:00:00Z", last_modified_date: "2026-11-21T10:00:00Z",
};

describe("user info object", () => {
  it("is exactly its keys, every one present", () => {
    expect(userInfoSchema.parse(USER)).toEqual(USER);
    expect(userInfoSchema.safeParse({ ...USER, extra: 1 }).success).toBe(false);
    const { language: _language, ...withoutLanguage } = USER;
    expect(userInfoSchema.safeParse(withoutLanguage).success).toBe(false);
  });

  it("is what the connector's update accepts as user_info, unchanged", () => {
    const input = userInfoInputSchema.parse(USER);
    expect(input).toMatchObject({ user_id: 7, member_number: "100000", username: "ann@example.com", gender: "female", mailing_list: USER.mailing_list });
  });

  it("gives the connector's reads their keys and types", () => {
    const keys = Object.keys(userInfoObjectSchema.shape);
    for (const key of keys.filter((k) => k in USER)) expect(userInfoObjectSchema.shape[key as keyof typeof userInfoObjectSchema.shape]).toBe(userInfoSchema.shape[key as keyof UserInfo]);
    expect(keys.filter((k) => !(k in USER)).sort()).toEqual(["mailing_list_sub_offered", "mailing_list_subscribed", "printed_mailing_list_subscribed", "programme_opted_in", "webshop_customer_id"]);
  });

  it("hashes to last_hash without a password", async () => {
    expect(await userInfoHash({ ...USER, password: "secret" })).toBe(await userInfoHash(USER));
    expect(await userInfoHash(USER)).toMatch(/^[0-9a-f]{64}$/);
  });
});
