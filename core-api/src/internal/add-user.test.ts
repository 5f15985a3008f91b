/**
 * add-user over HTTP against the real database (spec, "Internal call: add-user"; handbook, "The
 * user"): every parameter in each content type, the user info object it answers, the existing-user
 * rule, empty parameters, member numbers, dummy usernames, referral codes, stores, birthdays,
 * gender by version, signup channels.
 */
import { addUserResponseSchema } from "@service/shared/internal/add-user";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENCODINGS } from "../../../test/helpers/internal-calls.ts";
import { chains, memberNumberRanges, userReferrals, users } from "../db/schema.ts";
import {
  addUserAsAdmin,
  call,
  MOBILE_WEB,
  NATIVE_APP,
  seedRange,
  startUsersWorld,
  userRow,
  WEBSHOP,
  writtenRows,
  type UsersWorld,
} from "../users/user-test-support.ts";

let w: UsersWorld;
let generated: number;
beforeAll(async () => {
  w = await startUsersWorld();
  generated = await seedRange(w.core, w.core.chainId, "generated", 100000n, 199999n);
  await seedRange(w.core, w.core.chainId, "custom", 500000n, 599999n);
}, 60_000);
afterAll(() => w.core.close());

let seq = 0;
const email = (what: string) => `${what}-${++seq}@example.com`;

describe("add-user: creating a user", () => {
  for (const encoding of ENCODINGS) {
    it(`takes every parameter (${encoding}) and answers the user info object`, async () => {
      const username = email(`full-${encoding}`);
      const [home, signup] = w.stores;
      const { status, body } = await addUserAsAdmin(w, {
        username,
        password: "correct horse battery",
        authentication_point_identifier: `webshop-${encoding}`,
        authentication_point_multi_id: 2,
        auxiliary_identifier: "aux-1",
        affiliate_code: "spring",
        first_name: " Ann ",
        last_name: "Lee",
        address_streetname: "Damrak",
        address_housenumber: "1",
        address_housenumber_extension: "A",
        address_line_2: "2nd floor",
        address_line_3: "rear",
        address_postalcode: "1012 LG",
        address_regionstate: "Noord-Holland",
        address_towncity: "Amsterdam",
        country_code: "nl",
        phone_number: "06 12345678".replace("5678", String(5670 + ENCODINGS.indexOf(encoding))),
        birthday: "06-05-1990",
        birthday_field_format: "DD-MM-YYYY",
        gender: "genderfluid",
        language: "nl-nl",
        store_id: signup!.id,
        home_store_id: home!.id,
        is_employee: encoding === "json" ? true : "yes",
        mailing_list_sub_offered: true,
        mailing_list_subscribed: "1",
        printed_mailing_list_subscribed: false,
        programme_opted_in: true,
        opt_in_secondary: true,
        registered: false,
      }, encoding, { "X-Service-Request": JSON.stringify({ client_channel: "pos" }) });
      expect(status, JSON.stringify(body)).toBe(200);
      const { results } = addUserResponseSchema.parse(body);
      const id = results.user.id;
      expect(results).toEqual({
        user: {
          id,
          user_id: id,
          member_number: expect.stringMatching(/^1\d{5}$/),
          username,
          address_streetname: "Damrak",
          address_housenumber: "1",
          address_housenumber_extension: "A",
          address_line_2: "2nd floor",
          address_line_3: "rear",
          address_postalcode: "1012 LG",
          address_regionstate: "Noord-Holland",
          address_towncity: "Amsterdam",
          birthday: "1990-05-06",
          country_code: "NL",
          entity_code: { code: String(w.core.chainId), type: "chain" },
          first_name: "Ann",
          last_name: "Lee",
          gender: "genderfluid",
          mailing_list: { mailing_list_sub_offered: true, mailing_list_subscribed: true, printed_mailing_list_subscribed: false },
          opt_in_programme: { programme_opted_in: true },
          phone_number: `+3161234567${ENCODINGS.indexOf(encoding)}`,
          signup_channel: "pos",
          phone_number_status: 2,
          phone_number_duplicate: false,
          referral_code: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{8}$/),
          auxiliary_identifier: "aux-1",
          authentication_point_identifier: `webshop-${encoding}`,
          language: "nl-NL",
          home_store_id: home!.id,
          signup_store_id: signup!.id,
          is_employee: true,
          registered: false,
          opt_in_secondary: true,
          created_date: "2026-11-21T10:00:00Z",
          last_modified_date: "2026-11-21T10:00:00Z",
        },
        user_type: "new",
        updated_existing_user: false,
        referring_user: null,
        result_type: "add-user",
      });
      const row = await userRow(w.core, id);
      expect(row).toMatchObject({ chainId: w.core.chainId, affiliateCode: "spring", authenticationPointMultiId: 2, active: true });
      expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
      expect(JSON.stringify(body)).not.toContain("correct horse");
    });
  }

  it("gives defaults: programme, mailing lists and employee false, registered true, status unchecked", async () => {
    const { body } = await addUserAsAdmin(w, { username: email("bare") });
    expect(body.results.user).toMatchObject({
      mailing_list: { mailing_list_sub_offered: false, mailing_list_subscribed: false, printed_mailing_list_subscribed: null },
      opt_in_programme: { programme_opted_in: false },
      is_employee: false, registered: true, opt_in_secondary: null, phone_number: null, phone_number_status: 0,
      phone_number_duplicate: false, signup_channel: null, gender: null, birthday: null,
    });
    expect((await userRow(w.core, body.results.user.id))!.passwordHash).toBeNull();
  });
});

