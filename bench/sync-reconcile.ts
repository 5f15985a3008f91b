/**
 * The sync's performance, with a real core API and a real connector,
 * each in a process of its own, over HTTP, on throwaway databases of DATABASE_URL (dropped
 * afterwards), wired both ways as `npm start` wires them:
 * - a pass over `linked` (100,000) linked customers of which none changed (target at most 2 s):
 *   the keyset pages, the user info of each and its hash against last_hash; after each, its floor
 *   (bench/floors/reconcile-scan.ts: the same statements on a bare pool, a sha256 per customer),
 *   reported as floor / pass without a target of its own;
 * - `changed` (10,000) customers sent to the platform, as new registrations (add-user creating
 *   members) and then as account edits (one add-user with if_unmodified_since each: the platform
 *   decides "the newer change wins"): the rate, next to add-user called directly in a loop with the
 *   same concurrency on as many other users (target ratio at least 0.8). Both are warmed up first on
 *   customers and users of their own; the direct loop runs half before and half after the
 *   reconcile, so a load that drifts during the run weighs on both alike;
 * - platform -> webshop, event-driven: alter-user on a linked member (by another app's token, so
 *   it is sent to the webshop) until the customer row in the shop holds the change, through the
 *   outbox and the connector's `update`: p50 / p99 (target p99 below 1 s on an idle machine), one
 *   change at a time and `concurrency` at a time.
 * `npm run bench` runs it as its section "sync" (bench/run.ts: `--only sync`); `tsx
 * bench/sync-reconcile.ts` runs it alone and (re)writes its section of bench/RESULTS.md.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";
import { eq } from "drizzle-orm";
import mysql, { type Pool } from "mysql2/promise";
import { openSecretBox } from "@service/shared/secret-box";
import { setAuthenticationPoint } from "../core-api/src/authentication-points/authentication-point-repository.ts";
import { userInfoHash } from "@service/shared/node";
import { seedClient, seedToken } from "../core-api/src/clients/client-test-support.ts";
import { openCoreDatabase } from "../core-api/src/db/client.ts";
import { migrateCoreDatabase } from "../core-api/src/db/migrate.node.ts";
import { apps, memberNumberRanges } from "../core-api/src/db/schema.ts";
import { createAppHostname, createChain } from "../core-api/src/db/seed.ts";
import { userInfoObject } from "../connector/src/customers/mapping.ts";
import { openConnectorDatabase, type ConnectorDatabase } from "../connector/src/db/client.ts";
import { migrateConnectorDatabase } from "../connector/src/db/migrate.node.ts";
import { seedConnector } from "../connector/src/db/seed.ts";
import { loadCustomerPage } from "../connector/src/sync/customer-pages.ts";
import { addUserParamsOf } from "../connector/src/sync/member-params.ts";
import { platformClient } from "../connector/src/sync/platform-client.ts";
import { linkPlatform } from "../connector/src/sync/platform-link.ts";
import { DEFAULT_BATCH_SIZE, DEFAULT_CONCURRENCY, runReconcile } from "../connector/src/sync/reconcile.ts";
import { numberOption } from "../scripts/lib/options.ts";
import { median, summarise, type Timing } from "./measure.ts";
import { measureCpu, type CpuSpent } from "./process-cpu.ts";
import { bareScanAndHash } from "./floors/reconcile-scan.ts";
import type { BenchSection } from "./section.ts";

/** The sync's targets. */
export const TARGET_UNCHANGED_PASS_MS = 2_000;
export const TARGET_SEND_RATIO = 0.8;
export const TARGET_WEBSHOP_P99_MS = 1_000;

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const RESULTS_PATH = fileURLToPath(new URL("./RESULTS.md", import.meta.url));
const SECTION_TITLE = "## Sync: webshop <-> platform";
const SECRET_KEY = "bench-sync-secret-key-0123456789abcdef";
const HOSTNAME = "shop.bench-sync.example";

export interface SyncBenchOptions {
  /** MySQL / MariaDB server for the throwaway databases */
  databaseUrl: string;
  /** linked customers of the unchanged pass (default 100,000) */
  linked?: number;
  /** customers sent (default 10,000) */
  changed?: number;
  /** calls in flight, both for the reconcile and the direct loop (default the reconcile's, 8) */
  concurrency?: number;
  /** timed unchanged passes (default 3; the median counts) */
  passes?: number;
  /** timed platform -> webshop changes per latency row (default 200), after `latencyWarmup` (default 20) */
  latencyRuns?: number;
  latencyWarmup?: number;
  log?: (line: string) => void;
}

