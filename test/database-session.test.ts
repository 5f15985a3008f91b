/**
 * Every pool of both services sets the session's wsrep_sync_wait (read your writes on a Galera
 * cluster, shared/src/node/database-session.ts); DATABASE_URL's `wsrep_sync_wait` parameter changes
 * it, never reaches the driver, and a bad value is refused by both services' configuration. On
 * the shared server (no Galera) the setting is inert; its effect on a cluster is tested in
 * test/cluster/read-your-writes.test.ts.
 */
import { afterAll, describe, expect, it } from "vitest";
import { databaseSession, DEFAULT_SYNC_WAIT } from "../shared/src/node/database-session.ts";
import { openCoreDatabase } from "../core-api/src/db/client.ts";
import { openConnectorDatabase } from "../connector/src/db/client.ts";
import { parseCoreConfig } from "../core-api/src/config.ts";
import { parseConnectorConfig } from "../connector/src/config.ts";
import { TEST_DATABASE_URL } from "./helpers/databases.ts";

const closers: Array<() => Promise<void>> = [];
afterAll(async () => void (await Promise.all(closers.map((close) => close()))));

/** The @@session.wsrep_sync_wait of a fresh connection of each pool the client opens. */
async function sessionValues(url: string): Promise<number[]> {
  const core = openCoreDatabase(url, "mysql", { connectionLimit: 1 });
  const shop = openConnectorDatabase(url, "mysql", { connectionLimit: 1 });
  closers.push(core.close, shop.close);
  const read = async (pool: typeof core.pool) => {
    const [rows] = await pool.query("SELECT @@session.wsrep_sync_wait AS v");
    return Number((rows as Array<{ v: unknown }>)[0]!.v);
  };
  return Promise.all([read(core.pool), read(shop.pool)]);
}

describe("read your writes: wsrep_sync_wait of every session", () => {
  it("is 1 (reads wait) on every pool of both services by default", async () => {
    expect(DEFAULT_SYNC_WAIT).toBe(1);
    expect(await sessionValues(TEST_DATABASE_URL)).toEqual([1, 1]);
  });

  it("follows DATABASE_URL's wsrep_sync_wait parameter, which the driver never sees", async () => {
    const warnings: unknown[] = [];
    const warn = console.error;
    console.error = (...args: unknown[]) => void warnings.push(args); // mysql2 warns about unknown options here
    try {
      const url = new URL(TEST_DATABASE_URL);
      url.searchParams.set("wsrep_sync_wait", "0");
      expect(await sessionValues(url.toString())).toEqual([0, 0]);
      url.searchParams.set("wsrep_sync_wait", "15");
      expect(await sessionValues(url.toString())).toEqual([15, 15]);
    } finally {
      console.error = warn;
    }
    expect(warnings).toEqual([]);
  });

  it("takes the parameter out of the driver's address and keeps the rest", () => {
    expect(databaseSession("mysql://u:p@db:3310?wsrep_sync_wait=0", "service_core")).toEqual({ uri: "mysql://u:p@db:3310/service_core", syncWait: 0 });
    expect(databaseSession("mysql://u@db:3310", "x")).toEqual({ uri: "mysql://u@db:3310/x", syncWait: 1 });
    expect(() => databaseSession("mysql://db?wsrep_sync_wait=16")).toThrow(/wsrep_sync_wait parameter must be a whole number from 0 to 15/);
  });

  it.each(["16", "-1", "1.5", "on", ""])("is refused by both services' configuration when it is %j", (value) => {
    const env = { DATABASE_URL: `mysql://root@127.0.0.1:3310?wsrep_sync_wait=${value}` };
    for (const result of [parseCoreConfig(env), parseConnectorConfig(env)]) {
      expect(result).toEqual({ ok: false, problems: ["DATABASE_URL: its wsrep_sync_wait parameter must be a whole number from 0 to 15"] });
    }
  });
});