describe("add-user: the existing-user rule", () => {
  it("a user with the same username, member_number or authentication_point_identifier is user_already_exists (400); nothing written", async () => {
    const username = email("dup");
    const first = await addUserAsAdmin(w, { username, authentication_point_identifier: "ap-dup" });
    const { member_number } = first.body.results.user;
    const before = await writtenRows(w.core);
    const cases: Array<Record<string, string>> = [{ username }, { username: email("other"), member_number }, { username: email("other"), authentication_point_identifier: "ap-dup" }, { username: username.toUpperCase() }];
    expect(cases).toHaveLength(4);
    for (const params of cases) {
      const { status, body } = await addUserAsAdmin(w, params);
      expect([status, body.error], JSON.stringify(params)).toEqual([400, expect.objectContaining({ code: 901, name: "user_already_exists" })]);
    }
    expect(await writtenRows(w.core)).toBe(before);
  });

  it("update_if_exists updates that user: updated_existing_user, user_type registered, only the parameters given change", async () => {
    const username = email("upd");
    const first = await addUserAsAdmin(w, { username, first_name: "Ann", last_name: "Lee", phone_number: "+31 6 11112222" }, "json", { "X-Service-Request": '{"client_channel":"store"}' });
    const { body } = await addUserAsAdmin(w, { username, update_if_exists: true, first_name: "Anna", is_employee: true }, "form", { "X-Service-Request": '{"client_channel":"import"}' });
    expect(body.results).toMatchObject({ user_type: "registered", updated_existing_user: true, referring_user: null });
    expect(body.results.user).toMatchObject({
      id: first.body.results.user.id, first_name: "Anna", last_name: "Lee", phone_number: "+31611112222", is_employee: true,
      member_number: first.body.results.user.member_number, referral_code: first.body.results.user.referral_code,
      signup_channel: "store", created_date: first.body.results.user.created_date,
    });
  });

  it("update_if_exists with empty parameters clears their values (booleans back to their default)", async () => {
    const username = email("clear");
    const first = await addUserAsAdmin(w, {
      username, first_name: "Ann", address_towncity: "Utrecht", phone_number: "+31 6 33334444", birthday: "1990-01-02",
      gender: "female", language: "en", store_id: w.stores[0]!.id, home_store_id: w.stores[1]!.id, is_employee: true,
      registered: false, opt_in_secondary: true, password: "long enough password",
    });
    const id = first.body.results.user.id;
    const empty = { first_name: "", address_towncity: "", phone_number: "", birthday: "", gender: "", language: "", store_id: "", home_store_id: "", is_employee: "", registered: "", opt_in_secondary: "", password: "" };
    for (const encoding of ENCODINGS) {
      const { status, body } = await addUserAsAdmin(w, { username, update_if_exists: true, ...empty }, encoding);
      expect(status, `${encoding} ${JSON.stringify(body)}`).toBe(200);
      expect(body.results.user, encoding).toMatchObject({
        id, first_name: null, address_towncity: null, phone_number: null, phone_number_status: 0, birthday: null, gender: null,
        language: null, signup_store_id: null, home_store_id: null, is_employee: false, registered: true, opt_in_secondary: null,
      });
      expect((await userRow(w.core, id))!.passwordHash, encoding).toBeNull();
    }
    // JSON null clears as an empty text does.
    await addUserAsAdmin(w, { username, update_if_exists: true, first_name: "Back" });
    const { body } = await addUserAsAdmin(w, { username, update_if_exists: true, first_name: null });
    expect(body.results.user.first_name).toBeNull();
  });

  it("several users matching is too_many_duplicate_objects (409), update_if_exists or not; nothing written", async () => {
    const a = await addUserAsAdmin(w, { username: email("a") });
    const b = await addUserAsAdmin(w, { username: email("b") });
    const before = await writtenRows(w.core);
    for (const update_if_exists of [true, false]) {
      const { status, body } = await addUserAsAdmin(w, { username: a.body.results.user.username, member_number: b.body.results.user.member_number, update_if_exists });
      expect([status, body.error]).toEqual([409, expect.objectContaining({ code: 902, name: "too_many_duplicate_objects" })]);
    }
    expect(await writtenRows(w.core)).toBe(before);
  });
});

