/**
 * A service restarted in the middle of a sync (issue 10, item 7: "either service ... restarted in
 * the middle of a sync loses no acknowledged change and creates no duplicate member"), both
 * services for real:
 * - webshop -> platform: the core API runs as its own process (core-api/src/main.node.ts) and is
 *   killed with SIGKILL (no shutdown at all) while a reconcile pass is sending many shop
 *   registrations to add-user; calls in flight die with it, some after their member was
 *   committed but before the answer left. The pass stops; a new core API process on the same port
 *   and the next pass send the rest. Every customer is then a member exactly once (one user per
 *   authentication_point_identifier), every acknowledged customer kept its last_hash, and what was
 *   acknowledged before the kill is not sent again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_SECRET_KEY } from "./helpers/core.ts";
import { TEST_DATABASE_URL } from "./helpers/databases.ts";
import { scriptEnv, start, type Running } from "./helpers/processes.ts";
import { startSyncWorld, type Registration, type SyncWorld } from "./helpers/sync-world.ts";

let w: SyncWorld;
const processes: Running[] = [];

beforeAll(async () => {
  w = await startSyncWorld("syncrestart");
  // The world's in-process core API gives way to real processes on the same port (the
  // connector's platform link names that URL).
  await w.stopCore();
}, 60_000);

afterAll(async () => {
  for (const p of processes) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill("SIGKILL");
  await w?.close();
});

/** A core-api process on the world's database and port; resolves once it listens. */
async function coreProcess(): Promise<Running> {
  // node itself with tsx's loader: SIGKILL must hit the process that serves (the tsx command
  // would serve from a child of its own, which would live on).
  const p = start(process.execPath, ["--import", "tsx", "core-api/src/main.node.ts"], scriptEnv({
    DATABASE_URL: TEST_DATABASE_URL, CORE_DB_NAME: w.coreDbName, CORE_API_PORT: new URL(w.coreUrl).port,
    SERVICE_SECRET_KEY: TEST_SECRET_KEY, LOG_LEVEL: "error",
  }));
  processes.push(p);
  await p.waitFor(/core-api listening on http:\/\/\S+/, 60_000);
  return p;
}

/** Kills `p` with SIGKILL and waits for it to be gone. */
async function kill(p: Running): Promise<void> {
  p.child.kill("SIGKILL");
  await p.exited();
}

const registration = (n: number): Registration => ({
  email: `restart${n}@example.com`, firstname: `First${n}`, lastname: `Last${n}`, dob: "1990-01-02", gender: n % 2 + 1,
  address: { street: `Kerkstraat\n${n}`, city: "Utrecht", postcode: "3511 AB", countryId: "NL", telephone: "+31612345678" },
});

/** authentication_point_identifier values with more than one user in the chain. */
async function duplicateMembers(): Promise<unknown[]> {
  const [rows] = await w.coreDb.pool.query(
    "SELECT authentication_point_identifier AS id, COUNT(*) AS n FROM users WHERE chain_id = ? AND authentication_point_identifier IS NOT NULL GROUP BY authentication_point_identifier HAVING COUNT(*) > 1",
    [w.chainId],
  );
  return rows as unknown[];
}

describe("the core API killed mid-reconcile", () => {
  it("the next pass after its restart makes every customer a member exactly once; acknowledged ones keep their last_hash and are not sent again", async () => {
    const COUNT = 240;
    const ids: number[] = [];
    for (let n = 0; n < COUNT; n++) ids.push(await w.register(registration(n)));
    const membersBefore = await w.memberCount();

    let core = await coreProcess();
    // Killed from the pass itself once 40 customers are acknowledged: with 6 calls at a time,
    // others are in flight at that moment.
    const acknowledged: number[] = [];
    let killing: Promise<void> | null = null;
    const first = await w.reconcile({
      concurrency: 6, batchSize: 50,
      onSent: (item) => {
        acknowledged.push(item.customerId);
        if (acknowledged.length === 40) killing = kill(core);
      },
    });
    expect(killing).not.toBeNull();
    await killing;
    expect((await core.exited()).code).toBeNull(); // died by the signal
    const chain = first.chains[0]!;
    expect(chain.stopped).toMatch(/core API is unavailable/);
    expect(chain.sent).toBe(acknowledged.length);
    expect(acknowledged.length).toBeGreaterThanOrEqual(40);
    expect(acknowledged.length).toBeLessThan(COUNT);
    // Every acknowledged customer has its last_hash (the hash of what the shop holds), user_id and
    // member number; no other customer has a last_hash.
    for (const id of acknowledged) {
      const data = await w.serviceData(id);
      expect(data.last_hash).toBe(await w.currentHash(id));
      expect(data.user_id).toEqual(expect.any(Number));
      expect(data.member_number).toEqual(expect.any(String));
    }
    const withHash = (await w.shopSql(`SELECT customer_id FROM service_customer_data WHERE last_hash IS NOT NULL AND customer_id IN (${ids.join(",")})`))
      .map((r) => r.customer_id as number);
    expect(withHash.sort((a, b) => a - b)).toEqual([...acknowledged].sort((a, b) => a - b));
    // Some members were committed without their answer reaching the shop (in flight at the kill),
    // or none: either way no customer has two.
    expect(await w.memberCount() - membersBefore).toBeGreaterThanOrEqual(acknowledged.length);
    expect(await duplicateMembers()).toEqual([]);

    core = await coreProcess();
    const resent: number[] = [];
    const second = await w.reconcile({ concurrency: 6, batchSize: 50, onSent: (item) => resent.push(item.customerId) });
    expect(second.status).toBe("done");
    expect(second.failures).toEqual([]);
    expect(second.chains[0]).toMatchObject({ stopped: null, failed: 0, sent: COUNT - acknowledged.length });
    // Nothing acknowledged before the kill went out again; everything else did, once.
    expect(resent.filter((id) => acknowledged.includes(id))).toEqual([]);
    expect([...acknowledged, ...resent].sort((a, b) => a - b)).toEqual(ids);

    // Every customer is one member: one user per authentication_point_identifier, linked both ways.
    expect(await w.memberCount()).toBe(membersBefore + COUNT);
    expect(await duplicateMembers()).toEqual([]);
    for (const id of ids) {
      const data = await w.serviceData(id);
      expect(data.last_hash).toBe(await w.currentHash(id));
      const member = await w.member(`authentication_point_identifier=${id}&chain_id=${w.chainId}`);
      expect(member).toMatchObject({ id: data.user_id, member_number: data.member_number, signup_channel: "platform" });
    }
    // A third pass finds nothing to send.
    const third = await w.reconcile();
    expect(third.chains[0]).toMatchObject({ due: 0, sent: 0 });
    await kill(core);
  }, 180_000);
});
