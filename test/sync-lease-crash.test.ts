/**
 * The reconcile across connector instances and crashes, both services for real: two runs at once
 * never both work (the MySQL lease), a run killed mid-way is resumed by the next one without
 * sending again what the platform acknowledged, and the schedule starts and stops with the
 * connector.
 */
import cron from "node-cron";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openConnectorDatabase } from "../connector/src/db/client.ts";
import { startConnector } from "../connector/src/main.ts";
import { runReconcile, type ReconcileReport } from "../connector/src/sync/reconcile.ts";
import { TEST_SECRET_KEY } from "./helpers/core.ts";
import { TEST_DATABASE_URL } from "./helpers/databases.ts";
import { runScript, scriptEnv, start } from "./helpers/processes.ts";
import { releaseLease, takeLease } from "../connector/src/sync/job-lease.ts";
import { startSyncWorld, until, type SyncWorld } from "./helpers/sync-world.ts";

let w: SyncWorld;

beforeAll(async () => {
  w = await startSyncWorld("synclease");
}, 60_000);

afterAll(() => w?.close());

const customer = (n: string) => ({
  email: `lease${n}@example.com`, firstname: `F${n}`, lastname: `L${n}`,
  address: { street: `Street\n${n}`, city: "Utrecht", postcode: "3511 AB", countryId: "NL", telephone: "+31612345678" },
});

describe("two connector instances", () => {
  it("racing runs: one works, the other reports the lease held and sends nothing", async () => {
    for (let i = 0; i < 6; i++) await w.register(customer(`race${i}`));
    const before = await w.memberCount();
    // Each instance has its own pool. Whichever takes the lease is held in its first call until
    // the other has answered, so the two overlap for certain.
    const instances = [openConnectorDatabase(TEST_DATABASE_URL, w.shopDbName), openConnectorDatabase(TEST_DATABASE_URL, w.shopDbName)];
    let firstDone!: () => void;
    const oneAnswered = new Promise<void>((resolve) => { firstDone = resolve; });
    const gated: typeof fetch = async (input, init) => {
      await oneAnswered;
      return fetch(input, init);
    };
    const calls = [0, 0];
    try {
      const runs = instances.map((instance, i) => runReconcile({ db: instance.db, box: w.box, fetch: (input, init) => {
        calls[i]!++;
        return gated(input, init);
      } }).finally(firstDone));
      const reports: ReconcileReport[] = await Promise.all(runs);
      expect(reports.map((r) => r.status).sort()).toEqual(["done", "lease_held"]);
      const held = reports.find((r) => r.status === "lease_held")!;
      expect(held.chains).toEqual([]);
      expect(held.holder!.expiresAt.getTime()).toBeGreaterThan(0);
      expect(calls[reports.indexOf(held)]).toBe(0);
      expect(reports.find((r) => r.status === "done")!.chains[0]).toMatchObject({ due: 6, sent: 6 });
      expect(await w.memberCount()).toBe(before + 6);
    } finally {
      await Promise.all(instances.map((d) => d.close()));
    }
  });
});

describe("a run killed mid-way", () => {
  it("is resumed by the next run, which sends only what the platform had not acknowledged", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 30; i++) ids.push(await w.register(customer(`crash${i}`)));
    const before = await w.memberCount();
    // node itself with tsx's loader: SIGKILL must hit the process that runs the reconcile (the
    // tsx command would run it in a child of its own, which would live on).
    const child = start(process.execPath, ["--import", "tsx", "test/helpers/reconcile-child.ts"], scriptEnv({
      DATABASE_URL: TEST_DATABASE_URL, SHOP_DB_NAME: w.shopDbName, SERVICE_SECRET_KEY: TEST_SECRET_KEY, LEASE_MS: "1500", CALL_DELAY_MS: "100",
    }));
    await child.waitFor(/(acknowledged \d+\n){5}/, 60_000);
    child.child.kill("SIGKILL");
    expect((await child.exited()).code).toBeNull();
    expect(child.output()).not.toMatch(/finished/);

    const stored = (await w.shopSql(
      `SELECT customer_id FROM service_customer_data WHERE last_hash IS NOT NULL AND customer_id IN (${ids.join(",")})`,
    )).map((r) => r.customer_id as number);
    expect(stored.length).toBeGreaterThanOrEqual(5);
    expect(stored.length).toBeLessThan(30);

    // The dead run's lease lapses by itself; until then a new run is told it is held.
    let resumed: ReconcileReport;
    const sent: number[] = [];
    await until(async () => {
      resumed = await w.reconcile({ onSent: (s) => sent.push(s.customerId) });
      return resumed.status !== "lease_held";
    });
    expect(resumed!.status).toBe("done");
    expect(sent.filter((id) => stored.includes(id))).toEqual([]);
    expect(sent.sort((a, b) => a - b)).toEqual(ids.filter((id) => !stored.includes(id)));
    // A customer the platform took but whose acknowledgement the kill lost was sent once more:
    // update_if_exists found the same member (authentication_point_identifier), no duplicate.
    expect(await w.memberCount()).toBe(before + 30);
    for (const id of ids) expect((await w.serviceData(id)).last_hash).toBe(await w.currentHash(id));
  }, 90_000);
});