describe("add-user: member numbers", () => {
  it("hands out the generated range's numbers in order, one each", async () => {
    const numbers = [];
    for (let i = 0; i < 3; i++) numbers.push((await addUserAsAdmin(w, { username: email("gen") })).body.results.user.member_number);
    const [n0, n1, n2] = numbers.map(Number);
    expect([n1! - n0!, n2! - n1!]).toEqual([1, 1]);
    const [range] = await w.core.db.select().from(memberNumberRanges).where(eq(memberNumberRanges.id, generated));
    expect(range!.nextNumber).toBe(BigInt(n2! + 1));
  });

  it("takes a given number in a range, skips it when generating, and refuses one outside every range (419)", async () => {
    const [range] = await w.core.db.select().from(memberNumberRanges).where(eq(memberNumberRanges.id, generated));
    const next = String(range!.nextNumber);
    const given = await addUserAsAdmin(w, { username: email("given"), member_number: next });
    expect(given.body.results.user.member_number).toBe(next);
    const after = await addUserAsAdmin(w, { username: email("after") });
    expect(after.body.results.user.member_number).toBe(String(range!.nextNumber + 1n));
    expect((await addUserAsAdmin(w, { username: email("custom"), member_number: "500001" })).body.results.user.member_number).toBe("500001");
    const before = await writtenRows(w.core);
    for (const outside of ["99999", "200000", "0500002", "600000"]) {
      const { status, body } = await addUserAsAdmin(w, { username: email("outside"), member_number: outside });
      expect([status, body.error?.code], outside).toEqual([400, 419]);
    }
    expect(await writtenRows(w.core)).toBe(before);
  });

  it("a chain without a generated range hands out numbers from the default range 10000000-99999999, created once", async () => {
    const chainId = await w.core.createChain("Numberless");
    const admin = await w.core.admin({ assign: true }, chainId);
    const { "X-Service-Chain-ID": _c, ...headers } = admin.headers;
    const first = await call(w.core, "POST", "/internal/add-user", headers, { chain_id: chainId, username: email("first") });
    const second = await call(w.core, "POST", "/internal/add-user", headers, { chain_id: chainId, username: email("second") });
    expect([first.body.results.user.member_number, second.body.results.user.member_number]).toEqual(["10000000", "10000001"]);
    const ranges = await w.core.db.select().from(memberNumberRanges).where(eq(memberNumberRanges.chainId, chainId));
    expect(ranges).toHaveLength(1);
    expect(ranges[0]).toMatchObject({ kind: "generated", first: 10_000_000n, last: 99_999_999n, nextNumber: 10_000_002n, deleted: false });
  });

  it("a chain whose custom range covers the default one, and no generated range: 419 naming it, nothing written", async () => {
    const chainId = await w.core.createChain("Covered");
    const rangeId = await seedRange(w.core, chainId, "custom", 50_000_000n, 60_000_000n);
    const admin = await w.core.admin({ assign: true }, chainId);
    const { "X-Service-Chain-ID": _c, ...headers } = admin.headers;
    const before = await writtenRows(w.core);
    const res = await call(w.core, "POST", "/internal/add-user", headers, { chain_id: chainId, username: email("covered") });
    expect([res.status, res.body.error?.code]).toEqual([400, 419]);
    expect(res.body.error.description).toContain(`overlaps its range ${rangeId}`);
    expect(await writtenRows(w.core)).toBe(before);
  });

  it("a used-up generated range refuses (419) without moving anything", async () => {
    const chainId = await w.core.createChain("Small");
    await seedRange(w.core, chainId, "generated", 7n, 7n);
    const admin = await w.core.admin({ assign: true }, chainId);
    const { "X-Service-Chain-ID": _c, ...headers } = admin.headers;
    const last = await call(w.core, "POST", "/internal/add-user", headers, { chain_id: chainId, username: email("last") });
    expect(last.body.results.user.member_number).toBe("7");
    const before = await writtenRows(w.core);
    const full = await call(w.core, "POST", "/internal/add-user", headers, { chain_id: chainId, username: email("full") });
    expect([full.status, full.body.error?.code]).toEqual([400, 419]);
    expect(await writtenRows(w.core)).toBe(before);
  });
});