/** One sending phase: the reconcile against add-user directly. */
export interface SendPhase {
  label: string;
  customers: number;
  reconcileSeconds: number;
  reconcileRate: number;
  directSeconds: number;
  directRate: number;
  ratio: number;
  calls: string;
  /** CPU ms per customer of each side (process-cpu.ts): the reconcile's and the direct loop's */
  cpu: { reconcile: CpuPerCustomer; direct: CpuPerCustomer };
}

/** CPU ms per customer sent: this process (the reconcile, or the direct loop's client), the core API's process tree, the database server (null: not on this machine; it also counts other clients of the server). */
export interface CpuPerCustomer {
  bench: number;
  core: number;
  database: number | null;
}

/** One row of platform -> webshop latency. */
export interface WebshopLatencyRow {
  label: string;
  /** changes in flight at once */
  concurrency: number;
  /** from sending alter-user to the customer row in the shop holding the change, ms */
  timing: Timing;
  /** from alter-user's answer (committed) to the shop holding it: the outbox's and the connector's share, ms */
  afterCommit: Timing;
}

export interface SyncBenchResult {
  date: Date;
  linked: number;
  concurrency: number;
  /** each unchanged pass, ms */
  unchangedPassesMs: number[];
  /** the reconcile's CPU time (this process: user + system) in each, ms */
  unchangedCpuMs: number[];
  unchangedMedianMs: number;
  /** each pass of the unchanged pass's floor (bench/floors/reconcile-scan.ts), ms */
  unchangedFloorMs: number[];
  unchangedFloorMedianMs: number;
  phases: SendPhase[];
  latency: WebshopLatencyRow[];
  loadAverage: [number, number];
}

/**
 * The unchanged passes: `passes` timed reconcile passes over `linked` synced customers, after one
 * that warms the buffer pool, each followed by its floor's pass (bench/floors/reconcile-scan.ts) so
 * that a drifting machine weighs on both alike.
 * @returns each timed pass's ms, the reconcile's CPU ms in it (this process), and each floor pass's ms
 */
async function unchangedPasses(
  shop: ConnectorDatabase, box: Parameters<typeof runReconcile>[0]["box"],
  o: { databaseUrl: string; shopDbName: string; chainId: number; linked: number; passes: number; log: (line: string) => void },
): Promise<{ passesMs: number[]; cpuMs: number[]; floorMs: number[] }> {
  const out = { passesMs: [] as number[], cpuMs: [] as number[], floorMs: [] as number[] };
  const floorPool = bareShopPool(o.databaseUrl, o.shopDbName);
  try {
    const [sites] = await floorPool.query("SELECT website_id FROM service_chain_website WHERE service_chain_id = ?", [o.chainId]);
    const websiteIds = (sites as Array<{ website_id: number }>).map((r) => r.website_id);
    for (let i = 0; i <= o.passes; i++) {
      const cpu = process.cpuUsage();
      const t = performance.now();
      const report = await runReconcile({ db: shop.db, box }, {});
      const ms = performance.now() - t;
      const used = process.cpuUsage(cpu);
      const cpuMs = (used.user + used.system) / 1000;
      const chain = report.chains[0]!;
      if (chain.scanned !== o.linked || chain.due !== 0) throw new Error(`unchanged pass: ${JSON.stringify(chain)}`);
      o.log(`  unchanged pass ${i === 0 ? "(warm-up)" : i}: ${ms.toFixed(0)} ms for ${o.linked} customers (reconcile CPU ${cpuMs.toFixed(0)} ms)`);
      const floorStarted = performance.now();
      const floor = await bareScanAndHash(floorPool, websiteIds, DEFAULT_BATCH_SIZE);
      const floorMs = performance.now() - floorStarted;
      if (floor.scanned !== o.linked) throw new Error(`unchanged pass's floor: read ${floor.scanned} customers, not ${o.linked}`);
      o.log(`  its floor: ${floorMs.toFixed(0)} ms (the same statements on a bare pool, a sha256 per customer)`);
      // the first warms the buffer pool
      if (i === 0) continue;
      out.passesMs.push(ms);
      out.cpuMs.push(cpuMs);
      out.floorMs.push(floorMs);
    }
    return out;
  } finally {
    await floorPool.end();
  }
}

/** A bare mysql2 pool on the webshop's database, for the unchanged pass's floor. */
function bareShopPool(databaseUrl: string, database: string): Pool {
  const url = new URL(databaseUrl);
  url.pathname = `/${database}`;
  return mysql.createPool({ uri: url.toString(), timezone: "Z", supportBigNumbers: true, charset: "utf8mb4_unicode_ci", connectionLimit: 4 });
}

