/**
 * One deadline per request (REQUEST_DEADLINE_MS): with the pool's own timeouts well after it
 * (4 s per statement, per wait for a connection, per connect), a request on a frozen database (a
 * by-id read of the Resources API, an internal call's read, a write), or one whose
 * transaction waits on a lock, answers 503 service_unavailable (904) with Retry-After once its
 * deadline has passed, retries of the transaction runner included, and leaves no transaction
 * open behind it. A scrape of /metrics, whose outbox gauges read the database, ends there too.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startCoreBehindProxy, type CoreBehindProxy } from "../../../test/helpers/core-behind-proxy.ts";
import { FROZEN_POOL_TIMEOUTS, type DatabaseProxy } from "../../../test/helpers/database-proxy.ts";
import type { CoreDatabase } from "../db/client.ts";
import { insertBusiness } from "../businesses/business-repository.ts";

const DEADLINE_MS = 700;
const quiet = { error: () => undefined, warn: () => undefined, info: () => undefined };

let world: CoreBehindProxy;
let direct: CoreDatabase;
let proxy: DatabaseProxy;
let chainId: number;
let shopId: number;
let app: CoreBehindProxy["app"];
let headers: Record<string, string>;

beforeAll(async () => {
  // The served pool's own timeouts (FROZEN_POOL_TIMEOUTS) end nothing before the deadline plus
  // the test's slack: only the deadline can end the requests early.
  world = await startCoreBehindProxy({
    prefix: "core_deadline", name: "deadline", logger: quiet, env: { REQUEST_DEADLINE_MS: String(DEADLINE_MS) }, timeouts: FROZEN_POOL_TIMEOUTS,
  });
  ({ direct, proxy, chainId, app, headers } = world);
  shopId = (await insertBusiness(direct.db, { chainId, name: "Read Shop", ownerCode: "READ-1" }, new Date())).id;
});
afterAll(() => world?.close());

const read = () => app.request(`/internal/get-businesses?chain_id=${chainId}`, { headers });
const byId = () => app.request(`/resources/business/${shopId}`, { headers });
const send = (method: string, path: string, body: unknown) =>
  app.request(path, { method, headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(body) });

/** Status, Retry-After, error code and time taken of a request. */
async function timed(run: () => Response | Promise<Response>) {
  const started = performance.now();
  const res = await run();
  const body = (await res.json()) as any;
  return { status: res.status, retryAfter: res.headers.get("retry-after"), code: body?.error?.code, ms: performance.now() - started };
}

function expectDeadline(answer: Awaited<ReturnType<typeof timed>>) {
  expect(answer).toMatchObject({ status: 503, retryAfter: "5", code: 904 });
  // at the deadline, not at a pool timeout (4 s): slack for a busy machine
  expect(answer.ms).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
  expect(answer.ms).toBeLessThan(DEADLINE_MS + 1500);
}

/**
 * Waits (at most 20 s) until `run` answers 200 again after a thaw: connections opened while frozen
 * stay dead until their connect timeout (4 s) ends them; until then requests fail fast at their
 * deadline.
 */
async function untilAnswered(run: () => Response | Promise<Response>): Promise<void> {
  const until = performance.now() + 20_000;
  while ((await run()).status !== 200 && performance.now() < until) await new Promise((r) => setTimeout(r, 200));
}

describe("the deadline's carrier", () => {
  it("is the request's handle of the database: serving runs no AsyncLocalStorage, which on Node 20 turns on promise hooks for the whole process", async () => {
    const run = vi.spyOn(AsyncLocalStorage.prototype, "run");
    const enterWith = vi.spyOn(AsyncLocalStorage.prototype, "enterWith");
    try {
      expect((await byId()).status).toBe(200);
      expect((await send("POST", "/internal/add-business", { chain_id: chainId, name: "Carried" })).status).toBe(200);
      expect(run).not.toHaveBeenCalled();
      expect(enterWith).not.toHaveBeenCalled();
    } finally {
      run.mockRestore();
      enterWith.mockRestore();
    }
  });
});

describe("a frozen database", () => {
  it("reads and writes answer 503 904 at the request's deadline, not at the pool's own timeouts; they recover after the thaw", async () => {
    expect((await read()).status).toBe(200);
    expect((await byId()).status).toBe(200);
    proxy.freeze();
    try {
      expectDeadline(await timed(read));
      expectDeadline(await timed(byId));
      expectDeadline(await timed(() => send("POST", "/internal/add-business", { chain_id: chainId, name: "Frozen" })));
      // more requests than connections: the wait for one ends at the deadline too
      for (const answer of await Promise.all(Array.from({ length: 4 }, () => timed(read)))) expectDeadline(answer);
    } finally {
      proxy.thaw();
    }
    // Connections opened while frozen stay dead until their connect timeout (4 s) ends them;
    // until then requests fail fast at their deadline, then the service serves again by itself.
    await untilAnswered(read);
    expect((await read()).status).toBe(200);
    expect((await send("POST", "/internal/add-business", { chain_id: chainId, name: "Thawed" })).status).toBe(200);
  }, 40_000);
});

describe("a scrape of /metrics on a frozen database", () => {
  const scrape = () => app.request("/metrics");

  it("answers 503 904 at the request's deadline (the outbox gauges' read is the request's), and serves again after the thaw", async () => {
    const before = await scrape();
    expect(before.status).toBe(200);
    expect(await before.text()).toMatch(/^outbox_deliveries\{status="pending"\} \d+$/m);
    proxy.freeze();
    try {
      expectDeadline(await timed(scrape));
    } finally {
      proxy.thaw();
    }
    await untilAnswered(scrape);
    expect((await scrape()).status).toBe(200);
  }, 40_000);
});

describe("a transaction waiting on a lock", () => {
  it("answers 503 904 at the deadline (the lock wait would take the server's 50 s), writes nothing, and leaves no transaction open", async () => {
    const shop = await insertBusiness(direct.db, { chainId, name: "Locked Shop", ownerCode: "LOCK-1" }, new Date());
    const locker = await direct.db.$client.getConnection();
    await locker.query("START TRANSACTION");
    await locker.query("SELECT id FROM businesses WHERE id = ? FOR UPDATE", [shop.id]);
    let answer: Awaited<ReturnType<typeof timed>>;
    try {
      answer = await timed(() => send("PUT", "/internal/alter-business", { business_id: shop.id, name: "Never Renamed" }));
    } finally {
      await locker.query("COMMIT");
      locker.release();
    }
    expectDeadline(answer);
    const [rows] = (await direct.db.execute(sql`SELECT name FROM businesses WHERE id = ${shop.id}`)) as unknown as [Array<{ name: string }>];
    expect(rows[0]!.name).toBe("Locked Shop");
    // the connection the deadline cut was destroyed: none of the pool's is left inside that transaction
    for (let i = 0; i < 3; i++) {
      expect((await send("PUT", "/internal/alter-business", { business_id: shop.id, name: `Renamed ${i}` })).status).toBe(200);
    }
    const [after] = (await direct.db.execute(sql`SELECT name FROM businesses WHERE id = ${shop.id}`)) as unknown as [Array<{ name: string }>];
    expect(after[0]!.name).toBe("Renamed 2");
  }, 30_000);
});
