/**
 * The MySQL job lease (job-lease.ts) on a real database: one holder at a time, lapse, renewal,
 * release, and release once a restarted database is back (through helpers/database-proxy.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDatabaseProxy } from "../../../test/helpers/database-proxy.ts";
import { createMigratedDatabase } from "../../../test/helpers/database-templates.ts";
import { dropDatabase, TEST_DATABASE_URL, throwawayDatabaseName } from "../../../test/helpers/databases.ts";
import { openConnectorDatabase, type ConnectorDatabase } from "../db/client.ts";
import { releaseLease, releaseLeaseWhenBack, renewLease, takeLease } from "./job-lease.ts";

let dbName = "";
let database: ConnectorDatabase;
let other: ConnectorDatabase;

beforeAll(async () => {
  dbName = throwawayDatabaseName("lease");
  await createMigratedDatabase("connector", dbName);
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

describe("releaseLeaseWhenBack", () => {
  const owner = async (job: string) => (await database.pool.query("SELECT owner FROM service_job_lease WHERE name = ?", [job]))[0] as any[];

  it("frees the lease once the database is back from a restart, so the next run need not wait for the lapse", async () => {
    const proxy = await startDatabaseProxy();
    const through = openConnectorDatabase(proxy.url, dbName);
    try {
      const lease = await takeLease(through.db, "job-restart", 60_000);
      if (!lease.taken) throw new Error("not taken");
      await proxy.down(); // the pool's connection is cut, new ones are refused
      const failures: unknown[] = [];
      const releasing = releaseLeaseWhenBack(through.db, lease.lease, Date.now() + 60_000, { onRetry: (err) => failures.push(err) });
      while (failures.length < 2) await new Promise((r) => setTimeout(r, 20));
      expect(await owner("job-restart")).toEqual([{ owner: lease.lease.owner }]);
      proxy.up();
      expect(await releasing).toBe("released");
      expect(await owner("job-restart")).toEqual([{ owner: null }]);
      expect((await takeLease(other.db, "job-restart", 60_000)).taken).toBe(true);
    } finally {
      await through.close();
      await proxy.close();
    }
  });

  it("gives up when the lease lapses with the database still away; the lapsed lease is free for the next taker", async () => {
    const proxy = await startDatabaseProxy();
    const through = openConnectorDatabase(proxy.url, dbName);
    try {
      const lease = await takeLease(through.db, "job-gone", 300);
      if (!lease.taken) throw new Error("not taken");
      await proxy.down();
      let attempts = 0;
      expect(await releaseLeaseWhenBack(through.db, lease.lease, Date.now() + 300, { onRetry: () => attempts++ })).toBe("lapsed");
      expect(attempts).toBeGreaterThanOrEqual(2);
      let next = await takeLease(other.db, "job-gone", 60_000);
      while (!next.taken) {
        await new Promise((r) => setTimeout(r, 50));
        next = await takeLease(other.db, "job-gone", 60_000);
      }
    } finally {
      await through.close();
      await proxy.close();
    }
  });

  it("stops waiting as soon as its signal aborts (shutdown), leaving the lease to lapse", async () => {
    const proxy = await startDatabaseProxy();
    const through = openConnectorDatabase(proxy.url, dbName);
    try {
      const lease = await takeLease(through.db, "job-stop", 60_000);
      if (!lease.taken) throw new Error("not taken");
      await proxy.down();
      const stop = new AbortController();
      let attempts = 0;
      // The lease holds for a minute: without the signal this would wait out the minute.
      const releasing = releaseLeaseWhenBack(through.db, lease.lease, Date.now() + 60_000, { signal: stop.signal, onRetry: () => attempts++ });
      while (attempts < 2) await new Promise((r) => setTimeout(r, 20));
      stop.abort();
      expect(await releasing).toBe("abandoned");
      expect(await owner("job-stop")).toEqual([{ owner: lease.lease.owner }]);
      // Already aborted: one attempt, no waiting.
      attempts = 0;
      expect(await releaseLeaseWhenBack(through.db, lease.lease, Date.now() + 60_000, { signal: stop.signal, onRetry: () => attempts++ })).toBe("abandoned");
      expect(attempts).toBe(1);
      // With the database there, an aborted signal still frees the lease (a normal shutdown).
      proxy.up();
      expect(await releaseLeaseWhenBack(through.db, lease.lease, Date.now() + 60_000, { signal: stop.signal })).toBe("released");
      expect(await owner("job-stop")).toEqual([{ owner: null }]);
    } finally {
      await through.close();
      await proxy.close();
    }
  });

  it("throws at once what is not the database being away (a statement it refuses), without retrying", async () => {
    const emptyName = throwawayDatabaseName("lease_empty");
    const conn = openConnectorDatabase(TEST_DATABASE_URL, "mysql");
    await conn.pool.query(`CREATE DATABASE \`${emptyName}\``);
    await conn.close();
    const empty = openConnectorDatabase(TEST_DATABASE_URL, emptyName);
    try {
      let attempts = 0;
      await expect(releaseLeaseWhenBack(empty.db, { job: "x", owner: "y" }, Date.now() + 60_000, { onRetry: () => attempts++ }))
        .rejects.toMatchObject({ cause: { code: "ER_NO_SUCH_TABLE" } });
      expect(attempts).toBe(0);
    } finally {
      await empty.close();
      await dropDatabase(emptyName);
    }
  });
});
