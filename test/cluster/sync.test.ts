/**
 * The connector's reconcile on the Galera cluster: its lease is one row, so a run through one node
 * keeps a run through another node from working at the same time. A run on node 1 holds the lease
 * (its calls to the platform are held) while `npm run sync` starts on node 2: the script reports
 * the lease held (exit 3) and sends nothing; the first run then sends every customer once. Two
 * scripts started together on two nodes never both send: no member twice.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openConnectorDatabase, type ConnectorDatabase } from "../../connector/src/db/client.ts";
import { runReconcile } from "../../connector/src/sync/reconcile.ts";
import { TEST_SECRET_KEY } from "../helpers/core.ts";
import { runScript, scriptEnv } from "../helpers/processes.ts";
import { startSyncWorld, type SyncWorld } from "../helpers/sync-world.ts";
import { NODE_URLS } from "./cluster-helpers.ts";

let w: SyncWorld;
const pools: ConnectorDatabase[] = [];
beforeAll(async () => {
  w = await startSyncWorld("clsync");
});
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
  await w?.close();
});

const customer = (n: string) => ({ email: `cluster-sync-${n}@example.com`, firstname: `F${n}`, lastname: `L${n}` });

/** `npm run sync` through node `index` (0-2). */
const syncScript = (index: number) => runScript("scripts/sync.ts", [], scriptEnv({
  DATABASE_URL: NODE_URLS[index]!, WEBSHOP_DB_NAME: w.shopDbName, SERVICE_SECRET_KEY: TEST_SECRET_KEY, DATABASE_WAIT_SECONDS: "10",
}), 120_000);

describe("npm run sync on two nodes", () => {
  it("while a run through node 1 holds the lease, the script through node 2 exits 3 and sends nothing", async () => {
    for (let i = 0; i < 6; i++) await w.register(customer(`held${i}`));
    const before = await w.memberCount();
    const node1 = openConnectorDatabase(NODE_URLS[0]!, w.shopDbName);
    pools.push(node1);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const holds = new Promise<void>((resolve) => (holding = resolve));
    const run = runReconcile({ db: node1.db, box: w.box, fetch: async (input, init) => {
      holding(); // the lease is taken before the first call
      await released;
      return fetch(input, init);
    } });
    try {
      await holds;
      const script = await syncScript(1);
      expect(script.code, script.stdout + script.stderr).toBe(3);
      expect(await w.memberCount()).toBe(before);
    } finally {
      release();
    }
    const report = await run;
    expect(report.status).toBe("done");
    expect(report.chains[0]).toMatchObject({ due: 6, sent: 6 });
    expect(await w.memberCount()).toBe(before + 6);
  });

  it("two scripts started together on two nodes: at most one works, nobody is sent twice", async () => {
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 20; i++) await w.register(customer(`race${round}-${i}`));
      const before = await w.memberCount();
      const results = await Promise.all([syncScript(0), syncScript(1)]);
      const codes = results.map((r) => r.code).sort();
      expect([[0, 0], [0, 3]], results.map((r) => r.stdout + r.stderr).join("\n")).toContainEqual(codes);
      expect(await w.memberCount()).toBe(before + 20);
      expect(await w.duplicateMembers()).toEqual([]);
    }
  });
});
