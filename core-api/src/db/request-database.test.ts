/**
 * A request's handle of the database (request-database.ts): its deadline is kept (never
 * extended) by handles made of it, and on a frozen database every way a request reaches the
 * database through it ends at that deadline, with the pool's own timeouts well after it (4 s):
 * drizzle's query builder, the pool itself (`$client`, as compiled selects run), a
 * transaction of the transaction runner, and a wait for a connection when all are taken.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "@service/shared/node";
import { runTransaction } from "@service/shared/node";
import { createMigratedDatabase } from "../../../test/helpers/database-templates.ts";
import { FROZEN_POOL_TIMEOUTS, startDatabaseProxy, type DatabaseProxy } from "../../../test/helpers/database-proxy.ts";
import { dropDatabase, throwawayDatabaseName } from "../../../test/helpers/databases.ts";
import { openCoreDatabase, type CoreDatabase, type CoreDb } from "./client.ts";
import { baseDatabase, databaseUntil, deadlineOf } from "./request-database.ts";
import { businesses } from "./schema.ts";

const DEADLINE_MS = 600;
const name = throwawayDatabaseName("core_handle");
let proxy: DatabaseProxy;
let served: CoreDatabase;

beforeAll(async () => {
  await createMigratedDatabase("core", name);
  proxy = await startDatabaseProxy();
  served = openCoreDatabase(proxy.url, name, { connectionLimit: 2, timeouts: FROZEN_POOL_TIMEOUTS });
});
afterAll(async () => {
  // a connection opened while frozen may still be waiting out its connect timeout: its error ends the pool's close
  await served?.close().catch(() => undefined);
  await proxy?.close();
  await dropDatabase(name);
});

describe("a request's handle of the database", () => {
  it("keeps the sooner of two deadlines and leads back to the shared client, which has none", () => {
    const at = performance.now() + 1_000;
    const handle = databaseUntil(served.db, at);
    expect(deadlineOf(served.db)).toBeUndefined();
    expect(deadlineOf(handle)).toBe(at);
    expect(deadlineOf(databaseUntil(handle, at + 5_000))).toBe(at);
    expect(deadlineOf(databaseUntil(handle, at - 500))).toBe(at - 500);
    expect(baseDatabase(databaseUntil(handle, at + 5_000))).toBe(served.db);
    expect(baseDatabase(served.db)).toBe(served.db);
  });

  it("ends every statement, transaction and wait for a connection at its deadline on a frozen database", async () => {
    const ways: Record<string, (db: CoreDb) => Promise<unknown>> = {
      "query builder": (db) => db.select({ id: businesses.id }).from(businesses).limit(1),
      "pool ($client)": (db) => db.$client.execute({ sql: "SELECT id FROM businesses LIMIT 1", rowsAsArray: true }),
      "transaction runner": (db) => runTransaction(db, (tx) => tx.execute(sql`SELECT 1`)),
    };
    for (const way of Object.values(ways)) await way(databaseUntil(served.db, performance.now() + 5_000));
    proxy.freeze();
    try {
      for (const [label, way] of Object.entries(ways)) {
        // three at once on a pool of two: one of them waits for a connection
        const answers = await Promise.all([0, 1, 2].map(async () => {
          const started = performance.now();
          const failure = await way(databaseUntil(served.db, started + DEADLINE_MS)).then(() => null, (e: unknown) => e);
          return { failure, ms: performance.now() - started };
        }));
        for (const { failure, ms } of answers) {
          expect(isDatabaseUnavailable(failure), label).toBe(true);
          expect(ms, label).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
          expect(ms, label).toBeLessThan(DEADLINE_MS + 1_500); // the pool's own timeouts are 4 s
        }
      }
    } finally {
      proxy.thaw();
    }
    // Connections opened while frozen stay dead until their connect timeout (4 s); then the pool serves again.
    const answers = () => ways["query builder"]!(databaseUntil(served.db, performance.now() + DEADLINE_MS)).then(() => true, () => false);
    const until = performance.now() + 20_000;
    while (!(await answers()) && performance.now() < until) await new Promise((r) => setTimeout(r, 200));
    expect(await answers()).toBe(true);
  }, 40_000);
});