/** Runs the benchmark (module comment). */
export async function benchSyncReconcile(options: SyncBenchOptions): Promise<SyncBenchResult> {
  const log = options.log ?? console.log;
  const linked = options.linked ?? 100_000;
  const changed = options.changed ?? 10_000;
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const passes = options.passes ?? 3;
  const latencyRuns = options.latencyRuns ?? 200;
  const latencyWarmup = options.latencyWarmup ?? 20;
  const loadStart = Math.round(os.loadavg()[0]! * 100) / 100;
  const suffix = Math.random().toString(16).slice(2, 8);
  const coreDbName = `bench_sync_core_${suffix}`;
  const shopDbName = `bench_sync_shop_${suffix}`;
  const children: StartedProcess[] = [];
  let shop: ConnectorDatabase | undefined;
  try {
    // The platform: a chain with its webshop app, a member-number range, the identity-source
    // client's token (the connector's) and another app's token (changes the webshop is sent).
    await migrateCoreDatabase(options.databaseUrl, coreDbName);
    const coreDb = openCoreDatabase(options.databaseUrl, coreDbName, { connectionLimit: 2 });
    let chainId: number;
    let accessToken: string;
    let appToken: string;
    const box = await openSecretBox(SECRET_KEY);
    const integrationToken = `bench-sync-${randomBytes(16).toString("hex")}`;
    try {
      const now = new Date();
      chainId = await createChain(coreDb.db, "Bench Sync Chain");
      const appId = await createAppHostname(coreDb.db, chainId, HOSTNAME);
      await coreDb.db.update(apps).set({ kind: "webshop" }).where(eq(apps.id, appId));
      await coreDb.db.insert(memberNumberRanges).values({ chainId, kind: "generated", first: 10_000_000n, last: 19_999_999n, nextNumber: 10_000_000n });
      const client = await seedClient(coreDb.db, chainId, now, { name: "Webshop connector", isIdentitySource: true });
      const token = await seedToken(coreDb.db, chainId, client.id, now);
      accessToken = `${token.row.id}:${token.secret}`;
      const app = await seedClient(coreDb.db, chainId, now, { name: "Bench app" });
      const appTokenRow = await seedToken(coreDb.db, chainId, app.id, now);
      appToken = `${appTokenRow.row.id}:${appTokenRow.secret}`;

      // The webshop: its store, and the connector in a process of its own (no reconcile schedule:
      // the benchmark runs the passes), the platform's authentication point.
      await migrateConnectorDatabase(options.databaseUrl, shopDbName);
      shop = openConnectorDatabase(options.databaseUrl, shopDbName);
      await seedConnector(shop.db, { chainId, integrationToken });
      const connector = await startProcess("connector/src/main.ts", /connector listening on (http:\/\/\S+)/, {
        DATABASE_URL: options.databaseUrl, WEBSHOP_DB_NAME: shopDbName, CONNECTOR_PORT: "0", SEED_CHAIN_ID: String(chainId),
        SEED_INTEGRATION_TOKEN: integrationToken, SYNC_CRON: "off", WEB_CONCURRENCY: "1",
      });
      children.push(connector);
      const set = await setAuthenticationPoint(coreDb.db, box, { chainId, baseUrl: connector.url, integrationToken, actor: null }, now);
      if (!set) throw new Error(`chain ${chainId}: the authentication point could not be set`);
      log(`connector on ${connector.url} (its own process, LOG_LEVEL=warn), database ${shopDbName}`);
    } finally {
      await coreDb.close();
    }
    const started = await startProcess("core-api/src/main.node.ts", /listening on (http:\/\/\S+)/, { DATABASE_URL: options.databaseUrl, CORE_DB_NAME: coreDbName, CORE_API_PORT: "0" });
    children.push(started);
    log(`core API on ${started.url} (its own process, LOG_LEVEL=warn), database ${coreDbName}`);
    const link = { coreApiUrl: started.url, accessToken, appHostname: HOSTNAME };
    await linkPlatform(shop.db, box, { chainId, ...link });

    // 1. The unchanged pass.
    log(`loading ${linked} linked customers (synced: last_hash equal to their user info hash)`);
    await insertCustomers(shop, 0, linked, new Date("2024-01-01T00:00:00Z"));
    await markSynced(shop, chainId);
    const { passesMs: unchangedPassesMs, cpuMs: unchangedCpuMs, floorMs: unchangedFloorMs } = await unchangedPasses(
      shop, box, { databaseUrl: options.databaseUrl, shopDbName, chainId, linked, passes, log },
    );
    await shop.pool.query("TRUNCATE customer_entity");
    await shop.pool.query("TRUNCATE customer_address_entity");
    await shop.pool.query("TRUNCATE service_customer_data");

    // 2. Sending: the direct loop on `changed` users of its own, half before and half after the
    // reconcile of as many customers (a drifting load weighs on both alike).
    const client = platformClient(link);
    const phases: SendPhase[] = [];
    const half = Math.floor(changed / 2);
    const direct = async (from: number, count: number, firstName: string) => {
      const t = performance.now();
      await inPool(count, concurrency, async (i) => {
        await client.addUser(addUserParamsOf(syntheticInfo(`direct${from + i}`, from + i, firstName), null));
      });
      return (performance.now() - t) / 1000;
    };
    const roots = new Map([["core-api", started.child.pid!]]);
    const sandwich = async (firstName: string, reconcile: () => Promise<number>) => {
      const before = await measureCpu(options.databaseUrl, roots, () => direct(0, half, firstName));
      const reconciled = await measureCpu(options.databaseUrl, roots, reconcile);
      const after = await measureCpu(options.databaseUrl, roots, () => direct(half, changed - half, firstName));
      return {
        reconcileSeconds: reconciled.result, directSeconds: before.result + after.result,
        cpu: { reconcile: perCustomer([reconciled.cpu], changed), direct: perCustomer([before.cpu, after.cpu], changed) },
      };
    };
    const reconcileAll = async (what: string) => {
      let calls = 0;
      const counting: typeof fetch = (input, init) => {
        calls++;
        return fetch(input, init);
      };
      const t = performance.now();
      const report = await runReconcile({ db: shop!.db, box, fetch: counting }, { concurrency });
      const seconds = (performance.now() - t) / 1000;
      if (report.chains[0]!.sent !== changed) throw new Error(`${what}: ${JSON.stringify(report.chains[0])} ${JSON.stringify(report.failures.slice(0, 3))}`);
      // One call per customer, else the row would not measure what it says.
      if (calls !== changed) throw new Error(`${what}: ${calls} calls to the core API for ${changed} customers`);
      return seconds;
    };

    // Untimed first: both ways of sending, on customers and users of their own, so neither pays
    // for the first requests of a code path (the JIT, the pools) in its timed part.
    const warm = Math.min(200, Math.max(10, Math.floor(changed / 20)));
    const warmFrom = linked + changed;
    const warmUp = async (firstName: string) => {
      if (firstName !== "Direct") {
        await shop!.pool.query("UPDATE customer_entity SET firstname = CONCAT(?, entity_id), updated_at = UTC_TIMESTAMP() + INTERVAL 1 MINUTE WHERE entity_id > ?", [firstName, warmFrom]);
      }
      const report = await runReconcile({ db: shop!.db, box }, { concurrency });
      if (report.chains[0]!.sent !== warm) throw new Error(`warm-up: ${JSON.stringify(report.chains[0])} ${JSON.stringify(report.failures.slice(0, 3))}`);
      await direct(changed, warm, firstName);
    };
    await insertCustomers(shop, warmFrom, warm, new Date(Date.now() + 1000));
    await warmUp("Direct");

    log(`\n${changed} new registrations: add-user directly (${concurrency} at a time, half before and half after), and the reconcile`);
    await insertCustomers(shop, linked, changed, new Date(Date.now() + 1000));
    const registrations = await sandwich("Direct", () => reconcileAll("new registrations"));
    phases.push(phase(`${changed.toLocaleString("en")} new registrations (add-user creates the member)`, changed, registrations.reconcileSeconds, registrations.directSeconds, "reconcile: add-user; direct: add-user", registrations.cpu));
    log(`  direct ${rate(changed, registrations.directSeconds)}/s, reconcile ${rate(changed, registrations.reconcileSeconds)}/s; CPU ms per customer (this process / core API / database): direct ${cpuText(registrations.cpu.direct)}, reconcile ${cpuText(registrations.cpu.reconcile)}`);

    log(`\n${changed} account edits: add-user updating directly (half before and half after), and the reconcile (one conditional add-user each)`);
    await warmUp("DirectEdited");
    await shop.pool.query("UPDATE customer_entity SET firstname = CONCAT('Edited', entity_id), updated_at = UTC_TIMESTAMP() + INTERVAL 1 MINUTE WHERE entity_id <= ?", [warmFrom]);
    const edits = await sandwich("DirectEdited", () => reconcileAll("edits"));
    phases.push(phase(`${changed.toLocaleString("en")} account edits (members exist)`, changed, edits.reconcileSeconds, edits.directSeconds, "reconcile: add-user with if_unmodified_since (the newer change wins, one call); direct: add-user", edits.cpu));
    log(`  direct ${rate(changed, edits.directSeconds)}/s, reconcile ${rate(changed, edits.reconcileSeconds)}/s; CPU ms per customer (this process / core API / database): direct ${cpuText(edits.cpu.direct)}, reconcile ${cpuText(edits.cpu.reconcile)}`);

    // 3. Platform -> webshop: a member changed by an app reaches the shop through the outbox.
    log(`\nplatform -> webshop: alter-user until the shop's customer row holds the change (${latencyWarmup} warm-up, ${latencyRuns} timed per row)`);
    const [linkedRows] = await shop.pool.query("SELECT customer_id, user_id FROM service_customer_data WHERE user_id IS NOT NULL ORDER BY customer_id LIMIT ?", [2 * (latencyWarmup + latencyRuns)]);
    const members = (linkedRows as Array<{ customer_id: number; user_id: number }>).map((r) => ({ customerId: r.customer_id, userId: r.user_id }));
    // Each change of a row on a member of its own (two lanes never change one member).
    const perRow = Math.min(latencyWarmup + latencyRuns, Math.floor(members.length / 2));
    const warmup = Math.min(latencyWarmup, Math.floor(perRow / 10));
    const latency: WebshopLatencyRow[] = [];
    const change = webshopChange(started.url, appToken, shop);
    for (const [label, lanes] of [["one change at a time", 1], [`${concurrency} changes at a time`, concurrency]] as const) {
      const samples: number[] = [];
      const afterCommit: number[] = [];
      const rowMembers = members.slice(latency.length * perRow, (latency.length + 1) * perRow);
      let next = 0;
      await Promise.all(Array.from({ length: lanes }, async () => {
        while (next < rowMembers.length) {
          const k = next++;
          const t = await change(rowMembers[k]!, `Lat${latency.length}x${k}`);
          if (k >= warmup) {
            samples.push(t.total);
            afterCommit.push(t.afterCommit);
          }
        }
      }));
      latency.push({ label, concurrency: lanes, timing: summarise(samples), afterCommit: summarise(afterCommit) });
      const row = latency.at(-1)!;
      log(`  ${label}: p50 ${row.timing.p50.toFixed(1)} ms, p99 ${row.timing.p99.toFixed(1)} ms, max ${row.timing.max.toFixed(1)} ms (after the commit: p50 ${row.afterCommit.p50.toFixed(1)} ms, p99 ${row.afterCommit.p99.toFixed(1)} ms)`);
    }

    return {
      date: new Date(),
      linked,
      concurrency,
      unchangedPassesMs,
      unchangedCpuMs,
      unchangedMedianMs: median(unchangedPassesMs),
      unchangedFloorMs,
      unchangedFloorMedianMs: median(unchangedFloorMs),
      phases,
      latency,
      loadAverage: [loadStart, Math.round(os.loadavg()[0]! * 100) / 100],
    };
  } catch (err) {
    // What the services logged (LOG_LEVEL=warn) says why a request failed: a deadline, the database.
    for (const { script, output } of children) log(`${script}, its last output:\n${output() || "(nothing)"}`);
    throw err;
  } finally {
    for (const { child } of children.reverse()) child.kill("SIGTERM");
    await shop?.close();
    const admin = openConnectorDatabase(options.databaseUrl, "mysql", { connectionLimit: 1 });
    try {
      await admin.pool.query(`DROP DATABASE IF EXISTS \`${coreDbName}\``);
      await admin.pool.query(`DROP DATABASE IF EXISTS \`${shopDbName}\``);
    } finally {
      await admin.close();
    }
  }
}

