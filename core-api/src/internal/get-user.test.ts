/**
 * get-user over HTTP (handbook, "The user": get-user): by each identifier, for admins with read
 * access, chain-scope tokens and a shopper reading their own profile; refusals answer alike for a
 * missing user, another chain's and (for a shopper) anyone else.
 */
import { getUserResponseSchema } from "@service/shared/internal/get-user";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addUserAsAdmin, call, MOBILE_WEB, NATIVE_APP, seedRange, shopperSession, startUsersWorld, type UsersWorld } from "../users/user-test-support.ts";

let w: UsersWorld;
let user: any;
let otherUserId: number;
beforeAll(async () => {
  w = await startUsersWorld();
  await seedRange(w.core, w.core.chainId, "generated", 300n, 399n);
  user = (await addUserAsAdmin(w, { username: "reader@example.com", authentication_point_identifier: "cust-42", first_name: "Rea" })).body.results.user;
  const otherAdmin = await w.core.admin({ assign: true }, w.otherChainId);
  const { "X-Service-Chain-ID": _c, ...headers } = otherAdmin.headers;
  otherUserId = (await call(w.core, "POST", "/internal/add-user", headers, { chain_id: w.otherChainId, username: "reader@example.com" })).body.results.user.id;
}, 60_000);
afterAll(() => w.core.close());

const get = (headers: Record<string, string>, params: Record<string, string | number>) => call(w.core, "GET", "/internal/get-user", headers, params);

describe("get-user", () => {
  it("finds the user by each identifier and answers what add-user answered", async () => {
    const cases: Array<Record<string, string | number>> = [
      { user_id: user.id },
      { user_id: user.id, chain_id: w.core.chainId },
      { chain_id: w.core.chainId, username: "READER@example.com" },
      { chain_id: w.core.chainId, member_number: user.member_number },
      { chain_id: w.core.chainId, authentication_point_identifier: "cust-42" },
    ];
    expect(cases).toHaveLength(5);
    for (const params of cases) {
      const res = await get(w.adminHeaders, params);
      expect(res.status, JSON.stringify(params)).toBe(200);
      expect(getUserResponseSchema.parse(res.body).results).toEqual({ user, result_type: "get-user" });
    }
    const json = await w.core.json(`/internal/get-user.json?user_id=${user.id}`, { headers: w.adminHeaders });
    expect(json.body.results.user.id).toBe(user.id);
  });

  it("renders datetimes by version", async () => {
    const res = await w.core.json(`/internal/get-user?user_id=${user.id}`, { headers: { ...w.adminHeaders, "X-Service-API-version": "1.6.1" } });
    expect(res.body.results.user.created_date).toBe("2026-11-21 10:00:00");
  });

  it("admins need read access; chain-scope tokens read their chain", async () => {
    const reader = await w.core.admin({ read: true });
    const { "X-Service-Chain-ID": _c, ...headers } = reader.headers;
    expect((await get(headers, { user_id: user.id })).status).toBe(200);
    expect((await get(w.token, { chain_id: w.core.chainId, username: "reader@example.com" })).status).toBe(200);
    const none = await w.core.admin({ campaign: true });
    const { "X-Service-Chain-ID": _d, ...noRead } = none.headers;
    expect((await get(noRead, { user_id: user.id })).body.error.code).toBe(68);
  });

  it("a missing user, one of another chain, and a chain the caller cannot read all answer 68 alike", async () => {
    const answers = await Promise.all([
      get(w.adminHeaders, { user_id: 99_999_999 }),
      get(w.adminHeaders, { user_id: otherUserId }),
      get(w.adminHeaders, { user_id: user.id, chain_id: w.otherChainId }),
      get(w.adminHeaders, { chain_id: w.otherChainId, username: "reader@example.com" }),
      get(w.adminHeaders, { chain_id: w.core.chainId, username: "nobody@example.com" }),
    ]);
    expect(new Set(answers.map((a) => JSON.stringify(a)))).toEqual(new Set([JSON.stringify({ status: 403, body: answers[0]!.body })]));
    expect(answers[0]!.body.error.code).toBe(68);
  });

  it("names exactly one user: none is 441, several 419, a key without chain_id 3", async () => {
    expect((await get(w.adminHeaders, {})).body.error.code).toBe(441);
    expect((await get(w.adminHeaders, { chain_id: w.core.chainId })).body.error.code).toBe(441);
    expect((await get(w.adminHeaders, { user_id: user.id, username: "reader@example.com" })).body.error.code).toBe(419);
    expect((await get(w.adminHeaders, { username: "reader@example.com" })).body.error.code).toBe(3);
    expect((await get(w.adminHeaders, { user_id: "first" })).body.error.code).toBe(419);
    expect((await get(w.adminHeaders, { chain_id: "x", user_id: user.id })).body.error.code).toBe(76);
  });

  it("wrong method is 13", async () => {
    const res = await w.core.json("/internal/get-user", { method: "POST", headers: w.adminHeaders });
    expect([res.status, res.body.error.code]).toEqual([405, 13]);
  });
});

describe("get-user by a shopper", () => {
  it("reads their own profile without parameters, or naming themselves", async () => {
    const me = await shopperSession(w.core, NATIVE_APP, "me@example.com");
    const own = await get(me.headers, {});
    expect(own.status).toBe(200);
    expect(own.body.results.user).toMatchObject({ id: me.id, username: "me@example.com" });
    expect((await get(me.headers, { user_id: me.id })).body.results.user.id).toBe(me.id);
    expect((await get(me.headers, { user_id: me.id, chain_id: w.core.chainId })).status).toBe(200);
    expect((await get(me.headers, { username: "ME@example.com" })).body.results.user.id).toBe(me.id);
    // through another app of the same chain too
    const viaOtherApp = await get({ ...me.headers, "X-Service-App-Hostname": MOBILE_WEB }, {});
    expect(viaOtherApp.body.results.user.id).toBe(me.id);
  });

  it("naming anyone else, or another chain, is 68, as a missing user", async () => {
    const me = await shopperSession(w.core, NATIVE_APP, "me2@example.com");
    const answers = await Promise.all([
      get(me.headers, { user_id: user.id }),
      get(me.headers, { username: "reader@example.com" }),
      get(me.headers, { member_number: user.member_number }),
      get(me.headers, { user_id: 99_999_999 }),
      get(me.headers, { user_id: otherUserId }),
      get(me.headers, { chain_id: w.otherChainId }),
    ]);
    for (const a of answers) expect([a.status, a.body.error?.code]).toEqual([403, 68]);
  });
});