describe("add-user: a member number whose range has gone", () => {
  it("still names its user: update_if_exists updates them, without it user_already_exists", async () => {
    const range = await seedRange(w.core, w.core.chainId, "custom", 700000n, 700009n);
    const held = await addUserAsAdmin(w, { username: email("held"), member_number: "700001" });
    await w.core.db.update(memberNumberRanges).set({ deleted: true }).where(eq(memberNumberRanges.id, range));
    const updated = await addUserAsAdmin(w, { member_number: "700001", update_if_exists: true, first_name: "Still" });
    expect(updated.body.results).toMatchObject({ updated_existing_user: true, user: { id: held.body.results.user.id, first_name: "Still" } });
    expect((await addUserAsAdmin(w, { member_number: "700001" })).body.error.name).toBe("user_already_exists");
    expect((await addUserAsAdmin(w, { member_number: "700002" })).body.error.code).toBe(419);
  });
});

describe("add-user: dummy usernames", () => {
  it("without a username: <member_number>@<dummy_email_domain> for a number of a custom range, else user-<24 hex>@<domain>", async () => {
    const plain = await addUserAsAdmin(w, { first_name: "No mail" });
    expect(plain.body.results.user.username).toMatch(/^user-[0-9a-f]{24}@dummy\.invalid$/);
    await w.core.db.update(chains).set({ dummyEmailDomain: "members.example" }).where(eq(chains.id, w.core.chainId));
    try {
      const custom = await addUserAsAdmin(w, { member_number: "500100" });
      expect(custom.body.results.user.username).toBe("500100@members.example");
      const generatedOne = await addUserAsAdmin(w, {});
      expect(generatedOne.body.results.user.username).toMatch(/^user-[0-9a-f]{24}@members\.example$/);
      const inGenerated = await addUserAsAdmin(w, { member_number: "150000" });
      expect(inGenerated.body.results.user.username).toMatch(/^user-[0-9a-f]{24}@members\.example$/);
    } finally {
      await w.core.db.update(chains).set({ dummyEmailDomain: null }).where(eq(chains.id, w.core.chainId));
    }
  });
});