/**
 * One platform -> webshop change: alter-user gives member `m` the first name `name` (with an app's
 * token: a change the webshop did not make, so the outbox sends it to the connector's update),
 * then the shop's customer row is read until it holds it.
 * @returns ms from sending the change, and from its answer, to the shop holding it
 * @throws Error when alter-user fails, or the shop does not hold the change within 10 s
 */
function webshopChange(coreUrl: string, appToken: string, shop: ConnectorDatabase) {
  return async (m: { customerId: number; userId: number }, name: string): Promise<{ total: number; afterCommit: number }> => {
    const t0 = performance.now();
    const res = await fetch(`${coreUrl}/internal/alter-user`, {
      method: "PUT",
      headers: { authorization: `Bearer ${appToken}`, "content-type": "application/json" },
      body: JSON.stringify({ user_id: m.userId, first_name: name }),
    });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`alter-user ${m.userId}: ${res.status} ${body.slice(0, 300)}`);
    const t1 = performance.now();
    for (;;) {
      const [rows] = await shop.pool.query("SELECT firstname FROM customer_entity WHERE entity_id = ?", [m.customerId]);
      const t2 = performance.now();
      if ((rows as Array<{ firstname: string | null }>)[0]?.firstname === name) return { total: t2 - t0, afterCommit: t2 - t1 };
      if (t2 - t0 > 10_000) throw new Error(`platform -> webshop: customer ${m.customerId} did not get first name ${name} within 10 s`);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  };
}

