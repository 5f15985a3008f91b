/**
 * Bad input to add-user and alter-user: each parameter gets its own refusal with the spec's code
 * where the spec names one and 419 otherwise; wrong JSON types are refused, not coerced; a refused
 * call writes nothing. One bad value per declared parameter,
 * checked against the declaration so a new parameter without a case fails, and the rows of users,
 * referral links, member-number counters, admin users and baskets compared before and after.
 */
import { addUserCall } from "@service/shared/internal/add-user";
import { alterUserCall } from "@service/shared/internal/alter-user";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addUserAsAdmin, call, seedRange, startUsersWorld, writtenRows, type UsersWorld } from "../users/user-test-support.ts";

let w: UsersWorld;
let userId: number;
beforeAll(async () => {
  w = await startUsersWorld();
  await seedRange(w.core, w.core.chainId, "generated", 1000n, 1999n);
  const referrer = await addUserAsAdmin(w, { username: "referrer@example.com" });
  const { body } = await addUserAsAdmin(w, { username: "target@example.com", first_name: "Kept", phone_number: "+31612345678" });
  userId = body.results.user.id;
  expect(referrer.status).toBe(200);
}, 60_000);
afterAll(() => w.core.close());

const long = (n: number) => "x".repeat(n);
const PERMISSIONS = [...addUserCall.parameters.keys()].filter((p) => p.startsWith("permission_"));

/** One bad value per user field parameter, with the code it gets (1.6.8). */
const USER_FIELD_CASES: Record<string, [unknown, number]> = {
  username: ["not-an-email", 419],
  password: ["short", 419],
  member_number: ["12ab", 419],
  authentication_point_identifier: [long(256), 482],
  authentication_point_multi_id: ["first", 419],
  auxiliary_identifier: [long(256), 482],
  affiliate_code: [long(65), 482],
  first_name: [long(256), 482],
  last_name: [long(256), 482],
  address_streetname: [long(256), 482],
  address_housenumber: [long(65), 482],
  address_housenumber_extension: [long(65), 482],
  address_line_2: [long(256), 482],
  address_line_3: [long(256), 482],
  address_postalcode: [long(21), 482],
  address_regionstate: [long(256), 482],
  address_towncity: [long(256), 482],
  country_code: ["XX", 420],
  phone_number: ["not a phone", 547],
  birthday: ["06-05-1990", 419],
  birthday_field_format: ["YYYY/MM/DD", 419],
  gender: ["robot", 419],
  language: ["not a tag!", 419],
  store_id: ["first", 419],
  branch_business_owner_code: ["NO-SUCH-STORE", 419],
  home_store_id: [99_999_999, 419],
  referral_code: ["ZZ", 419],
  is_employee: ["maybe", 316],
  mailing_list_sub_offered: ["maybe", 316],
  mailing_list_subscribed: ["maybe", 316],
  printed_mailing_list_subscribed: ["maybe", 316],
  programme_opted_in: ["maybe", 316],
  opt_in_secondary: ["maybe", 316],
  registered: ["maybe", 316],
};

/** Further refusals of the same parameters (other limits and forms). */
const MORE_CASES: Array<[string, unknown, number, Record<string, unknown>?]> = [
  ["username", `${long(250)}@example.com`, 482],
  ["password", long(257), 419],
  ["member_number", "5000", 419],
  ["authentication_point_multi_id", 0, 419],
  ["address_postalcode", "ABC", 278, { country_code: "NL" }],
  ["country_code", "NLD", 420],
  ["phone_number", long(33), 482],
  ["phone_number", "12", 547, { country_code: "NL" }],
  ["birthday", "2099-01-01", 419],
  ["birthday", "31/02/1990", 419, { birthday_field_format: "DD/MM/YYYY" }],
  ["language", long(36), 482],
  ["store_id", 0, 419],
  ["home_store_id", "first", 419],
  ["branch_business_owner_code", long(65), 482],
  ["referral_code", "ZZZZZZZZ", 419],
];

/** Wrong JSON types, as raw JSON (after the call's own first parameters). */
const WRONG_TYPES: Array<[string, string, number]> = [
  ["an array for a text", '"first_name":["Ann"]', 419],
  ["an object for a text", '"username":{"a":"b@example.com"}', 419],
  ["a number for a text", '"member_number":1001', 419],
  ["a number for the phone number", '"phone_number":31612345678', 419],
  ["a number for a birthday", '"birthday":19900506', 419],
  ["a boolean for a text", '"gender":true', 419],
  ["a number for a boolean", '"is_employee":1', 316],
  ["an array for a boolean", '"registered":[true]', 316],
  ["an object for a boolean", '"programme_opted_in":{}', 316],
  ["an array for an integer", '"store_id":[1]', 419],
  ["a fraction for an integer", '"home_store_id":1.5', 419],
  ["1e309 for an integer", '"authentication_point_multi_id":1e309', 419],
  ["a boolean for an integer", '"store_id":true', 419],
];

