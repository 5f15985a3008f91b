/**
 * The reconcile schedule (sync-cron.ts) across its database going away (through
 * test/helpers/database-proxy.ts): a pass the outage stops is logged once, as a warning with one
 * line and no stack, and the next pass runs as usual once the database is back.
 */
import { openSecretBox } from "@service/shared/secret-box";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDatabaseProxy, type DatabaseProxy } from "../../../test/helpers/database-proxy.ts";
import { createMigratedDatabase } from "../../../test/helpers/database-templates.ts";
import { dropDatabase, TEST_DATABASE_URL, throwawayDatabaseName } from "../../../test/helpers/databases.ts";
import { openConnectorDatabase, type ConnectorDatabase } from "../db/client.ts";
import { seedConnector } from "../db/seed.ts";
import { captureLog } from "../test-support/log-capture.ts";
import { RECONCILE_JOB } from "./reconcile.ts";
import { startSyncCron } from "./sync-cron.ts";

const dbName = throwawayDatabaseName("synccron");
let proxy: DatabaseProxy;
let database: ConnectorDatabase;

beforeAll(async () => {
  await createMigratedDatabase("connector", dbName);
  proxy = await startDatabaseProxy();
  database = openConnectorDatabase(proxy.url, dbName);
});

afterAll(async () => {
  await database?.close();
  await proxy?.close();
  await dropDatabase(dbName);
});

describe("the reconcile schedule", () => {
  it("logs a pass the database's outage stopped once, on one line, and runs the next pass once it is back", async () => {
    const log = captureLog("info");
    const box = await openSecretBox("sync-cron-test-key-0123456789abcdef");
    // Once a year: only runNow() runs a pass here.
    const schedule = startSyncCron({ db: database.db, box, logger: log.logger }, "0 0 1 1 *");
    try {
      await proxy.down();
      expect(await schedule.runNow()).toBeNull();
      expect(log.lines.map((l) => [l.level, l.message])).toEqual([["info", "reconcile schedule started"], ["warn", "reconcile stopped"]]);
      expect(log.lines[1]!.fields.err).toMatch(
        /^the shop database became unavailable during the reconcile \(([^\n]+)\): 0 customer\(s\) sent and 0 taken from the platform before it are kept; the next run goes on where this one stopped$/,
      );
      proxy.up();
      // No chain is linked in this store: the pass is done at once.
      expect(await schedule.runNow()).toMatchObject({ status: "done", chains: [] });
    } finally {
      await schedule.stop();
    }
  });

  it("stop() during an outage does not wait for the database to free the lease: the lease is left to lapse", async () => {
    const linkedName = throwawayDatabaseName("synccron_stop");
    await createMigratedDatabase("connector", linkedName);
    const direct = openConnectorDatabase(TEST_DATABASE_URL, linkedName);
    const stopProxy = await startDatabaseProxy();
    const through = openConnectorDatabase(stopProxy.url, linkedName);
    const log = captureLog("info");
    const box = await openSecretBox("sync-cron-test-key-0123456789abcdef");
    // A linked chain with one new customer; sending it takes the database away (the default
    // lease of a minute is held by then).
    const { websiteId } = (await seedConnector(direct.db, {
      chainId: 1,
      platform: { box, coreApiUrl: "http://127.0.0.1:9", accessToken: `0b7c2a0e-4f4b-4a7e-9a51-3c2f1d9e8b70:${"a".repeat(64)}`, appHostname: "shop.example.com" },
      now: new Date(Date.now() - 60_000),
    }))!;
    await direct.pool.query("INSERT INTO customer_entity (website_id, email, firstname, lastname) VALUES (?, 'new@example.com', 'N', 'E')", [websiteId]);
    const outage: typeof fetch = async () => {
      await stopProxy.down();
      throw new Error("the platform is unreachable too");
    };
    const schedule = startSyncCron({ db: through.db, box, logger: log.logger, fetch: outage }, "0 0 1 1 *");
    try {
      const pass = schedule.runNow();
      while (!log.lines.some((l) => l.message.startsWith("reconcile: the lease cannot be freed yet"))) await new Promise((r) => setTimeout(r, 20));
      // Without the stop ending the wait this resolves only when the lease lapses, a minute on.
      await schedule.stop();
      // The chain was gone through (its customer failed); only freeing the lease was given up.
      expect(await pass).toMatchObject({ status: "done", chains: [{ chainId: 1, failed: 1 }] });
      expect(log.lines.map((l) => l.message)).toContain("reconcile: stopped while the database was unavailable; the lease lapses by itself");
      const [[row]] = await direct.pool.query("SELECT owner FROM service_job_lease WHERE name = ?", [RECONCILE_JOB]) as any;
      expect(row.owner).not.toBeNull();
    } finally {
      await schedule.stop();
      await through.close();
      await stopProxy.close();
      await direct.close();
      await dropDatabase(linkedName);
    }
  });
});