function rate(n: number, seconds: number): number {
  return Math.round(n / seconds);
}

function phase(label: string, customers: number, reconcileSeconds: number, directSeconds: number, calls: string, cpu: SendPhase["cpu"]): SendPhase {
  const reconcileRate = customers / reconcileSeconds;
  const directRate = customers / directSeconds;
  return { label, customers, reconcileSeconds, reconcileRate, directSeconds, directRate, ratio: reconcileRate / directRate, calls, cpu };
}

/** The CPU of `spent` (one or more measured stretches) in ms per customer of `customers`. */
function perCustomer(spent: CpuSpent[], customers: number): CpuPerCustomer {
  const ms = (seconds: number) => (seconds * 1000) / customers;
  const database = spent.some((c) => c.database === null) ? null : ms(spent.reduce((n, c) => n + c.database!, 0));
  return {
    bench: ms(spent.reduce((n, c) => n + c.bench, 0)),
    core: ms(spent.reduce((n, c) => n + (c.services.get("core-api") ?? 0), 0)),
    database,
  };
}

/** "bench / core / database" ms of a CpuPerCustomer. */
function cpuText(c: CpuPerCustomer): string {
  return `${c.bench.toFixed(2)} / ${c.core.toFixed(2)} / ${c.database === null ? "-" : c.database.toFixed(2)}`;
}