describe("add-user: referral codes", () => {
  it("every user gets a code of their own; a valid code returns the referrer and links the users", async () => {
    const referrer = await addUserAsAdmin(w, { username: email("referrer"), first_name: "Rita", last_name: "Ref" });
    const code: string = referrer.body.results.user.referral_code;
    const typed = code.toLowerCase().slice(0, 4) + "-" + code.toLowerCase().slice(4);
    const { body } = await addUserAsAdmin(w, { username: email("referred"), referral_code: typed });
    expect(body.results.referring_user).toEqual({ id: referrer.body.results.user.id, first_name: "Rita", last_name: "Ref" });
    expect(body.results.user.referral_code).not.toBe(code);
    const links = await w.core.db.select().from(userReferrals).where(eq(userReferrals.userId, body.results.user.id));
    expect(links).toMatchObject([{ chainId: w.core.chainId, referringUserId: referrer.body.results.user.id }]);
  });

  it("a user updated with their own code is 419; nothing written", async () => {
    const self = await addUserAsAdmin(w, { username: email("self") });
    const before = await writtenRows(w.core);
    const res = await addUserAsAdmin(w, { username: self.body.results.user.username, update_if_exists: true, referral_code: self.body.results.user.referral_code });
    expect([res.status, res.body.error?.code]).toEqual([400, 419]);
    expect(await writtenRows(w.core)).toBe(before);
  });

  it("an unknown code, or another chain's, is 419 and nothing is written", async () => {
    const otherAdmin = await w.core.admin({ assign: true }, w.otherChainId);
    const { "X-Service-Chain-ID": _c, ...headers } = otherAdmin.headers;
    const foreign = await call(w.core, "POST", "/internal/add-user", headers, { chain_id: w.otherChainId, username: email("foreign") });
    const before = await writtenRows(w.core);
    for (const referral_code of ["ZZZZZZZZ", foreign.body.results.user.referral_code]) {
      const { status, body } = await addUserAsAdmin(w, { username: email("bad-ref"), referral_code });
      expect([status, body.error?.code], referral_code).toEqual([400, 419]);
    }
    expect(await writtenRows(w.core)).toBe(before);
  });
});

describe("add-user: stores", () => {
  it("store_id wins over branch_business_owner_code, even when empty; the owner code names the signup store", async () => {
    const [s1, s2] = w.stores;
    const byCode = await addUserAsAdmin(w, { username: email("code"), branch_business_owner_code: s2!.ownerCode });
    expect(byCode.body.results.user.signup_store_id).toBe(s2!.id);
    const both = await addUserAsAdmin(w, { username: email("both"), store_id: s1!.id, branch_business_owner_code: s2!.ownerCode });
    expect(both.body.results.user.signup_store_id).toBe(s1!.id);
    for (const encoding of ENCODINGS) {
      const blank = await addUserAsAdmin(w, { username: email("blank"), store_id: "", branch_business_owner_code: s2!.ownerCode }, encoding);
      expect(blank.body.results.user.signup_store_id, encoding).toBeNull();
    }
    // an unknown owner code is not even looked at when store_id is sent
    const ignored = await addUserAsAdmin(w, { username: email("ignored"), store_id: s1!.id, branch_business_owner_code: "NO-SUCH" });
    expect(ignored.status).toBe(200);
  });

  it("a store that is no live business of the chain is 419; nothing written", async () => {
    const before = await writtenRows(w.core);
    const cases: Array<Record<string, string | number>> = [
      { store_id: w.deletedStoreId }, { store_id: w.otherChainStoreId }, { store_id: 99_999_999 },
      { home_store_id: w.deletedStoreId }, { home_store_id: w.otherChainStoreId },
      { branch_business_owner_code: "GONE" }, { branch_business_owner_code: "F-1" },
    ];
    expect(cases).toHaveLength(7);
    for (const params of cases) {
      const { status, body } = await addUserAsAdmin(w, { username: email("store"), ...params });
      expect([status, body.error?.code], JSON.stringify(params)).toEqual([400, 419]);
    }
    expect(await writtenRows(w.core)).toBe(before);
  });
});