describe("the schedule", () => {
  it("starts with the connector (SYNC_CRON), syncs a registration, and stops on shutdown", async () => {
    const id = await w.register(customer("cron1"));
    const connector = await startConnector({
      databaseUrl: TEST_DATABASE_URL, dbName: w.shopDbName, port: 0, host: "127.0.0.1", logLevel: "warn",
      syncCron: "* * * * * *", secretKey: TEST_SECRET_KEY,
    });
    try {
      expect(connector.syncCron).not.toBeNull();
      expect([...cron.getTasks().values()].filter((t) => t.name === "reconcile")).toHaveLength(1);
      await until(async () => (await w.serviceData(id))?.last_hash != null);
      expect(await w.member(`authentication_point_identifier=${id}&chain_id=${w.chainId}`)).toMatchObject({ username: "leasecron1@example.com" });
    } finally {
      await connector.close();
    }
    expect([...cron.getTasks().values()].filter((t) => t.name === "reconcile")).toEqual([]);
  }, 60_000);

  it("refuses to schedule without the secret key, and a bad expression", async () => {
    await expect(startConnector({ databaseUrl: TEST_DATABASE_URL, dbName: w.shopDbName, port: 0, host: "127.0.0.1", syncCron: "* * * * *" }))
      .rejects.toThrow(/SERVICE_SECRET_KEY/);
    await expect(startConnector({ databaseUrl: TEST_DATABASE_URL, dbName: w.shopDbName, port: 0, host: "127.0.0.1", syncCron: "nonsense", secretKey: TEST_SECRET_KEY }))
      .rejects.toThrow(/SYNC_CRON/);
  });
});

describe("npm run sync", () => {
  const env = () => scriptEnv({ DATABASE_URL: TEST_DATABASE_URL, WEBSHOP_DB_NAME: w.shopDbName, SERVICE_SECRET_KEY: TEST_SECRET_KEY });
  const sync = (...args: string[]) => runScript("scripts/sync.ts", args, env());

  it("--dry-run lists what would be sent and sends nothing; then a run sends it", async () => {
    const id = await w.register(customer("script1"));
    const before = await w.memberCount();
    const dry = await sync("--dry-run");
    expect(dry.stderr).toBe("");
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`${w.chainId}\t${id}\tleasescript1@example.com\tnew\n`);
    expect(dry.stdout).toMatch(/dry run: 1 customer\(s\) would be sent; nothing was sent or written/);
    expect(await w.memberCount()).toBe(before);
    expect(await w.serviceData(id)).toBeNull();

    const run = await sync();
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^chain ${w.chainId}: \\d+ customers read, 1 changed, 1 sent, 0 taken from the platform, 0 failed$`, "m"));
    expect(await w.memberCount()).toBe(before + 1);
  }, 60_000);

  it("exits 3 saying so when another run holds the lease, and 2 for a bad command line", async () => {
    const lease = await takeLease(w.shop.db, "reconcile", 60_000);
    try {
      const held = await sync();
      expect(held.code).toBe(3);
      expect(held.stderr).toMatch(/^another run holds the reconcile lease \(until .+ unless renewed\): nothing done$/m);
    } finally {
      if (lease.taken) await releaseLease(w.shop.db, lease.lease);
    }
    const bad = await sync("--chain-id", "zero");
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe("--chain-id must be a positive integer (see --help)");
  }, 60_000);
});