/** The user info of synthetic customer `key` (the same shape the reconcile sends). */
function syntheticInfo(key: string, i: number, firstName: string) {
  return {
    first_name: `${firstName}${i}`, last_name: "Bench", birthday: "1990-01-01", username: `${key}@bench.example`,
    webshop_customer_id: 900_000_000 + i, gender: "female" as const, printed_mailing_list_subscribed: false,
    mailing_list_subscribed: false, mailing_list_sub_offered: false, programme_opted_in: false,
    address_streetname: "Benchstraat", address_housenumber: String(i % 500 + 1), address_housenumber_extension: null,
    address_postalcode: "1012 AB", address_towncity: "Amsterdam", country_code: "NL", phone_number: phone(i),
  };
}

function phone(i: number): string {
  return `+316${String(10_000_000 + (i % 89_999_999)).padStart(8, "0")}`;
}

/** Inserts `count` customers (ids after `offset`) with an address each, as Magento registers them. */
async function insertCustomers(shop: ConnectorDatabase, offset: number, count: number, at: Date): Promise<void> {
  const chunk = 2_000;
  for (let from = 0; from < count; from += chunk) {
    const n = Math.min(chunk, count - from);
    const customers: unknown[][] = [];
    const addresses: unknown[][] = [];
    for (let k = 0; k < n; k++) {
      const i = offset + from + k + 1;
      customers.push([i, 1, `customer${i}@bench.example`, 1, 1, "Default Store View", `First${i}`, "Bench", "1990-01-01", 2, at, at]);
      addresses.push([i, i, "Amsterdam", "NL", `First${i}`, "Bench", "1012 AB", `Benchstraat\n${i % 500 + 1}`, phone(i), at, at]);
    }
    await shop.pool.query(
      "INSERT INTO customer_entity (entity_id, website_id, email, group_id, store_id, created_in, firstname, lastname, dob, gender, created_at, updated_at) VALUES ?",
      [customers],
    );
    await shop.pool.query(
      "INSERT INTO customer_address_entity (entity_id, parent_id, city, country_id, firstname, lastname, postcode, street, telephone, created_at, updated_at) VALUES ?",
      [addresses],
    );
  }
  await shop.pool.query(
    "UPDATE customer_entity SET default_billing = entity_id, default_shipping = entity_id, updated_at = updated_at WHERE entity_id > ?",
    [offset],
  );
}

/** Gives every customer a service_customer_data row whose last_hash is its current user info hash. */
async function markSynced(shop: ConnectorDatabase, chainId: number): Promise<void> {
  let afterId = 0;
  for (;;) {
    const page = await loadCustomerPage(shop.db, [1], afterId, 2_000);
    if (page.length === 0) break;
    afterId = page[page.length - 1]!.customer.entityId;
    const rows = await Promise.all(page.map(async (b) => [
      b.customer.entityId, chainId, b.customer.entityId, await userInfoHash(userInfoObject(b)), new Date(),
    ]));
    await shop.pool.query("INSERT INTO service_customer_data (customer_id, service_chain_id, user_id, last_hash, updated_at) VALUES ?", [rows]);
  }
}

/** Runs `work(0..count-1)` with at most `limit` at a time. */
async function inPool(count: number, limit: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: limit }, async () => {
    while (next < count) await work(next++);
  }));
}

/** A service started by startProcess: its process, the URL it listens on, and the last of what it wrote. */
interface StartedProcess {
  script: string;
  child: ChildProcess;
  url: string;
  /** its stdout and stderr, the last OUTPUT_KEPT characters */
  output: () => string;
}

