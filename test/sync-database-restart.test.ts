/**
 * The database restarted in the middle of a sync loses no acknowledged change and creates no
 * duplicate member (as does either service restarted then: sync-restart.test.ts), both services
 * for real, as processes of their own, reaching MariaDB through proxies
 * (helpers/database-proxy.ts), one for the core API, one for the shop's side
 * (connector, `npm run sync`): restarting the shared server would break every other test file,
 * so "the database restarts" is both proxies cutting every connection at once (the server rolls
 * back their open transactions, as a restart does) and refusing new ones until the test brings
 * them back, once each side has run into the outage. The test's own checks read the databases
 * directly.
 * - the reconcile alone losing the shop's database (the core API keeps its): it stops with a one-line StoreUnavailableError holding the report so far, keeps its lease
 *   while the database is away and frees it once it is back; the next run sends the rest.
 * - webshop -> platform: `npm run sync` is sending many shop registrations to add-user when the
 *   database goes; the run stops with one line and status 1, and frees its lease once the
 *   database is back. The next run sends exactly the customers whose acknowledgement was not
 *   stored: every customer is one member, acknowledged ones are not sent again.
 * - platform -> webshop: the core API's outbox is delivering many add-user and alter-user
 *   changes to the connector's `update` when the database goes (a call made meanwhile is refused
 *   with 503); once it is back both services are ready again by themselves, the outbox retries
 *   what failed, and every member ends as exactly one shop customer holding its latest state,
 *   with the last_hash of what the shop holds. The connector's reconcile schedule lives on.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setAuthenticationPoint } from "../core-api/src/authentication-points/authentication-point-repository.ts";
import { createAdmin, grantAccess } from "../core-api/src/db/seed.ts";
import { openConnectorDatabase } from "../connector/src/db/client.ts";
import { captureLog } from "../connector/src/test-support/log-capture.ts";
import { runReconcile, StoreUnavailableError } from "../connector/src/sync/reconcile.ts";
import { TEST_SECRET_KEY } from "./helpers/core.ts";
import { startDatabaseProxy, type DatabaseProxy } from "./helpers/database-proxy.ts";
import { closedPort, runScript, scriptEnv, type Running } from "./helpers/processes.ts";
import { numberedRegistration, startSyncWorld, until, type Registration, type SyncWorld } from "./helpers/sync-world.ts";

let w: SyncWorld;
/** the core API's way to the database */
let coreProxy: DatabaseProxy;
/** the shop side's way to the database (connector, npm run sync, the reconcile) */
let shopProxy: DatabaseProxy;
/** the core API process, through coreProxy, for every test */
let core: Running;

beforeAll(async () => {
  w = await startSyncWorld("dbrestart");
  // The world's in-process core API gives way to a process on the same port (the shop's platform
  // link names that URL) that reaches the database through its proxy.
  await w.stopCore();
  coreProxy = await startDatabaseProxy();
  shopProxy = await startDatabaseProxy();
  // Warnings logged: the test waits for the outbox worker to run into the outage.
  core = await w.startCoreProcess({ databaseUrl: coreProxy.url, env: { OUTBOX_POLL_MS: "50", OUTBOX_TIMEOUT_MS: "2000", LOG_LEVEL: "warn" } });
}, 90_000);

afterAll(async () => {
  await w?.close();
  await coreProxy?.close();
  await shopProxy?.close();
});

/** GET /ready's status of the service at `url`. */
const ready = async (url: string) => (await fetch(`${url}/ready`)).status;

/** Those of `ids` whose acknowledgement by the platform is stored (they have a last_hash), in id order. */
const stored = async (ids: number[]) => (await w.shopSql(
  `SELECT customer_id FROM service_customer_data WHERE last_hash IS NOT NULL AND customer_id IN (${ids.join(",")}) ORDER BY customer_id`,
)).map((r) => r.customer_id as number);

/** The reconcile lease's holder (null: free). */
const leaseOwner = async () => (await w.shopSql("SELECT owner FROM service_job_lease WHERE name = 'reconcile'"))[0]?.owner ?? null;

/** `npm run sync` through the shop's proxy, until it exits. */
const sync = () => runScript("scripts/sync.ts", [], scriptEnv({ DATABASE_URL: shopProxy.url, WEBSHOP_DB_NAME: w.shopDbName, SERVICE_SECRET_KEY: TEST_SECRET_KEY }), 120_000);

const registration = (n: number): Registration => numberedRegistration("dbrestart", n);

