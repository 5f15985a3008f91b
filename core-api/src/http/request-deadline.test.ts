/**
 * One deadline per request (REQUEST_DEADLINE_MS): with the pools' own timeouts at their defaults
 * (10 s per statement, per wait for a connection), a request on a frozen database (a by-id read of
 * the Resources API, an internal call's read, a write), or one whose
 * transaction waits on a lock, answers 503 service_unavailable (904) with Retry-After once its
 * deadline has passed, retries of the transaction runner included, and leaves no transaction
 * open behind it.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createMigratedDatabase } from "../../../test/helpers/database-templates.ts";
import { dropDatabase, TEST_DATABASE_URL, throwawayDatabaseName } from "../../../test/helpers/databases.ts";
import { startDatabaseProxy, type DatabaseProxy } from "../../../test/helpers/database-proxy.ts";
import { createApp } from "../app.ts";
import { loadCoreConfig } from "../config.ts";
import { openCoreDatabase, type CoreDatabase } from "../db/client.ts";
import { createAdmin, createChain, grantAccess } from "../db/seed.ts";
import { insertBusiness } from "../businesses/business-repository.ts";

const DEADLINE_MS = 700;
const quiet = { error: () => undefined, warn: () => undefined, info: () => undefined };

const dbName = throwawayDatabaseName("core_deadline");
let direct: CoreDatabase;
let proxy: DatabaseProxy;
let served: CoreDatabase;
let chainId: number;
let shopId: number;
let app: ReturnType<typeof createApp>;
let headers: Record<string, string>;

beforeAll(async () => {
  await createMigratedDatabase("core", dbName);
  direct = openCoreDatabase(TEST_DATABASE_URL, dbName);
  chainId = await createChain(direct.db, "Deadline Chain");
  const adminId = await createAdmin(direct.db, { username: "deadline@example.com", password: "pw-secret" });
  await grantAccess(direct.db, adminId, chainId, { read: true, write: true });
  shopId = (await insertBusiness(direct.db, { chainId, name: "Read Shop", ownerCode: "READ-1" }, new Date())).id;
  proxy = await startDatabaseProxy();
  // the pool's own timeouts stay at their defaults (10 s): only the deadline can end the requests early
  served = openCoreDatabase(proxy.url, dbName, { connectionLimit: 2 });
  app = createApp({ db: served.db, config: loadCoreConfig({ CORE_DB_NAME: dbName, REQUEST_DEADLINE_MS: String(DEADLINE_MS) }), logger: quiet });
  // Logged in with the default deadline: a password hash on a busy machine may take longer than DEADLINE_MS.
  const login = createApp({ db: direct.db, config: loadCoreConfig({ CORE_DB_NAME: dbName }), logger: quiet });
  const res = await login.request("/auth/login", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "deadline@example.com", password: "pw-secret" }),
  });
  const body = (await res.json()) as any;
  headers = {
    "X-Service-Session-User-ID": String(body.results.session_info.session_user_id),
    "X-Service-Session-Key": body.results.session_info.session_key,
    "X-Service-Chain-ID": String(chainId),
  };
});
afterAll(async () => {
  await served?.close();
  await proxy?.close();
  await direct?.close();
  await dropDatabase(dbName);
});

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
  // at the deadline, not at a pool timeout (10 s): slack for a busy machine
  expect(answer.ms).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
  expect(answer.ms).toBeLessThan(DEADLINE_MS + 1500);
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
  it("reads and writes answer 503 904 at the request's deadline, not at the pool's 10 s timeouts; they recover after the thaw", async () => {
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
    // Connections opened while frozen stay dead until their connect timeout (10 s) ends them;
    // until then requests fail fast at their deadline, then the service serves again by itself.
    const until = performance.now() + 20_000;
    while ((await read()).status !== 200 && performance.now() < until) await new Promise((r) => setTimeout(r, 200));
    expect((await read()).status).toBe(200);
    expect((await send("POST", "/internal/add-business", { chain_id: chainId, name: "Thawed" })).status).toBe(200);
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
