/**
 * Concurrent requests with the same credentials share authentication queries (auth/check-coalescer.ts)
 * over the real app and database: fewer queries than requests, every request still answered as if
 * checked alone, a request never answered by a check sent before it arrived (a deactivated account
 * is refused on the next request), nothing shared between client addresses (an admin's allowed IP
 * ranges), and every request its own query with CHECK_COALESCING=off.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestCore } from "../../../test/helpers/core.ts";
import { insertBusinesses } from "../businesses/business-repository.ts";
import { CheckCoalescer } from "./check-coalescer.ts";
import type { ChainGrant } from "./identity.ts";
import { RequestAuth } from "./request-auth.ts";
import { adminUsers, allowedIpRanges } from "../db/schema.ts";
import { normaliseCidr } from "../ip-ranges/cidr.ts";

let core: TestCore;
beforeAll(async () => {
  core = await startCore({ clientAddress: (c) => c.req.header("x-test-peer") });
});
afterAll(() => core.close());

/** The authentication queries among the statements `on` has sent since its last reset. */
const authQueriesOf = (on: TestCore) => on.statements.statements.filter((s) => /^select `sessions`\./.test(s)).length;
const authQueries = () => authQueriesOf(core);

/**
 * `count` new businesses of `on`'s chain, then as many concurrent reads of them by id as an admin
 * with read access, the statement count reset just before.
 * @returns the rows and the answers, in the same order
 */
async function readConcurrently(on: TestCore, count: number, name: string) {
  const admin = await on.admin({ read: true });
  const rows = await insertBusinesses(
    on.db,
    Array.from({ length: count }, (_, i) => ({ chainId: on.chainId, name: `${name} ${i}`, ownerCode: `${name}-${i}` })),
    new Date(),
  );
  on.statements.reset();
  const answers = await Promise.all(rows.map((r) => on.json(`/resources/business/${r.id}`, { headers: admin.headers })));
  return { rows, answers };
}

describe("concurrent requests with one session", () => {
  it("share checks: 24 reads by id answer their own businesses with at most 2 authentication queries", async () => {
    const { rows, answers } = await readConcurrently(core, 24, "Coalesced");
    expect(answers.map((a) => a.status)).toEqual(rows.map(() => 200));
    expect(answers.map((a) => a.body.results.name)).toEqual(rows.map((r) => r.name));
    // Those read in the first turn of the event loop share one query, any arriving later the next.
    expect(authQueries()).toBeGreaterThanOrEqual(1);
    expect(authQueries()).toBeLessThanOrEqual(2);
  });

  it("share checks on internal calls too: 16 add-business calls, each its own business", async () => {
    const admin = await core.admin({ read: true, write: true });
    core.statements.reset();
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        core.json("/internal/add-business", {
          method: "POST",
          headers: { ...admin.headers, "content-type": "application/json" },
          body: JSON.stringify({ chain_id: core.chainId, name: `Batch ${i}`, owner_code: `BA-${i}` }),
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    expect(new Set(answers.map((a) => a.body.results.business.id)).size).toBe(16);
    expect(authQueries()).toBeLessThanOrEqual(2);
  });

  it("never answer a request with a check sent before it arrived: the account deactivated meanwhile is refused", async () => {
    const admin = await core.admin({ read: true });
    const credentials = {
      kind: "admin" as const,
      session: { userId: Number(admin.headers["X-Service-Session-User-ID"]), key: admin.headers["X-Service-Session-Key"]! },
    };
    // The database answers the first check, which the test then holds on its way back.
    let answered!: () => void;
    const firstAnswered = new Promise<void>((r) => (answered = r));
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let executes = 0;
    const pool = core.db.$client;
    const slowDb = Object.assign(Object.create(core.db), {
      $client: {
        async execute(...args: Parameters<typeof pool.execute>) {
          const n = ++executes;
          const result = await pool.execute(...args);
          if (n === 1) {
            answered();
            await held;
          }
          return result;
        },
      },
    }) as typeof core.db;
    const coalescer = new CheckCoalescer<ChainGrant>();
    const env = { db: slowDb, clientIp: null, shopperTokens: undefined as never, coalescer };
    const first = new RequestAuth(credentials, { ...env, now: new Date() }).onChain(core.chainId);
    await firstAnswered; // read while the admin was active
    await core.db.update(adminUsers).set({ active: false }).where(eq(adminUsers.id, admin.id));
    const second = new RequestAuth(credentials, { ...env, now: new Date() }).onChain(core.chainId);
    release();
    await expect(first).resolves.toMatchObject({ auth: { kind: "admin", userId: admin.id } });
    await expect(second).rejects.toMatchObject({ errorName: "no_valid_session" });
    expect(executes).toBe(2);
  });
});

describe("CHECK_COALESCING=off", () => {
  it("runs every request's own check: 8 concurrent reads, 8 authentication queries, each answered", async () => {
    const solo = await startCore({ env: { CHECK_COALESCING: "off" } });
    try {
      const { rows, answers } = await readConcurrently(solo, 8, "Alone");
      expect(answers.map((a) => a.body.results?.name)).toEqual(rows.map((r) => r.name));
      expect(authQueriesOf(solo)).toBe(8);
    } finally {
      await solo.close();
    }
  });
});

describe("client addresses are never shared", () => {
  it("one session from inside and outside the chain's allowed range, at once: 200 and 403 each", async () => {
    const chainId = await core.createChain("Ranged chain");
    const admin = await core.admin({ read: true }, chainId); // logged in before the range exists
    await core.db.insert(allowedIpRanges).values({ chainId, cidr: normaliseCidr("192.0.2.0/28") });
    const from = (peer: string) => core.request(`/internal/get-businesses?chain_id=${chainId}`, { headers: { ...admin.headers, "x-test-peer": peer } });
    const peers = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? "192.0.2.5" : "198.51.100.7"));
    core.statements.reset();
    const statuses = await Promise.all(peers.map(async (p) => (await from(p)).status));
    expect(statuses).toEqual(peers.map((p) => (p === "192.0.2.5" ? 200 : 403)));
    // They did share checks (at most two per address), never across addresses.
    expect(authQueries()).toBeGreaterThanOrEqual(2);
    expect(authQueries()).toBeLessThanOrEqual(4);
  });
});