/** "The database restarts": every connection of both sides is cut, new ones are refused until `back()` resolves. */
async function restartDatabase(back: () => Promise<void>): Promise<void> {
  await Promise.all([coreProxy.down(), shopProxy.down()]);
  try {
    await back();
  } finally {
    coreProxy.up();
    shopProxy.up();
  }
}

describe("the reconcile losing the shop database mid-run", () => {
  it("stops with a one-line StoreUnavailableError and the report so far, frees the lease once the database is back; the next run sends the rest", async () => {
    const COUNT = 30;
    const ids: number[] = [];
    for (let n = 0; n < COUNT; n++) ids.push(await w.register(registration(2000 + n)));
    const membersBefore = await w.memberCount();
    // Only the shop's side loses the database: the core API answers throughout, so the run can
    // only fail on its own database.
    const shop = openConnectorDatabase(shopProxy.url, w.shopDbName);
    const log = captureLog("warn");
    try {
      const sent: number[] = [];
      const run = runReconcile({ db: shop.db, box: w.box, logger: log.logger }, {
        concurrency: 4, batchSize: 10,
        onSent: (item) => {
          sent.push(item.customerId);
          if (sent.length === 5) void shopProxy.down(); // cuts every connection before returning
        },
      }).then(() => null, (err: unknown) => err);
      // The run waits to free its lease while the database is away; the lease is still held.
      await until(async () => log.lines.some((l) => l.message.startsWith("reconcile: the lease cannot be freed yet")), 20);
      expect(await leaseOwner()).not.toBeNull();
      shopProxy.up();
      const err = await run;
      expect(err).toBeInstanceOf(StoreUnavailableError);
      const failure = err as StoreUnavailableError;
      expect(failure.message).toMatch(/^the shop database became unavailable during the reconcile \([^\n]+\): \d+ customer\(s\) sent and 0 taken from the platform before it are kept; the next run goes on where this one stopped$/);
      expect(failure.message).toContain(`: ${sent.length} customer(s) sent`);
      expect(failure.report.chains[0]).toMatchObject({ chainId: w.chainId, sent: sent.length, stopped: null });
      expect(sent.length).toBeGreaterThanOrEqual(5);
      expect(sent.length).toBeLessThan(COUNT);
      expect(log.lines.find((l) => l.message === "reconcile stopped")?.fields).toEqual({ err: failure.message });
      expect(await leaseOwner()).toBeNull();

      // What the run stored stays (a commit whose answer the cut lost included); the next run
      // sends exactly the others, and finds the member of any the platform took meanwhile.
      const kept = await stored(ids);
      for (const id of sent) expect(kept).toContain(id);
      const resent: number[] = [];
      const next = await w.reconcile({ onSent: (item) => resent.push(item.customerId) });
      expect(next.status).toBe("done");
      expect(next.failures).toEqual([]);
      expect(resent.filter((id) => kept.includes(id))).toEqual([]);
      expect([...kept, ...resent].sort((a, b) => a - b)).toEqual(ids);
      expect(await w.memberCount()).toBe(membersBefore + COUNT);
      expect(await w.duplicateMembers()).toEqual([]);
      for (const id of ids) expect((await w.serviceData(id)).last_hash).toBe(await w.currentHash(id));
    } finally {
      shopProxy.up();
      await shop.close();
    }
  }, 120_000);
});

