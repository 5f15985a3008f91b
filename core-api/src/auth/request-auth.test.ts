/**
 * Credentials are checked once per request, with the chain (auth/request-auth.ts), yet read as if
 * checked first: bad credentials answer 6 / 266 whatever else is wrong with the request, on every
 * path; and a deactivated account's sessions fail their next request.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminUsers, sessions, users } from "../db/schema.ts";
import { chainChecksum, startTwoChains, type TwoChains } from "./two-chains.test-support.ts";

let w: TwoChains;
beforeAll(async () => {
  w = await startTwoChains();
}, 60_000);
afterAll(() => w.core.close());

const code = (res: { status: number; body: any }) => [res.status, res.body?.error?.code ?? res.body?.result?.code];

describe("bad credentials are refused first, on every path", () => {
  const stale = () => ({ ...w.adminA.headers, "X-Service-Session-Key": "no-such-key" });
  const badToken = () => ({ Authorization: `Bearer ${w.tokenAId}:wrong-secret` });

  it("before a malformed chain header, an unknown path, an unknown resource or a bad body", async () => {
    const requests: Array<[string, string, Record<string, string>, string?]> = [
      ["GET", "/resources/businesses", { ...stale(), "X-Service-Chain-ID": "abc" }],
      ["GET", "/resources/no_such_resource", stale()],
      ["GET", "/internal/no-such-call", stale()],
      ["POST", "/resources/business", { ...stale(), "content-type": "application/json" }, '{"no_such_property":1}'],
      ["GET", "/internal/get-businesses", stale()],
    ];
    expect(requests).toHaveLength(5);
    for (const [method, path, headers, body] of requests) {
      expect(code(await w.core.json(path, { method, headers, ...(body ? { body } : {}) })), `${method} ${path}`).toEqual([401, 6]);
    }
    expect(code(await w.core.json("/internal/get-businesses", { headers: badToken() }))).toEqual([401, 266]);
    expect(code(await w.core.json("/resources/businesses", { headers: { ...badToken(), "X-Service-Chain-ID": "abc" } }))).toEqual([401, 266]);
  });

  it("on paths no handler checks them for: the schema document, login", async () => {
    expect(code(await w.core.json("/resources/schema"))[0]).toBe(200);
    expect(code(await w.core.json("/resources/schema", { headers: stale() }))).toEqual([401, 6]);
    expect(code(await w.core.json("/resources/schema", { headers: badToken() }))).toEqual([401, 266]);
    const before = (await w.core.db.select().from(sessions)).length;
    const login = await w.core.json("/auth/login", {
      method: "POST",
      headers: { ...stale(), "content-type": "application/json" },
      body: JSON.stringify({ username: w.adminA.username, password: w.adminA.password }),
    });
    expect(code(login)).toEqual([401, 6]);
    expect((await w.core.db.select().from(sessions)).length).toBe(before);
  });

  it("good credentials with the same mistakes get the mistakes' own errors", async () => {
    expect(code(await w.core.json("/resources/businesses", { headers: { ...w.adminA.headers, "X-Service-Chain-ID": "abc" } }))).toEqual([400, 419]);
    expect(code(await w.core.json("/resources/no_such_resource", { headers: w.adminA.headers }))).toEqual([404, 544]);
  });
});

describe("a deactivated account's sessions fail their next request", () => {
  it("an admin's: 6 on the Resources API and on internal calls; nothing written", async () => {
    const admin = await w.core.admin({ super_user: true });
    expect(code(await w.core.json("/resources/businesses", { headers: admin.headers }))).toEqual([200, 1]);
    await w.core.db.update(adminUsers).set({ active: false }).where(eq(adminUsers.id, admin.id));
    const before = await chainChecksum(w.core, w.chainA);
    expect(code(await w.core.json("/resources/businesses", { headers: admin.headers }))).toEqual([401, 6]);
    expect(code(await w.core.json(`/internal/get-businesses?chain_id=${w.chainA}`, { headers: admin.headers }))).toEqual([401, 6]);
    const post = await w.core.json("/resources/business", {
      method: "POST",
      headers: { ...admin.headers, "content-type": "application/json" },
      body: JSON.stringify({ name: "Never stored" }),
    });
    expect(code(post)).toEqual([401, 6]);
    expect(await chainChecksum(w.core, w.chainA)).toBe(before);
    await w.core.db.update(adminUsers).set({ active: true }).where(eq(adminUsers.id, admin.id));
    expect(code(await w.core.json("/resources/businesses", { headers: admin.headers }))).toEqual([200, 1]);
  });

  it("a shopper's: 6", async () => {
    expect(code(await w.core.json("/resources/businesses", { headers: w.shopperA }))).toEqual([200, 1]);
    await w.core.db.update(users).set({ active: false }).where(eq(users.id, w.shopperAId));
    const res = await w.core.json("/resources/businesses", { headers: w.shopperA });
    expect(code(res)).toEqual([401, 6]);
    expect(res.body.error.description).toContain("not active");
    await w.core.db.update(users).set({ active: true }).where(eq(users.id, w.shopperAId));
    expect(code(await w.core.json("/resources/businesses", { headers: w.shopperA }))).toEqual([200, 1]);
  });
});
