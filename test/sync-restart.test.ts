/**
 * A service restarted in the middle of a sync loses no acknowledged change and creates no duplicate
 * member, both services for real:
 * - webshop -> platform: the core API runs as its own process (core-api/src/main.node.ts) and is
 *   killed with SIGKILL (no shutdown at all) while a reconcile pass is sending many shop
 *   registrations to add-user; calls in flight die with it, some after their member was
 *   committed but before the answer left. The pass stops; a new core API process on the same port
 *   and the next pass send the rest. Every customer is then a member exactly once (one user per
 *   authentication_point_identifier), every acknowledged customer kept its last_hash, and what was
 *   acknowledged before the kill is not sent again.
 * - platform -> webshop: the connector runs as its own process (connector/src/main.ts) and is
 *   killed with SIGKILL while the core API's outbox worker (its own process too) is delivering new
 *   members to the connector's `update`; members keep being added while it is down. Once a new
 *   connector process listens on the same port, the outbox's retries deliver the rest: every member
 *   is exactly one shop customer (a delivery repeated because its answer died with the connector
 *   finds the customer it created), linked to its user_id and member number, with the last_hash of
 *   what the shop holds, and the outbox is empty.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setAuthenticationPoint } from "../core-api/src/authentication-points/authentication-point-repository.ts";
import { createAdmin, grantAccess } from "../core-api/src/db/seed.ts";
import { closedPort, type Running } from "./helpers/processes.ts";
import { numberedRegistration, startSyncWorld, until, type Registration, type SyncWorld } from "./helpers/sync-world.ts";

let w: SyncWorld;

beforeAll(async () => {
  w = await startSyncWorld("syncrestart");
  // The world's in-process core API gives way to real processes on the same port (the
  // connector's platform link names that URL).
  await w.stopCore();
}, 60_000);

afterAll(() => w?.close());

/** A core-api process on the world's database and port; resolves once it listens. */
const coreProcess = () => w.startCoreProcess({ env: { OUTBOX_POLL_MS: "50", OUTBOX_TIMEOUT_MS: "2000" } });

/** A connector process on the world's shop database, port `port`, accepting `token`; resolves once it listens. */
const connectorProcess = (port: number, token: string) => w.startConnectorProcess({ port, token });

/** Kills `p` with SIGKILL and waits for it to be gone. */
async function kill(p: Running): Promise<void> {
  p.child.kill("SIGKILL");
  await p.exited();
}

const registration = (n: number): Registration => numberedRegistration("restart", n);

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
    expect(await w.duplicateMembers()).toEqual([]);

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
    expect(await w.duplicateMembers()).toEqual([]);
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

describe("the connector killed mid-delivery", () => {
  it("after its restart the outbox delivers every member once: one shop customer each, linked, with its last_hash", async () => {
    const COUNT = 90;
    const KILL_AFTER = 30;
    const token = "restart-test-integration-token-0001";
    const port = await closedPort();
    await setAuthenticationPoint(w.coreDb.db, w.box, { chainId: w.chainId, baseUrl: `http://127.0.0.1:${port}`, integrationToken: token, actor: null }, new Date());
    const adminId = await createAdmin(w.coreDb.db, { username: "restart-admin@example.com", password: "restart-admin-password" });
    await grantAccess(w.coreDb.db, adminId, w.chainId, { super_user: true, read: true, write: true, assign: true });
    const core = await coreProcess();
    let connector = await connectorProcess(port, token);
    const login = await fetch(`${w.coreUrl}/auth/login`, {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "restart-admin@example.com", password: "restart-admin-password" }),
    }).then((r) => r.json() as Promise<any>);
    const session = { "X-Service-Session-User-ID": String(login.results.session_info.session_user_id), "X-Service-Session-Key": login.results.session_info.session_key };
    const addMember = async (n: number) => {
      const res = await fetch(`${w.coreUrl}/internal/add-user`, {
        method: "POST", headers: { ...session, "content-type": "application/json", "X-Service-API-version": "1.6.8" },
        body: JSON.stringify({ chain_id: w.chainId, username: `deliver${n}@example.com`, first_name: `Del${n}`, last_name: "Ivery", country_code: "NL" }),
      });
      const body = await res.json() as any;
      expect(res.status, JSON.stringify(body)).toBe(200);
      return body.results.user as { id: number; member_number: string };
    };
    const delivered = async () => Number((await w.shopSql("SELECT COUNT(*) AS n FROM customer_entity WHERE email LIKE 'deliver%@example.com'"))[0].n);
    const outboxRows = async () => (await w.coreDb.pool.query("SELECT status, attempts FROM outbox WHERE chain_id = ?", [w.chainId]))[0] as Array<{ status: string; attempts: number }>;

    // The first members come all at once, so the worker is still delivering when the connector
    // is killed: some are in the shop, others pending or in flight.
    const members: Array<{ id: number; member_number: string }> = await Promise.all(Array.from({ length: KILL_AFTER }, (_, n) => addMember(n)));
    await until(async () => (await delivered()) >= 5);
    connector.child.kill("SIGKILL");
    await connector.exited();
    const atKill = await delivered();
    // Members keep coming while the shop is down; their deliveries fail and wait for a retry.
    for (let n = KILL_AFTER; n < COUNT; n++) members.push(await addMember(n));
    await until(async () => (await outboxRows()).some((r) => r.attempts > 0));
    expect(await delivered()).toBe(atKill);

    connector = await connectorProcess(port, token);
    await until(async () => (await outboxRows()).length === 0);
    expect(await delivered()).toBe(COUNT);
    expect(await w.shopSql("SELECT email, COUNT(*) AS n FROM customer_entity WHERE email LIKE 'deliver%@example.com' GROUP BY email HAVING COUNT(*) > 1")).toEqual([]);
    for (const [n, member] of members.entries()) {
      const [row] = await w.shopSql(
        "SELECT c.entity_id, c.firstname, d.user_id, d.member_number, d.last_hash FROM customer_entity c JOIN service_customer_data d ON d.customer_id = c.entity_id WHERE c.email = ?",
        [`deliver${n}@example.com`],
      );
      expect(row).toMatchObject({ firstname: `Del${n}`, user_id: member.id, member_number: member.member_number });
      expect(row.last_hash).toBe(await w.currentHash(row.entity_id));
    }
    // The shop's state needs no reconcile: nothing of these is due.
    const sent: number[] = [];
    await w.reconcile({ onSent: (item) => sent.push(item.customerId) });
    expect(sent).toEqual([]);
    expect(await w.duplicateMembers()).toEqual([]);
    connector.child.kill("SIGKILL");
    core.child.kill("SIGKILL");
    await Promise.all([connector.exited(), core.exited()]);
  }, 180_000);
});