describe("the database restarted mid-reconcile", () => {
  it("npm run sync stops with one line and status 1, frees its lease once the database is back; the next run sends the rest, each customer one member", async () => {
    const COUNT = 150;
    const ids: number[] = [];
    for (let n = 0; n < COUNT; n++) ids.push(await w.register(registration(n)));
    const membersBefore = await w.memberCount();

    const first = sync();
    await until(async () => (await stored(ids)).length >= 20, 20);
    let atCut: number[] = [];
    const triedBefore = shopProxy.refused();
    await restartDatabase(async () => {
      atCut = await stored(ids);
      // Down until both sides ran into it: the core API reports itself not ready, and the run
      // tried to reach its database (a statement of its own failed, or it is freeing its lease
      // after the core API answered 503).
      await until(async () => (await ready(w.coreUrl)) === 503 && shopProxy.refused() > triedBefore, 20);
    });
    expect(atCut.length).toBeGreaterThanOrEqual(20);
    expect(atCut.length).toBeLessThan(COUNT); // cut mid-run

    // The run failed on the restart one way or the other: its own database gone (one line on
    // stderr), or the core API answering 503 (its chain stopped, said on stdout). Never a stack.
    const failed = await first;
    expect(failed.code, failed.stdout + failed.stderr).toBe(1);
    expect(failed.stdout + failed.stderr).not.toMatch(/^\s+at /m);
    if (failed.stderr) {
      expect(failed.stderr).toMatch(/^the shop database became unavailable during the reconcile \(.+\): \d+ customer\(s\) sent and \d+ taken from the platform before it are kept; the next run goes on where this one stopped\n$/);
    } else {
      expect(failed.stdout).toMatch(/^ {2}stopped: the core API is unavailable \(.*HTTP 503/m);
    }
    // It freed its lease once the database was back: the next run need not wait for it to lapse.
    expect(await leaseOwner()).toBeNull();
    await until(async () => (await ready(w.coreUrl)) === 200);

    // Nothing acknowledged before the cut was lost on either side: the member exists as the shop
    // recorded it, with what the shop holds.
    const acknowledged = await stored(ids);
    for (const id of atCut) expect(acknowledged).toContain(id);
    const storedAt = new Map<number, number>();
    for (const id of acknowledged) {
      const data = await w.serviceData(id);
      expect(data.last_hash).toBe(await w.currentHash(id));
      expect(await w.member(`authentication_point_identifier=${id}&chain_id=${w.chainId}`))
        .toMatchObject({ id: data.user_id, member_number: data.member_number, username: `dbrestart${ids.indexOf(id)}@example.com` });
      storedAt.set(id, data.updated_at.getTime());
    }
    expect(await w.duplicateMembers()).toEqual([]);

    // The next run sends exactly what was not stored; a customer the platform took but whose
    // answer the restart lost is found again (update_if_exists), not added twice.
    const next = await sync();
    expect(next.stderr).toBe("");
    expect(next.code).toBe(0);
    const rest = COUNT - acknowledged.length;
    expect(next.stdout).toMatch(new RegExp(`^chain ${w.chainId}: \\d+ customers read, ${rest} changed, ${rest} sent, 0 taken from the platform, 0 failed$`, "m"));

    expect(await w.memberCount()).toBe(membersBefore + COUNT);
    expect(await w.duplicateMembers()).toEqual([]);
    for (const [n, id] of ids.entries()) {
      const data = await w.serviceData(id);
      expect(data.last_hash).toBe(await w.currentHash(id));
      expect(await w.member(`authentication_point_identifier=${id}&chain_id=${w.chainId}`))
        .toMatchObject({ id: data.user_id, member_number: data.member_number, username: `dbrestart${n}@example.com`, first_name: `First${n}` });
      // acknowledged before: not sent (nor stored) again
      if (storedAt.has(id)) expect(data.updated_at.getTime()).toBe(storedAt.get(id));
    }
    // Nothing is left to send.
    expect((await w.reconcile({ dryRun: true })).chains[0]).toMatchObject({ due: 0 });
  }, 180_000);
});

describe("the database restarted mid-delivery", () => {
  it("once it is back the outbox delivers every change: each member one shop customer with its latest state and last_hash; the schedule lives on", async () => {
    const COUNT = 40;
    const token = "db-restart-test-integration-token-01";
    const port = await closedPort();
    await setAuthenticationPoint(w.coreDb.db, w.box, { chainId: w.chainId, baseUrl: `http://127.0.0.1:${port}`, integrationToken: token, actor: null }, new Date());
    const adminId = await createAdmin(w.coreDb.db, { username: "dbrestart-admin@example.com", password: "dbrestart-admin-password" });
    await grantAccess(w.coreDb.db, adminId, w.chainId, { super_user: true, read: true, write: true, assign: true });
    // The reconcile schedule runs every second: it must outlive the restart too.
    const connector = await w.startConnectorProcess({ port, token, databaseUrl: shopProxy.url, env: { SYNC_CRON: "* * * * * *", LOG_LEVEL: "warn" } });
    const connectorUrl = `http://127.0.0.1:${port}`;

    const login = await fetch(`${w.coreUrl}/auth/login`, {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "dbrestart-admin@example.com", password: "dbrestart-admin-password" }),
    }).then((r) => r.json() as Promise<any>);
    const session = {
      "X-Service-Session-User-ID": String(login.results.session_info.session_user_id), "X-Service-Session-Key": login.results.session_info.session_key,
      "content-type": "application/json", "X-Service-API-version": "1.6.8",
    };
    const addMember = (n: number) => fetch(`${w.coreUrl}/internal/add-user`, {
      method: "POST", headers: session,
      body: JSON.stringify({ chain_id: w.chainId, username: `dbdeliver${n}@example.com`, first_name: `Del${n}`, last_name: "Ivery", country_code: "NL" }),
    });
    const alterMember = (userId: number, n: number) => fetch(`${w.coreUrl}/internal/alter-user`, {
      method: "PUT", headers: { ...session, "X-Service-Chain-ID": String(w.chainId) },
      body: JSON.stringify({ user_id: userId, first_name: `Altered${n}`, last_name: `Latest${n}` }),
    });
    const delivered = async () => Number((await w.shopSql("SELECT COUNT(*) AS n FROM customer_entity WHERE email LIKE 'dbdeliver%@example.com'"))[0].n);
    const outboxRows = async () => (await w.coreDb.pool.query("SELECT status, attempts FROM outbox WHERE chain_id = ?", [w.chainId]))[0] as Array<{ status: string; attempts: number }>;
    const membersBefore = await w.memberCount();

    // Every change is acknowledged (200) before the cut; the worker is still delivering them.
    const members = await Promise.all(Array.from({ length: COUNT }, async (_, n) => {
      const res = await addMember(n);
      const body = await res.json() as any;
      expect(res.status, JSON.stringify(body)).toBe(200);
      return body.results.user as { id: number; member_number: string };
    }));
    await Promise.all(members.map(async (m, n) => {
      const res = await alterMember(m.id, n);
      expect(res.status, await res.text()).toBe(200);
    }));
    await until(async () => (await delivered()) >= 5, 20);

    const logsBefore = { core: core.output().length, connector: connector.output().length };
    await restartDatabase(async () => {
      // The deliveries were under way.
      expect((await outboxRows()).filter((r) => r.status === "pending").length).toBeGreaterThan(0);
      // Both services notice; a change asked for meanwhile is refused, not half made.
      await until(async () => (await ready(w.coreUrl)) === 503 && (await ready(connectorUrl)) === 503);
      const refused = await addMember(COUNT);
      expect(refused.status).toBe(503);
      expect(((await refused.json()) as any).error.name).toBe("service_unavailable");
      // Down until the outbox worker saw it go and a scheduled reconcile pass failed (or
      // waits to free its lease): both must live on.
      await until(async () => /outbox: the database is unavailable; deliveries wait/.test(core.output().slice(logsBefore.core))
        && /"msg":"reconcile stopped"|reconcile: the lease cannot be freed yet/.test(connector.output().slice(logsBefore.connector)));
    });

    // Back: both ready again by themselves, and the outbox delivers everything.
    await until(async () => (await ready(w.coreUrl)) === 200 && (await ready(connectorUrl)) === 200);
    await until(async () => (await outboxRows()).every((r) => r.status !== "pending"));
    expect(await outboxRows()).toEqual([]); // none given up as failed
    expect(await delivered()).toBe(COUNT);
    expect(await w.shopSql("SELECT email FROM customer_entity WHERE email LIKE 'dbdeliver%@example.com' GROUP BY email HAVING COUNT(*) > 1")).toEqual([]);
    for (const [n, member] of members.entries()) {
      const [row] = await w.shopSql(
        "SELECT c.entity_id, c.firstname, c.lastname, d.user_id, d.member_number, d.last_hash FROM customer_entity c JOIN service_customer_data d ON d.customer_id = c.entity_id WHERE c.email = ?",
        [`dbdeliver${n}@example.com`],
      );
      // the latest change, even where an earlier delivery was repeated after it
      expect(row).toMatchObject({ firstname: `Altered${n}`, lastname: `Latest${n}`, user_id: member.id, member_number: member.member_number });
      expect(row.last_hash).toBe(await w.currentHash(row.entity_id));
    }
    expect(await w.memberCount()).toBe(membersBefore + COUNT); // the refused call added no one
    expect(await w.duplicateMembers()).toEqual([]);

    // The schedule survived: a registration after the restart is synced by it.
    const id = await w.register(registration(1000));
    await until(async () => (await w.serviceData(id))?.last_hash != null);
    expect(await w.member(`authentication_point_identifier=${id}&chain_id=${w.chainId}`)).toMatchObject({ username: "dbrestart1000@example.com" });
    // Neither service died on the way.
    expect(connector.child.exitCode).toBeNull();
    expect(core.child.exitCode).toBeNull();
  }, 180_000);
});
