/**
 * The reconcile schedule (sync-cron.ts) across its database going away (through
 * test/helpers/database-proxy.ts): a pass the outage stops is logged once, as a warning with one
 * line and no stack, and the next pass runs as usual once the database is back.
 */
import { openSecretBox } from "@service/shared/secret-box";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDatabaseProxy, type DatabaseProxy } from "../../../test/helpers/database-proxy.ts";
import { createMigratedDatabase } from "../../../test/helpers/database-templates.ts";
import { dropDatabase, throwawayDatabaseName } from "../../../test/helpers/databases.ts";
import { openConnectorDatabase, type ConnectorDatabase } from "../db/client.ts";
import { captureLog } from "../test-support/log-capture.ts";
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
});
