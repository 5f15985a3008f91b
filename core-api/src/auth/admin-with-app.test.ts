/**
 * Admins may send the app hostname: an admin session that also carries `X-Service-App-Hostname` is
 * served as that admin, whichever app it names; the stored session decides who is calling
 * (auth/session-grant.ts), still in one authentication query. Shopper sessions keep their rule:
 * good only through an app of their own chain.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses, sessions } from "../db/schema.ts";
import { APP_A, APP_B, startTwoChains, type TwoChains } from "./two-chains.test-support.ts";

let w: TwoChains;
beforeAll(async () => {
  w = await startTwoChains();
}, 60_000);
afterAll(() => w.core.close());

/** Chain A's super-user admin's headers (chain header included) with app `hostname`. */
const adminWith = (hostname: string): Record<string, string> => ({ ...w.adminA.headers, "X-Service-App-Hostname": hostname });

/** Chain A's shopper's session headers, through app `hostname`. */
const shopperWith = (hostname: string) => ({ ...w.shopperA, "X-Service-App-Hostname": hostname });

const form = { "content-type": "application/x-www-form-urlencoded" };

describe("an admin session with X-Service-App-Hostname", () => {
  it("reads a resource only admins may read (Resources GET), whichever app is named", async () => {
    const hostnames = [APP_A, APP_B, "nowhere.example.test"];
    expect(hostnames).toHaveLength(3);
    for (const hostname of hostnames) {
      const res = await w.core.json(`/resources/access_token/${w.tokenAId}`, { headers: adminWith(hostname) });
      expect(res.status, hostname).toBe(200);
      expect(res.body.results.id).toBe(w.tokenAId);
    }
  });

  it("writes as the admin: a Resources POST records the admin as last_updated_by", async () => {
    const res = await w.core.json("/resources/business", {
      method: "POST",
      headers: { ...adminWith(APP_A), "content-type": "application/json" },
      body: JSON.stringify({ name: "Admin Via App", owner_code: "ADMIN-APP-1" }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [row] = await w.core.db.select().from(businesses).where(eq(businesses.id, res.body.results.id));
    expect(row).toMatchObject({ chainId: w.chainA, ownerCode: "ADMIN-APP-1", lastUpdatedBy: w.adminA.id });
  });

  it("uses internal calls as the admin: get-businesses reads, add-business writes", async () => {
    const { "X-Service-Chain-ID": _chain, ...headers } = adminWith(APP_A);
    const read = await w.core.json(`/internal/get-businesses?chain_id=${w.chainA}`, { headers });
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    const add = await w.core.json("/internal/add-business", {
      method: "POST",
      headers: { ...headers, ...form },
      body: `chain_id=${w.chainA}&name=Internal+Admin+Via+App`,
    });
    expect(add.status, JSON.stringify(add.body)).toBe(200);
    const [row] = await w.core.db.select().from(businesses).where(eq(businesses.name, "Internal Admin Via App"));
    expect(row).toMatchObject({ chainId: w.chainA, lastUpdatedBy: w.adminA.id });
  });

  it("gets an admin's answers, not a shopper's: the chain header is required (419) and another chain is refused", async () => {
    const { "X-Service-Chain-ID": _chain, ...noChain } = adminWith(APP_A);
    const missing = await w.core.json("/resources/businesses", { headers: noChain });
    expect([missing.status, missing.body.error.code]).toEqual([400, 419]);
    const other = await w.core.json("/internal/get-businesses?chain_id=" + w.b.chainId, { headers: noChain });
    expect([other.status, other.body.error.code]).toEqual([403, 68]);
  });

  it("costs the one authentication query an admin costs without it", async () => {
    const path = `/resources/access_token/${w.tokenAId}`;
    const count = async (headers: Record<string, string>) => {
      w.core.statements.reset();
      expect((await w.core.request(path, { headers })).status).toBe(200);
      return w.core.statements.statements.length;
    };
    const plain = await count(w.adminA.headers);
    expect(await count(adminWith(APP_A))).toBe(plain);
    expect(plain).toBeLessThanOrEqual(3);
  });

  it("logs the admin out", async () => {
    const admin = await w.core.admin({ read: true });
    const headers = { ...admin.headers, "X-Service-App-Hostname": APP_A };
    const out = await w.core.json("/auth/logout", { method: "DELETE", headers });
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    const left = await w.core.db.select().from(sessions).where(eq(sessions.userId, admin.id));
    expect(left.filter((s) => s.kind === "admin")).toHaveLength(0);
    const again = await w.core.json("/auth/logout", { method: "DELETE", headers });
    expect([again.status, again.body.error.code]).toEqual([401, 6]);
  });
});

describe("a shopper session keeps its rules", () => {
  it("is served as the shopper through its own chain's app, on the Resources API", async () => {
    const res = await w.core.json("/resources/businesses", { headers: shopperWith(APP_A) });
    expect(res.status).toBe(200);
    const adminOnly = await w.core.json(`/resources/access_token/${w.tokenAId}`, { headers: shopperWith(APP_A) });
    expect([adminOnly.status, adminOnly.body.error.code]).toEqual([404, 544]);
    const otherChain = await w.core.json("/resources/businesses", { headers: { ...shopperWith(APP_A), "X-Service-Chain-ID": String(w.b.chainId) } });
    expect([otherChain.status, otherChain.body.error.code]).toEqual([404, 544]);
    // a resource closed to shoppers is 544 before the chain header is read, as for a shopper token
    const closed = await w.core.json("/resources/access_tokens", { headers: { ...shopperWith(APP_A), "X-Service-Chain-ID": "not-a-number" } });
    expect([closed.status, closed.body.error.code]).toEqual([404, 544]);
  });

  it("is refused through another chain's app (6), on the Resources API and internal calls", async () => {
    const resource = await w.core.json("/resources/businesses", { headers: shopperWith(APP_B) });
    expect([resource.status, resource.body.error.code]).toEqual([401, 6]);
    expect(resource.body.error.description).toMatch(/another app's chain/);
    const call = await w.core.json(`/internal/get-businesses?chain_id=${w.b.chainId}`, { headers: shopperWith(APP_B) });
    expect([call.status, call.body.error.code]).toEqual([401, 6]);
  });

  it("is refused without an app (6) and with an unknown one (6)", async () => {
    const { "X-Service-App-Hostname": _app, ...bare } = w.shopperA;
    const without = await w.core.json("/resources/businesses", { headers: { ...bare, "X-Service-Chain-ID": String(w.chainA) } });
    expect([without.status, without.body.error.code]).toEqual([401, 6]);
    const unknown = await w.core.json("/resources/businesses", { headers: shopperWith("nowhere.example.test") });
    expect([unknown.status, unknown.body.error.code]).toEqual([401, 6]);
    expect(unknown.body.error.description).toMatch(/names no app/);
  });
});