/** How much of a service's output startProcess keeps, in characters. */
const OUTPUT_KEPT = 16_384;

/**
 * Starts `script` (core-api/src/main.node.ts or connector/src/main.ts) in a process of its own
 * with LOG_LEVEL=warn, the benchmark's SERVICE_SECRET_KEY and `env`.
 * @param listening matches its "listening on <url>" line; its first group is the URL
 * @returns the child, its URL and its output
 * @throws Error with the child's output when it exits first
 */
async function startProcess(script: string, listening: RegExp, env: Record<string, string>): Promise<StartedProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: "warn", SERVICE_SECRET_KEY: SECRET_KEY, NO_COLOR: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-OUTPUT_KEPT);
      const m = listening.exec(output);
      if (m) resolve(m[1]!);
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`${script} exited with ${code}:\n${output}`)));
  });
  return { script, child, url, output: () => output };
}

/** Whether the platform -> webshop latency rows meet their target (p99 below 1 s in each). */
function latencyMet(r: SyncBenchResult): boolean {
  return r.latency.length > 0 && r.latency.every((row) => row.timing.p99 < TARGET_WEBSHOP_P99_MS);
}

/** The markdown section of bench/RESULTS.md. */
export function syncBenchSection(r: SyncBenchResult): string {
  const passOk = r.unchangedMedianMs <= TARGET_UNCHANGED_PASS_MS;
  // each pass against the floor pass that followed it
  const floorRatios = r.unchangedFloorMs.map((floor, i) => floor / r.unchangedPassesMs[i]!);
  const ms = (x: number) => x.toFixed(1);
  const lines = [
    SECTION_TITLE,
    "",
    `Taken ${r.date.toISOString().slice(0, 16).replace("T", " ")} UTC with bench/sync-reconcile.ts: the core API and the connector each in a`,
    `process of its own (LOG_LEVEL=warn) on throwaway databases, wired both ways; the reconcile in the benchmark's process; all on this`,
    `machine and its database server; load average (1 min) ${r.loadAverage[0]} at start, ${r.loadAverage[1]} at the end, on ${os.cpus().length} cores.`,
    "",
    `| measurement | figure | target | met |`,
    `| --- | --- | --- | --- |`,
    `| webshop -> platform: pass over ${r.linked.toLocaleString("en")} linked customers, none changed (median of ${r.unchangedPassesMs.length}: ${r.unchangedPassesMs.map((x) => x.toFixed(0)).join(", ")} ms; the reconcile's CPU time in them ${r.unchangedCpuMs.map((x) => x.toFixed(0)).join(", ")} ms) | ${r.unchangedMedianMs.toFixed(0)} ms | at most ${TARGET_UNCHANGED_PASS_MS} ms | ${passOk ? "yes" : "no"} |`,
    `| webshop -> platform: that pass's floor, the reconcile's own statements per page on one connection of a bare mysql2 pool, the next page read while one is hashed, a sha256 per customer, no snapshot (bench/floors/reconcile-scan.ts; after each pass; median of ${r.unchangedFloorMs.length}: ${r.unchangedFloorMs.map((x) => x.toFixed(0)).join(", ")} ms); then each pass against the floor pass after it, floor ms / pass ms (below 1: the pass is slower than its floor) | floor ${r.unchangedFloorMedianMs.toFixed(0)} ms; the passes' floor / pass ${floorRatios.map((x) => `${x.toFixed(2)}x`).join(", ")}, median ${median(floorRatios).toFixed(2)}x | - | - |`,
    ...r.phases.map((p) => `| webshop -> platform: ${p.label}: reconcile ${p.reconcileRate.toFixed(0)}/s (${p.reconcileSeconds.toFixed(1)} s), add-user directly ${p.directRate.toFixed(0)}/s (${p.directSeconds.toFixed(1)} s), ${r.concurrency} at a time; ${p.calls}; CPU ms per customer (this process / the core API / the database server): reconcile ${cpuText(p.cpu.reconcile)}, direct ${cpuText(p.cpu.direct)} | ratio ${p.ratio.toFixed(2)} | at least ${TARGET_SEND_RATIO} | ${p.ratio >= TARGET_SEND_RATIO ? "yes" : "no"} |`),
    ...r.latency.map((row) => `| platform -> webshop, ${row.label}: alter-user until the shop's customer row holds the change (${row.timing.runs} changes; max ${ms(row.timing.max)} ms; after alter-user's answer p50 ${ms(row.afterCommit.p50)} ms, p99 ${ms(row.afterCommit.p99)} ms) | p50 ${ms(row.timing.p50)} ms, p99 ${ms(row.timing.p99)} ms | p99 below ${TARGET_WEBSHOP_P99_MS} ms | ${row.timing.p99 < TARGET_WEBSHOP_P99_MS ? "yes" : "no"} |`),
    "",
    "An account edit of a customer already linked to a member is one call: add-user with if_unmodified_since (the",
    "member's last_modified_date recorded at the last sync), so the platform itself keeps a member changed since and",
    "answers with it (the newer change wins, race-safe); a second call only when both sides changed. The direct loop",
    "runs half before and half after the reconcile. Platform -> webshop goes through the core API's outbox (woken by",
    "the commit) to the connector's update. A load average above the core count means every process waited for a",
    "CPU: the reconcile's own CPU time shows what the unchanged pass costs it. The CPU ms per customer of a send row",
    "add up to what one customer costs the machine (the database server's also counts its other clients).",
    "",
  ];
  return lines.join("\n");
}

