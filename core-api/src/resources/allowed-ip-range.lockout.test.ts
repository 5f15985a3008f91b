/**
 * No self-lockout (ip-ranges/self-lockout.ts): a write of the allowed IP ranges or of the chain's
 * super-user exemption that would leave the admin making it outside the chain's ranges is refused
 * with 419 and nothing is written; the same write is allowed when a range still covers the address
 * or the exemption still applies. Over HTTP, with a fake socket address (`x-test-peer` stands for
 * the runtime's getConnInfo).
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestCore } from "../../../test/helpers/core.ts";
import { allowedIpRanges, chains } from "../db/schema.ts";
import { createAdmin, grantAccess } from "../db/seed.ts";

let core: TestCore;
beforeAll(async () => {
  core = await startCore({ clientAddress: (c) => c.req.header("x-test-peer"), sleep: async () => {} });
});
afterAll(() => core.close());

const HOME = "203.0.113.10";
const ELSEWHERE = "192.0.2.0/24";

let seq = 0;
/** A fresh chain (with `exemption`) and a super user of it logged in from HOME. */
async function superUserOfNewChain(exemption = false) {
  const chainId = await core.createChain(`Lockout ${++seq}`);
  await core.db.update(chains).set({ ipWhitelistSuperUserExemption: exemption }).where(eq(chains.id, chainId));
  const username = `lockout-${seq}@example.com`;
  const adminId = await createAdmin(core.db, { username, password: "pw-secret" });
  await grantAccess(core.db, adminId, chainId, { super_user: true });
  const login = await core.json("/auth/login", {
    method: "POST",
    headers: { "content-type": "application/json", "x-test-peer": HOME },
    body: JSON.stringify({ username, password: "pw-secret" }),
  });
  const headers = {
    "X-Service-Session-User-ID": String(login.body.results.session_info.session_user_id),
    "X-Service-Session-Key": login.body.results.session_info.session_key,
    "X-Service-Chain-ID": String(chainId),
    "x-test-peer": HOME,
    "content-type": "application/json",
  };
  const call = (method: string, path: string, body?: unknown, peer = HOME) =>
    core.json(path, { method, headers: { ...headers, "x-test-peer": peer }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { chainId, call };
}

const rangesOf = (chainId: number) =>
  core.db.select().from(allowedIpRanges).where(eq(allowedIpRanges.chainId, chainId)).orderBy(allowedIpRanges.id);
const liveCidrs = async (chainId: number) =>
  (await core.db.select().from(allowedIpRanges).where(and(eq(allowedIpRanges.chainId, chainId), eq(allowedIpRanges.deleted, false)))).map((r) => r.cidr);
const exemptionOf = async (chainId: number) =>
  (await core.db.select().from(chains).where(eq(chains.id, chainId)))[0]!.ipWhitelistSuperUserExemption;

function expectLockoutRefused(res: { status: number; body: any }, address: string) {
  expect(res.status).toBe(400);
  expect(res.body.error).toMatchObject({ code: 419, name: "parameter_invalid" });
  expect(res.body.error.description).toContain(`This change would lock you out of the chain: your address ${address}`);
}

describe("allowed IP range writes that would lock their author out", () => {
  it("the chain's first range elsewhere is refused and not written; one covering the address is allowed, then others", async () => {
    const { chainId, call } = await superUserOfNewChain();
    expectLockoutRefused(await call("POST", "/resources/allowed_ip_range", { cidr: ELSEWHERE }), HOME);
    expect(await rangesOf(chainId)).toEqual([]);

    expect((await call("POST", "/resources/allowed_ip_range", { cidr: "203.0.113.0/24" })).status).toBe(200);
    expect((await call("POST", "/resources/allowed_ip_range", { cidr: ELSEWHERE })).status).toBe(200);
    expect((await liveCidrs(chainId)).sort()).toEqual([ELSEWHERE, "203.0.113.0/24"]);
  });

  it("moving or deleting the range that covers the address is refused and changes nothing; the others may go", async () => {
    const { chainId, call } = await superUserOfNewChain();
    const home = (await call("POST", "/resources/allowed_ip_range", { cidr: `${HOME}/32` })).body.results.id;
    const other = (await call("POST", "/resources/allowed_ip_range", { cidr: ELSEWHERE })).body.results.id;
    const before = await rangesOf(chainId);

    expectLockoutRefused(await call("PATCH", `/resources/allowed_ip_range/${home}`, { cidr: "198.51.100.0/24" }), HOME);
    expectLockoutRefused(await call("PUT", `/resources/allowed_ip_range/${home}`, { cidr: "198.51.100.0/24" }), HOME);
    expectLockoutRefused(await call("DELETE", `/resources/allowed_ip_range/${home}`), HOME);
    expect(await rangesOf(chainId)).toEqual(before);

    // a change that keeps the address covered, and the other range, are fine
    expect((await call("PATCH", `/resources/allowed_ip_range/${home}`, { cidr: "203.0.113.0/28", notes: "office" })).status).toBe(200);
    expect((await call("DELETE", `/resources/allowed_ip_range/${other}`)).status).toBe(200);
    // deleting the last range lifts the restriction altogether: no lockout
    expect((await call("DELETE", `/resources/allowed_ip_range/${home}`)).status).toBe(200);
    expect(await liveCidrs(chainId)).toEqual([]);
  });

  it("an exempt super user may add ranges elsewhere", async () => {
    const { chainId, call } = await superUserOfNewChain(true);
    expect((await call("POST", "/resources/allowed_ip_range", { cidr: ELSEWHERE })).status).toBe(200);
    expect((await call("POST", "/resources/allowed_ip_range", { cidr: "198.51.100.0/24" })).status).toBe(200);
    expect((await liveCidrs(chainId)).sort()).toEqual([ELSEWHERE, "198.51.100.0/24"]);
  });
});

describe("clearing ip_whitelist_super_user_exemption", () => {
  it("is refused through PATCH and PUT when the super user's address is outside the ranges, and nothing changes", async () => {
    const { chainId, call } = await superUserOfNewChain(true);
    await core.db.insert(allowedIpRanges).values({ chainId, cidr: ELSEWHERE });
    for (const method of ["PATCH", "PUT"]) {
      expectLockoutRefused(await call(method, "/resources/chain", { ip_whitelist_super_user_exemption: false, name: "Renamed" }), HOME);
    }
    expect(await exemptionOf(chainId)).toBe(true);
    expect((await core.db.select().from(chains).where(eq(chains.id, chainId)))[0]!.name).toBe(`Lockout ${seq}`);
  });

  it("is allowed from inside a range, or when the chain has no ranges", async () => {
    const inside = await superUserOfNewChain(true);
    await core.db.insert(allowedIpRanges).values({ chainId: inside.chainId, cidr: "203.0.113.0/24" });
    expect((await inside.call("PATCH", "/resources/chain", { ip_whitelist_super_user_exemption: false })).status).toBe(200);
    expect(await exemptionOf(inside.chainId)).toBe(false);

    const open = await superUserOfNewChain(true);
    expect((await open.call("PUT", "/resources/chain", { ip_whitelist_super_user_exemption: false })).status).toBe(200);
    expect(await exemptionOf(open.chainId)).toBe(false);
  });

  it("other chain settings change as before from outside the ranges while the exemption stays", async () => {
    const { chainId, call } = await superUserOfNewChain(true);
    await core.db.insert(allowedIpRanges).values({ chainId, cidr: ELSEWHERE });
    expect((await call("PATCH", "/resources/chain", { name: "Still exempt" })).status).toBe(200);
    expect((await call("PATCH", "/resources/chain", { ip_whitelist_super_user_exemption: true })).status).toBe(200);
  });
});
