/** The MySQL job lease (job-lease.ts) on a real database: one holder at a time, lapse, renewal, release. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropDatabase, TEST_DATABASE_URL, throwawayDatabaseName } from "../../../test/helpers/databases.ts";
import { openConnectorDatabase, type ConnectorDatabase } from "../db/client.ts";
import { migrateConnectorDatabase } from "../db/migrate.node.ts";
import { releaseLease, renewLease, takeLease } from "./job-lease.ts";

let dbName = "";
let database: ConnectorDatabase;
let other: ConnectorDatabase;

beforeAll(async () => {
  dbName = throwawayDatabaseName("lease");
  await migrateConnectorDatabase(TEST_DATABASE_URL, dbName);
  database = openConnectorDatabase(TEST_DATABASE_URL, dbName);
  other = openConnectorDatabase(TEST_DATABASE_URL, dbName);
});

afterAll(async () => {
  await database?.close();
  await other?.close();
  await dropDatabase(dbName);
});

describe("job lease", () => {
  it("is held by one taker at a time; release frees it", async () => {
    const first = await takeLease(database.db, "job-a", 60_000);
    expect(first.taken).toBe(true);
    const second = await takeLease(other.db, "job-a", 60_000);
    expect(second).toEqual({ taken: false, holder: { owner: first.taken ? first.lease.owner : "", expiresAt: expect.any(Date) } });
    // Another job's lease is independent.
    expect((await takeLease(other.db, "job-b", 60_000)).taken).toBe(true);
    if (!first.taken) throw new Error("unreachable");
    await releaseLease(database.db, first.lease);
    expect((await takeLease(other.db, "job-a", 60_000)).taken).toBe(true);
  });

  it("twenty racing takers: exactly one gets it", async () => {
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => takeLease(i % 2 ? database.db : other.db, "job-race", 60_000)));
    expect(results.filter((r) => r.taken)).toHaveLength(1);
    const [winner] = results.filter((r) => r.taken);
    for (const r of results.filter((x) => !x.taken)) expect(r).toMatchObject({ holder: { owner: winner!.taken ? winner!.lease.owner : "" } });
  });

  it("lapses when its holder stops renewing (a crash); the lapsed holder can no longer renew or release it", async () => {
    const dead = await takeLease(database.db, "job-crash", 300);
    if (!dead.taken) throw new Error("not taken");
    expect(await renewLease(database.db, dead.lease, 300)).toBe(true);
    let next = await takeLease(other.db, "job-crash", 60_000);
    while (!next.taken) {
      await new Promise((r) => setTimeout(r, 50));
      next = await takeLease(other.db, "job-crash", 60_000);
    }
    expect(await renewLease(database.db, dead.lease, 60_000)).toBe(false);
    await releaseLease(database.db, dead.lease);
    expect((await takeLease(database.db, "job-crash", 60_000)).taken).toBe(false);
    expect(await renewLease(other.db, next.lease, 60_000)).toBe(true);
  });

  it("renewal moves the expiry on, on the database's clock", async () => {
    const lease = await takeLease(database.db, "job-renew", 1_000);
    if (!lease.taken) throw new Error("not taken");
    const [[before]] = await database.pool.query("SELECT expires_at, UTC_TIMESTAMP(3) AS now FROM service_job_lease WHERE name = 'job-renew'") as any;
    expect(before.expires_at.getTime() - before.now.getTime()).toBeLessThanOrEqual(1_000);
    expect(await renewLease(database.db, lease.lease, 3_600_000)).toBe(true);
    const [[after]] = await database.pool.query("SELECT expires_at, UTC_TIMESTAMP(3) AS now FROM service_job_lease WHERE name = 'job-renew'") as any;
    expect(after.expires_at.getTime() - after.now.getTime()).toBeGreaterThan(3_000_000);
  });
});