/** Writes the section into bench/RESULTS.md, replacing an earlier one. */
export async function writeSyncBenchSection(r: SyncBenchResult, path = RESULTS_PATH): Promise<void> {
  const current = await readFile(path, "utf8").catch(() => "# Benchmark results\n");
  // the section's earlier title, before it measured both directions
  const start = [SECTION_TITLE, "## Sync: webshop -> platform reconcile"].map((t) => current.indexOf(t)).find((i) => i >= 0) ?? -1;
  let before = current;
  let after = "";
  if (start >= 0) {
    before = current.slice(0, start);
    const next = current.indexOf("\n## ", start + 4);
    after = next >= 0 ? current.slice(next + 1) : "";
  }
  await writeFile(path, `${before.trimEnd()}\n\n${syncBenchSection(r)}${after ? `\n${after}` : ""}`);
}

/** `npm run bench` section "sync": the same measurement; run.ts writes its block. */
export const syncReconcileSection: BenchSection = {
  name: "sync",
  summary: "sync: a reconcile pass over 100,000 unchanged customers, 10,000 changed ones against add-user directly, platform -> webshop p50 / p99 (--runs per row)",
  flags: ["--linked <n>           linked customers of the sync section's unchanged pass (default 100000)",
    "--changed <n>          customers the sync section sends (default 10000)"],
  async run(ctx) {
    const quick = ctx.settings.quick;
    const r = await benchSyncReconcile({
      databaseUrl: ctx.settings.databaseUrl,
      linked: numberOption(ctx.flags, "linked", null, quick ? 5_000 : 100_000),
      changed: numberOption(ctx.flags, "changed", null, quick ? 500 : 10_000),
      latencyRuns: numberOption(ctx.flags, "runs", null, quick ? 20 : 200),
      latencyWarmup: numberOption(ctx.flags, "warmup", null, quick ? 2 : 20),
      log: (line) => console.log(line),
    });
    const body = syncBenchSection(r).split("\n").slice(1).join("\n");
    return {
      title: "Sync: webshop <-> platform",
      markdown: body,
      targets: [
        { label: `unchanged pass over ${r.linked.toLocaleString("en")} linked customers at most ${TARGET_UNCHANGED_PASS_MS} ms`, met: r.unchangedMedianMs <= TARGET_UNCHANGED_PASS_MS, detail: `${r.unchangedMedianMs.toFixed(0)} ms` },
        ...r.phases.map((p) => ({ label: `${p.label}: reconcile / add-user directly at least ${TARGET_SEND_RATIO}`, met: p.ratio >= TARGET_SEND_RATIO, detail: `${p.ratio.toFixed(2)} (${p.reconcileRate.toFixed(0)}/s vs ${p.directRate.toFixed(0)}/s)` })),
        {
          label: `platform -> webshop change p99 below ${TARGET_WEBSHOP_P99_MS} ms on an idle machine`,
          met: latencyMet(r),
          detail: r.latency.map((row) => `${row.label}: p50 ${row.timing.p50.toFixed(1)} ms, p99 ${row.timing.p99.toFixed(1)} ms`).join("; "),
        },
      ],
    };
  },
};

/** Runs the benchmark and writes its section (this file run directly). */
export async function runSyncBench(databaseUrl: string, options: Omit<SyncBenchOptions, "databaseUrl"> = {}): Promise<SyncBenchResult> {
  console.log("\nsync benchmark");
  const result = await benchSyncReconcile({ databaseUrl, ...options });
  console.log(`\n${syncBenchSection(result)}`);
  await writeSyncBenchSection(result);
  console.log("written to bench/RESULTS.md");
  return result;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? Number(process.argv[i + 1]) : undefined;
  };
  runSyncBench(process.env.DATABASE_URL ?? "mysql://root@127.0.0.1:3306", { linked: arg("linked"), changed: arg("changed") })
    .then(() => process.exit(0), (err: Error) => {
      console.error(`sync bench failed: ${err.stack ?? err.message}`);
      process.exit(1);
    });
}