describe("add-user: every parameter's own refusal; nothing written", () => {
  const cases: Record<string, [unknown, number]> = {
    chain_id: ["first", 76],
    update_if_exists: ["maybe", 316],
    if_unmodified_since: ["2026-02-30 10:00:00", 419],
    ...USER_FIELD_CASES,
    ...Object.fromEntries(PERMISSIONS.map((p) => [p, ["maybe", 316]])),
  };

  it("has a case for every declared parameter", () => {
    expect(Object.keys(cases).sort()).toEqual([...addUserCall.parameters.keys()].sort());
    expect(Object.keys(cases)).toHaveLength(47);
  });

  for (const [name, [value, code]] of Object.entries(cases)) {
    it(`${name} = ${JSON.stringify(value).slice(0, 24)}: ${code}`, async () => {
      const before = await writtenRows(w.core);
      const res = await addUserAsAdmin(w, { username: "new@example.com", ...(name.startsWith("permission_") ? { password: "long enough password" } : {}), [name]: value as never });
      expect([res.status, res.body.error?.code], JSON.stringify(res.body)).toEqual([400, code]);
      expect(await writtenRows(w.core)).toBe(before);
    });
  }

  for (const [name, value, code, extra] of MORE_CASES) {
    it(`${name} = ${JSON.stringify(value).slice(0, 24)}${extra ? ` with ${JSON.stringify(extra)}` : ""}: ${code}`, async () => {
      const before = await writtenRows(w.core);
      const res = await addUserAsAdmin(w, { username: "new@example.com", ...extra, [name]: value as never });
      expect(res.body.error?.code, JSON.stringify(res.body)).toBe(code);
      expect(await writtenRows(w.core)).toBe(before);
    });
  }

  for (const encoding of ["form", "multipart"] as const) {
    it(`the same refusals in ${encoding} bodies`, async () => {
      const before = await writtenRows(w.core);
      const sample: Array<[string, string, number]> = [["is_employee", "maybe", 316], ["store_id", "1.5", 419], ["country_code", "XX", 420], ["first_name", long(256), 482], ["phone_number", "abc", 547], ["chain_id", "x", 76]];
      for (const [name, value, code] of sample) {
        const res = await addUserAsAdmin(w, { username: "new@example.com", [name]: value }, encoding);
        expect(res.body.error?.code, `${name} ${JSON.stringify(res.body)}`).toBe(code);
      }
      expect(await writtenRows(w.core)).toBe(before);
    });
  }

  it.each(WRONG_TYPES)("%s: %s is %i", async (_what, rest, code) => {
    const before = await writtenRows(w.core);
    const res = await w.core.json("/internal/add-user", {
      method: "POST",
      headers: { ...w.adminHeaders, "content-type": "application/json" },
      body: `{"chain_id":${w.core.chainId},"username":"new@example.com",${rest}}`,
    });
    expect(res.body.error?.code, JSON.stringify(res.body)).toBe(code);
    expect(await writtenRows(w.core)).toBe(before);
  });

  it("chain_id of a wrong JSON type is 76", async () => {
    for (const chain of ["[1]", "true", '{"id":1}', "1.5"]) {
      const res = await w.core.json("/internal/add-user", { method: "POST", headers: { ...w.adminHeaders, "content-type": "application/json" }, body: `{"chain_id":${chain},"username":"new@example.com"}` });
      expect(res.body.error?.code, chain).toBe(76);
    }
  });
});

describe("alter-user: every parameter's own refusal; the user is unchanged", () => {
  const cases: Record<string, [unknown, number]> = { user_id: ["first", 419], chain_id: ["one", 76], ...USER_FIELD_CASES };

  it("has a case for every declared parameter", () => {
    expect(Object.keys(cases).sort()).toEqual([...alterUserCall.parameters.keys()].sort());
  });

  for (const [name, [value, code]] of Object.entries(cases)) {
    it(`${name} = ${JSON.stringify(value).slice(0, 24)}: ${code}`, async () => {
      const before = await writtenRows(w.core);
      const res = await call(w.core, "PUT", "/internal/alter-user", w.adminHeaders, { user_id: userId, first_name: "Changed?", [name]: value as never });
      expect([res.status, res.body.error?.code], JSON.stringify(res.body)).toEqual([400, code]);
      expect(await writtenRows(w.core)).toBe(before);
    });
  }

  it.each(WRONG_TYPES)("%s: %s is %i", async (_what, rest, code) => {
    const before = await writtenRows(w.core);
    const res = await w.core.json("/internal/alter-user", {
      method: "PUT",
      headers: { ...w.adminHeaders, "content-type": "application/json" },
      body: `{"user_id":${userId},"first_name":"Changed?",${rest.replace('"first_name":', '"last_name":')}}`,
    });
    expect(res.body.error?.code, JSON.stringify(res.body)).toBe(code);
    expect(await writtenRows(w.core)).toBe(before);
  });

  it("a username, member number or authentication point identifier of another user is user_already_exists", async () => {
    const before = await writtenRows(w.core);
    for (const params of [{ username: "referrer@example.com" }, { username: "REFERRER@example.com" }]) {
      const res = await call(w.core, "PUT", "/internal/alter-user", w.adminHeaders, { user_id: userId, first_name: "Changed?", ...params });
      expect([res.status, res.body.error?.name]).toEqual([400, "user_already_exists"]);
    }
    expect(await writtenRows(w.core)).toBe(before);
  });
});
