/**
 * alter-user over HTTP (handbook, "The user": alter-user): admins with assign access and tokens
 * change any field with add-user's validation; a shopper changes their own profile but not
 * member_number, authentication_point_identifier or is_employee. Refusals write nothing.
 */
import { alterUserResponseSchema } from "@service/shared/internal/alter-user";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ENCODINGS } from "../../../test/helpers/internal-calls.ts";
import { userReferrals } from "../db/schema.ts";
import { addUserAsAdmin, call, NATIVE_APP, seedRange, shopperSession, userRow, writtenRows, usersWorldForFile } from "../users/user-test-support.ts";

const w = usersWorldForFile(async () => {
  await seedRange(w.core, w.core.chainId, "generated", 800n, 899n);
  await seedRange(w.core, w.core.chainId, "custom", 900n, 999n);
});

let seq = 0;
const email = () => `alter-${++seq}@example.com`;
const alter = (headers: Record<string, string>, params: Record<string, unknown>, encoding: (typeof ENCODINGS)[number] = "json") =>
  call(w.core, "PUT", "/internal/alter-user", headers, params as never, encoding);

describe("alter-user by an admin", () => {
  for (const encoding of ENCODINGS) {
    it(`changes the fields given, in ${encoding}, and answers the user info object`, async () => {
      const created = (await addUserAsAdmin(w, { username: email(), first_name: "Ann", last_name: "Lee", country_code: "NL" })).body.results.user;
      const { status, body } = await alter(w.adminHeaders, {
        user_id: created.id, first_name: "Anne", birthday: "1985-12-31T23:30:00-01:00", member_number: String(910 + ENCODINGS.indexOf(encoding)), gender: "agender",
        home_store_id: w.stores[2]!.id, address_postalcode: "3511 AB", programme_opted_in: true,
      }, encoding);
      expect(status, JSON.stringify(body)).toBe(200);
      const { results } = alterUserResponseSchema.parse(body);
      expect(results).toEqual({
        user: {
          ...created, first_name: "Anne", birthday: "1986-01-01", member_number: String(910 + ENCODINGS.indexOf(encoding)), gender: "agender", home_store_id: w.stores[2]!.id,
          address_postalcode: "3511 AB", opt_in_programme: { programme_opted_in: true }, last_modified_date: created.last_modified_date,
        },
        result_type: "alter-user",
      });
    });
  }

  it("empty values clear; a referral code links the referrer once; a password is hashed", async () => {
    const referrer = (await addUserAsAdmin(w, { username: email() })).body.results.user;
    const user = (await addUserAsAdmin(w, { username: email(), first_name: "Ann", language: "de" })).body.results.user;
    const res = await alter(w.adminHeaders, { user_id: user.id, first_name: "", language: "", referral_code: referrer.referral_code, password: "a new password" });
    expect(res.body.results.user).toMatchObject({ first_name: null, language: null });
    expect((await userRow(w.core, user.id))!.passwordHash).toMatch(/^\$argon2id\$/);
    const links = await w.core.db.select().from(userReferrals).where(eq(userReferrals.userId, user.id));
    expect(links.map((l) => l.referringUserId)).toEqual([referrer.id]);
    const own = await alter(w.adminHeaders, { user_id: user.id, referral_code: user.referral_code });
    expect(own.body.error.code).toBe(419);
  });

  it("an empty username gives a dummy one; a missing user_id is 441; unknown or foreign users 68", async () => {
    const user = (await addUserAsAdmin(w, { username: email() })).body.results.user;
    const res = await alter(w.adminHeaders, { user_id: user.id, username: "" });
    expect(res.body.results.user.username).toMatch(/^user-[0-9a-f]{24}@dummy\.invalid$/);
    expect((await alter(w.adminHeaders, { first_name: "x" })).body.error.code).toBe(441);
    const otherAdmin = await w.core.admin({ assign: true }, w.otherChainId);
    const { "X-Service-Chain-ID": _c, ...headers } = otherAdmin.headers;
    const foreign = (await call(w.core, "POST", "/internal/add-user", headers, { chain_id: w.otherChainId, username: email() })).body.results.user;
    const before = await writtenRows(w.core);
    const answers = [await alter(w.adminHeaders, { user_id: foreign.id, first_name: "x" }), await alter(w.adminHeaders, { user_id: 99_999_999, first_name: "x" })];
    expect(answers[0]).toEqual(answers[1]);
    expect([answers[0]!.status, answers[0]!.body.error.code]).toEqual([403, 68]);
    expect(await writtenRows(w.core)).toBe(before);
  });

  it("needs assign access (68 for read and write admins); chain-scope tokens may", async () => {
    const user = (await addUserAsAdmin(w, { username: email() })).body.results.user;
    const writer = await w.core.admin({ read: true, write: true });
    const { "X-Service-Chain-ID": _c, ...headers } = writer.headers;
    const before = await writtenRows(w.core);
    expect((await alter(headers, { user_id: user.id, first_name: "x" })).body.error.code).toBe(68);
    expect(await writtenRows(w.core)).toBe(before);
    expect((await alter(w.token, { user_id: user.id, first_name: "Token" })).body.results.user.first_name).toBe("Token");
  });

  it("wrong method is 13", async () => {
    const res = await w.core.json("/internal/alter-user", { method: "POST", headers: w.adminHeaders });
    expect([res.status, res.body.error.code]).toEqual([405, 13]);
  });
});

describe("alter-user by a shopper", () => {
  it("changes their own profile, with or without user_id", async () => {
    const me = await shopperSession(w.core, NATIVE_APP, email());
    const res = await alter(me.headers, { first_name: "Mine", phone_number: "+31 6 12345699", password: "my new password" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.results.user).toMatchObject({ id: me.id, first_name: "Mine", phone_number: "+31612345699" });
    expect((await alter(me.headers, { user_id: me.id, last_name: "Self" })).body.results.user.last_name).toBe("Self");
    const login = await w.core.json("/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json", "X-Service-App-Hostname": NATIVE_APP },
      body: JSON.stringify({ username: res.body.results.user.username, password: "my new password" }),
    });
    expect(login.status).toBe(200);
  });

  it("cannot change member_number, authentication_point_identifier or is_employee, nor anyone else (68); nothing written", async () => {
    const me = await shopperSession(w.core, NATIVE_APP, email());
    const other = (await addUserAsAdmin(w, { username: email() })).body.results.user;
    const before = await writtenRows(w.core);
    for (const params of [{ member_number: "902" }, { authentication_point_identifier: "x" }, { is_employee: true }, { is_employee: "" }, { user_id: other.id, first_name: "x" }, { user_id: 99_999_999 }]) {
      const res = await alter(me.headers, params);
      expect([res.status, res.body.error?.code], JSON.stringify(params)).toEqual([403, 68]);
    }
    expect(await writtenRows(w.core)).toBe(before);
  });
});
