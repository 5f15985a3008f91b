/**
 * Read your writes on the Galera cluster (handbook, "Scale beyond one machine"): two core-api
 * instances pointed straight at two different nodes, not through the proxy. A user written
 * through the instance on node 2 is read at once through the instance on node 1. With the
 * sessions' default wsrep_sync_wait (1, shared/src/node/database-session.ts) every read sees the
 * write; with `?wsrep_sync_wait=0` in the address some read misses it, which is what the setting
 * is for. The last test measures what the wait costs a by-id read.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestAdmin, type TestCore } from "../helpers/core.ts";
import { encode } from "../helpers/internal-calls.ts";
import { coreOn, NODE_URLS, type ClusterCore } from "./cluster-helpers.ts";

let core: TestCore;
let admin: TestAdmin;
const instances: ClusterCore[] = [];
beforeAll(async () => {
  core = await startCore();
  admin = await core.admin({ super_user: true });
});
afterAll(async () => {
  await Promise.all(instances.map((i) => i.close()));
  await core?.close();
});

/** A core-api instance on node `index` (0-2), with `syncWait` in its address when given. */
function instance(index: number, syncWait?: number): ClusterCore {
  const url = syncWait === undefined ? NODE_URLS[index]! : `${NODE_URLS[index]}?wsrep_sync_wait=${syncWait}`;
  const made = coreOn(core, url);
  instances.push(made);
  return made;
}

let seq = 0;

/** add-user through `writer`, then get-user of the new id through `reader` at once: whether it was seen. */
async function writeThenRead(writer: ClusterCore, reader: ClusterCore): Promise<boolean> {
  const username = `ryw-${++seq}-${Date.now()}@example.com`;
  const added = await writer.json("/internal/add-user", encode("json", "POST", admin.headers, { chain_id: core.chainId, username, first_name: "Read" }));
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  const read = await reader.json(`/internal/get-user?user_id=${added.body.results.user.id}`, { headers: admin.headers });
  if (read.status === 200) expect(read.body.results.user.username).toBe(username);
  return read.status === 200;
}

describe("a write acknowledged through node 2, read at once through node 1", () => {
  it("is seen by all of 200 reads with the default wsrep_sync_wait", async () => {
    const [writer, reader] = [instance(1), instance(0)];
    let missed = 0;
    for (let i = 0; i < 200; i++) if (!(await writeThenRead(writer, reader))) missed++;
    expect(missed).toBe(0);
  });

  it("is missed by some read with wsrep_sync_wait=0 (what the default prevents)", async () => {
    const [writer, reader] = [instance(1, 0), instance(0, 0)];
    // Bounded: at most 2,000 tries or 90 s; the first miss ends it (a few in 200 miss here).
    let tries = 0;
    let missed = false;
    for (const until = Date.now() + 90_000; tries < 2_000 && Date.now() < until && !missed; tries++) missed = !(await writeThenRead(writer, reader));
    console.log(`wsrep_sync_wait=0: first read that missed its write after ${tries} tries`);
    expect(missed).toBe(true);
  });
});

describe("the cost of waiting", () => {
  /** get-user by id through `reader` from 8 lanes for `ms`: reads per second. */
  async function readsPerSecond(reader: ClusterCore, userId: number, ms: number): Promise<number> {
    let done = 0;
    const until = Date.now() + ms;
    const lane = async () => {
      while (Date.now() < until) {
        const res = await reader.request(`/internal/get-user?user_id=${userId}`, { headers: admin.headers });
        expect(res.status).toBe(200);
        await res.arrayBuffer();
        done++;
      }
    };
    const started = Date.now();
    await Promise.all(Array.from({ length: 8 }, lane));
    return (done * 1000) / (Date.now() - started);
  }

  it("by-id reads per second through one node, with wsrep_sync_wait 1 and 0", async () => {
    const writer = instance(0);
    const added = await writer.json("/internal/add-user", encode("json", "POST", admin.headers, { chain_id: core.chainId, username: "cost@example.com" }));
    const id = added.body.results.user.id as number;
    const [waiting, notWaiting] = [instance(0, 1), instance(0, 0)];
    await readsPerSecond(waiting, id, 1_000); // warm both pools and the server's caches
    await readsPerSecond(notWaiting, id, 1_000);
    const rounds: Array<[number, number]> = [];
    for (let r = 0; r < 3; r++) rounds.push([await readsPerSecond(waiting, id, 3_000), await readsPerSecond(notWaiting, id, 3_000)]);
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const [withWait, without] = [median(rounds.map((r) => r[0])), median(rounds.map((r) => r[1]))];
    console.log(`get-user by id, 8 lanes, one node: ${withWait.toFixed(0)}/s with wsrep_sync_wait=1, ${without.toFixed(0)}/s with 0 (ratio ${(withWait / without).toFixed(2)})`);
    expect(withWait).toBeGreaterThan(0);
    expect(without).toBeGreaterThan(0);
  });

  it("primary-key selects per second on one node's pool, with wsrep_sync_wait 1 and 0", async () => {
    const added = await instance(0).json("/internal/add-user", encode("json", "POST", admin.headers, { chain_id: core.chainId, username: "cost-sql@example.com" }));
    const id = added.body.results.user.id as number;
    const [waiting, notWaiting] = [instance(0, 1), instance(0, 0)];
    const selects = async (db: ClusterCore["db"], ms: number) => {
      let done = 0;
      const until = Date.now() + ms;
      const started = Date.now();
      await Promise.all(Array.from({ length: 8 }, async () => {
        while (Date.now() < until) {
          await db.$client.query("SELECT id, username FROM users WHERE id = ?", [id]);
          done++;
        }
      }));
      return (done * 1000) / (Date.now() - started);
    };
    await selects(waiting.db, 1_000);
    await selects(notWaiting.db, 1_000);
    const rounds: Array<[number, number]> = [];
    for (let r = 0; r < 3; r++) rounds.push([await selects(waiting.db, 2_000), await selects(notWaiting.db, 2_000)]);
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const [withWait, without] = [median(rounds.map((r) => r[0])), median(rounds.map((r) => r[1]))];
    console.log(`SELECT by primary key, 8 lanes, one node: ${withWait.toFixed(0)}/s with wsrep_sync_wait=1, ${without.toFixed(0)}/s with 0 (ratio ${(withWait / without).toFixed(2)})`);
    expect(withWait).toBeGreaterThan(0);
  });
});
