/**
 * Failover on the Galera cluster: a core API reaches the cluster through the proxy (haproxy,
 * docker/galera/haproxy.cfg: node 1 writes, nodes 2 and 3 are backups, each health-checked for
 * "synced"). Under a steady add-user load the writer node is killed (SIGKILL), then brought back
 * with `npm run cluster -- up` and rejoins. Clients see only 200 or 503 (the requests in flight
 * when the node died, or when the proxy moved them back); service resumes on a backup without a
 * restart of ours; every write answered 200 is present on every node afterwards.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NODES } from "../../scripts/cluster/layout.ts";
import { proxyServers } from "../../scripts/cluster/proxy.ts";
import { startCore, type TestAdmin, type TestCore } from "../helpers/core.ts";
import { encode } from "../helpers/internal-calls.ts";
import { runScript, scriptEnv } from "../helpers/processes.ts";
import { coreOn, NODE_URLS, PROXY_URL, queryNode, sleep, type ClusterCore } from "./cluster-helpers.ts";

const LANES = 6;

let core: TestCore;
let admin: TestAdmin;
let load: ClusterCore;
beforeAll(async () => {
  core = await startCore();
  admin = await core.admin({ super_user: true });
  load = coreOn(core, PROXY_URL);
});
afterAll(async () => {
  await load?.close();
  await core?.close();
});

/** The load: add-user calls from LANES lanes until stopped (bounded by count and time). */
function startLoad() {
  const statuses = new Map<number, number>();
  const acknowledged: string[] = [];
  let stopped = false;
  let seq = 0;
  const deadline = Date.now() + 200_000;
  const lane = async () => {
    for (let i = 0; i < 20_000 && !stopped && Date.now() < deadline; i++) {
      const username = `load-${++seq}@example.com`;
      const res = await load.json("/internal/add-user", encode("json", "POST", admin.headers, { chain_id: core.chainId, username }));
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status === 200) acknowledged.push(username);
      else await sleep(50); // a client backs off a little on 503
    }
  };
  const lanes = Promise.all(Array.from({ length: LANES }, lane));
  return {
    statuses,
    acknowledged,
    /** resolves once `n` more writes than now were acknowledged (at most `ms`) */
    async progress(n: number, ms: number): Promise<boolean> {
      const target = acknowledged.length + n;
      for (const until = Date.now() + ms; Date.now() < until; await sleep(100)) if (acknowledged.length >= target) return true;
      return false;
    },
    async stop() {
      stopped = true;
      await lanes;
    },
  };
}

/** The name of the node the proxy sends connections to now (its first server that is UP). */
async function proxyWriter(): Promise<string | undefined> {
  return (await proxyServers())?.find((s) => s.status === "UP")?.name;
}

describe("kill -9 of the writer node under write load, and its rejoin", () => {
  it("clients see only 200 or 503; every acknowledged write is on every node", async () => {
    // node 1 writes (a test before may have restarted it: the proxy's checks take 3 s to trust it)
    for (const until = Date.now() + 30_000; Date.now() < until && (await proxyWriter()) !== "node1";) await sleep(250);
    expect(await proxyWriter()).toBe("node1");
    const writes = startLoad();
    try {
      expect(await writes.progress(50, 30_000)).toBe(true);
      const pid = Number(readFileSync(NODES[0]!.pidFile, "utf8").trim());
      process.kill(pid, "SIGKILL");
      // Service resumes through a backup, without a restart of ours.
      expect(await writes.progress(50, 60_000), JSON.stringify([...writes.statuses])).toBe(true);
      expect(await proxyWriter()).not.toBe("node1");
      const up = await runScript("scripts/cluster.ts", ["up"], scriptEnv({}), 300_000);
      expect(up.code, up.stdout + up.stderr).toBe(0);
      // Once node 1 is synced the proxy moves the sessions back to it.
      for (const until = Date.now() + 30_000; Date.now() < until && (await proxyWriter()) !== "node1";) await sleep(250);
      expect(await proxyWriter()).toBe("node1");
      expect(await writes.progress(50, 60_000), JSON.stringify([...writes.statuses])).toBe(true);
    } finally {
      await writes.stop();
    }
    const seen = Object.fromEntries(writes.statuses);
    console.log(`failover: answers by status ${JSON.stringify(seen)}`);
    expect(Object.keys(seen).filter((s) => s !== "200" && s !== "503")).toEqual([]);
    for (const url of NODE_URLS) {
      const rows = await queryNode<{ username: string }>(url, core.dbName, "SELECT username FROM users WHERE chain_id = ? AND username LIKE 'load-%'", [core.chainId]);
      const present = new Set(rows.map((r) => r.username));
      expect(writes.acknowledged.filter((u) => !present.has(u)), url).toEqual([]);
    }
  });
});