describe("add-user: gender by version", () => {
  it("male and female at every version; the extended list from 1.4.10, refused (419) before", async () => {
    for (const [version, gender, code] of [["1.4.9", "female", 200], ["1.4.9", "nonbinary", 419], ["1.4.10", "nonbinary", 200], ["1.5.8", "twospirit", 200], ["1.4.9", "other", 419]] as const) {
      const res = await addUserAsAdmin(w, { username: email("g"), gender }, "json", { "X-Service-API-version": version });
      expect(res.status === 200 ? 200 : res.body.error.code, `${version} ${gender}`).toBe(code);
    }
  });

  it("a value outside the list is 419 at every version", async () => {
    for (const version of ["1.4.9", "1.6.8"]) {
      const res = await addUserAsAdmin(w, { username: email("g"), gender: "robot" }, "json", { "X-Service-API-version": version });
      expect([res.status, res.body.error?.code]).toEqual([400, 419]);
    }
  });
});

describe("add-user: signup channel", () => {
  const token = (w: UsersWorld, hostname: string, extra: Record<string, string> = {}) => ({ ...w.token, "X-Service-App-Hostname": hostname, ...extra });

  it("client_channel: the allowed values as sent, any other as unknown:<value>", async () => {
    for (const [channel, stored] of [["mobile:ios", "mobile:ios"], ["import", "import"], ["kiosk", "unknown:kiosk"]]) {
      const { body } = await addUserAsAdmin(w, { username: email("ch") }, "json", { "X-Service-Request": JSON.stringify({ client_channel: channel }) });
      expect(body.results.user.signup_channel).toBe(stored);
    }
  });

  it("without client_channel: the app's kind through a token, platform for the identity source, null for an admin", async () => {
    const cases: Array<[Record<string, string>, string | null]> = [
      [token(w, NATIVE_APP), "service-native-app"],
      [token(w, MOBILE_WEB), "service-mobile-web"],
      [token(w, WEBSHOP), "webshop"],
      [token(w, WEBSHOP, { "X-Service-Request": '{"client_channel":"mobile:web"}' }), "mobile:web"],
      [{ ...w.identityToken, "X-Service-App-Hostname": WEBSHOP }, "platform"],
      [w.adminHeaders, null],
    ];
    expect(cases).toHaveLength(6);
    for (const [headers, channel] of cases) {
      const params: Record<string, string | number> = headers === w.adminHeaders ? { chain_id: w.core.chainId, username: email("src") } : { username: email("src") };
      const { status, body } = await call(w.core, "POST", "/internal/add-user", headers, params);
      expect(status, JSON.stringify(body)).toBe(200);
      expect(body.results.user.signup_channel).toBe(channel);
    }
  });

  it("is set once: update_if_exists and alter-user never change it", async () => {
    const username = email("once");
    const first = await call(w.core, "POST", "/internal/add-user", token(w, MOBILE_WEB), { username });
    expect(first.body.results.user.signup_channel).toBe("service-mobile-web");
    const again = await call(w.core, "POST", "/internal/add-user", token(w, WEBSHOP, { "X-Service-Request": '{"client_channel":"pos"}' }), { username, update_if_exists: true });
    expect(again.body.results).toMatchObject({ updated_existing_user: true, user: { signup_channel: "service-mobile-web" } });
    const altered = await call(w.core, "PUT", "/internal/alter-user", w.adminHeaders, { user_id: first.body.results.user.id, signup_channel: "pos" });
    expect(altered.body.results.user.signup_channel).toBe("service-mobile-web");
    expect((await w.core.db.select({ c: users.signupChannel }).from(users).where(eq(users.id, first.body.results.user.id)))[0]!.c).toBe("service-mobile-web");
  });
});
