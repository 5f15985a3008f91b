/**
 * The reconcile's performance (issue 10, "Performance"), with a real core API in a process of its
 * own over HTTP, on throwaway databases of DATABASE_URL (dropped afterwards):
 * - a pass over `linked` (100,000) linked customers of which none changed (target at most 2 s):
 *   the keyset pages, the user info of each and its hash against last_hash;
 * - `changed` (10,000) customers sent to the platform, as new registrations (add-user creating
 *   members) and then as account edits (get-user for "newer change wins", then add-user updating
 *   them): the rate, next to add-user called directly in a loop with the same concurrency on as
 *   many other users (target ratio at least 0.8).
 * `npm run bench` runs it as its section "sync" (bench/run.ts: `--only sync`); `tsx
 * bench/sync-reconcile.ts` runs it alone and (re)writes its section of bench/RESULTS.md.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";
import { eq } from "drizzle-orm";
import { openSecretBox } from "@service/shared/secret-box";
import { userInfoHash } from "@service/shared/user-info-hash";
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
import { DEFAULT_CONCURRENCY, runReconcile } from "../connector/src/sync/reconcile.ts";
import { numberOption } from "../scripts/lib/options.ts";
import type { BenchSection } from "./section.ts";

/** The targets of the issue. */
export const TARGET_UNCHANGED_PASS_MS = 2_000;
export const TARGET_SEND_RATIO = 0.8;

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const RESULTS_PATH = fileURLToPath(new URL("./RESULTS.md", import.meta.url));
const SECTION_TITLE = "## Sync: webshop -> platform reconcile";
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
}

export interface SyncBenchResult {
  date: Date;
  linked: number;
  concurrency: number;
  /** each unchanged pass, ms */
  unchangedPassesMs: number[];
  /** the connector process's CPU time (user + system) in each, ms */
  unchangedCpuMs: number[];
  unchangedMedianMs: number;
  phases: SendPhase[];
  loadAverage: [number, number];
}

/** Runs the benchmark (module comment). */
export async function benchSyncReconcile(options: SyncBenchOptions): Promise<SyncBenchResult> {
  const log = options.log ?? console.log;
  const linked = options.linked ?? 100_000;
  const changed = options.changed ?? 10_000;
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const passes = options.passes ?? 3;
  const loadStart = Math.round(os.loadavg()[0]! * 100) / 100;
  const suffix = Math.random().toString(16).slice(2, 8);
  const coreDbName = `bench_sync_core_${suffix}`;
  const shopDbName = `bench_sync_shop_${suffix}`;
  let core: ChildProcess | undefined;
  let shop: ConnectorDatabase | undefined;
  try {
    // The platform: a chain with its webshop app, a member-number range, the identity-source client's token.
    await migrateCoreDatabase(options.databaseUrl, coreDbName);
    const coreDb = openCoreDatabase(options.databaseUrl, coreDbName, { connectionLimit: 2 });
    let chainId: number;
    let accessToken: string;
    try {
      const now = new Date();
      chainId = await createChain(coreDb.db, "Bench Sync Chain");
      const appId = await createAppHostname(coreDb.db, chainId, HOSTNAME);
      await coreDb.db.update(apps).set({ kind: "webshop" }).where(eq(apps.id, appId));
      await coreDb.db.insert(memberNumberRanges).values({ chainId, kind: "generated", first: 10_000_000n, last: 19_999_999n, nextNumber: 10_000_000n });
      const client = await seedClient(coreDb.db, chainId, now, { name: "Webshop connector", isIdentitySource: true });
      const token = await seedToken(coreDb.db, chainId, client.id, now);
      accessToken = `${token.row.id}:${token.secret}`;
    } finally {
      await coreDb.close();
    }
    const started = await startCoreProcess(options.databaseUrl, coreDbName);
    core = started.child;
    log(`core API on ${started.url} (its own process, LOG_LEVEL=warn), database ${coreDbName}`);

    await migrateConnectorDatabase(options.databaseUrl, shopDbName);
    shop = openConnectorDatabase(options.databaseUrl, shopDbName);
    await seedConnector(shop.db, { chainId });
    const box = await openSecretBox(SECRET_KEY);
    const link = { coreApiUrl: started.url, accessToken, appHostname: HOSTNAME };
    await linkPlatform(shop.db, box, { chainId, ...link });

    // 1. The unchanged pass.
    log(`loading ${linked} linked customers (synced: last_hash equal to their user info hash)`);
    await insertCustomers(shop, 0, linked, new Date("2024-01-01T00:00:00Z"));
    await markSynced(shop, chainId);
    const unchangedPassesMs: number[] = [];
    const unchangedCpuMs: number[] = [];
    for (let i = 0; i <= passes; i++) {
      const cpu = process.cpuUsage();
      const t = performance.now();
      const report = await runReconcile({ db: shop.db, box }, {});
      const ms = performance.now() - t;
      const used = process.cpuUsage(cpu);
      const cpuMs = (used.user + used.system) / 1000;
      const chain = report.chains[0]!;
      if (chain.scanned !== linked || chain.due !== 0) throw new Error(`unchanged pass: ${JSON.stringify(chain)}`);
      if (i > 0) {
        // the first warms the buffer pool
        unchangedPassesMs.push(ms);
        unchangedCpuMs.push(cpuMs);
      }
      log(`  unchanged pass ${i === 0 ? "(warm-up)" : i}: ${ms.toFixed(0)} ms for ${linked} customers (connector CPU ${cpuMs.toFixed(0)} ms)`);
    }
    await shop.pool.query("TRUNCATE customer_entity");
    await shop.pool.query("TRUNCATE customer_address_entity");
    await shop.pool.query("TRUNCATE service_customer_data");

    // 2. Sending: the direct loop first, then the reconcile, each on `changed` users of its own.
    const client = platformClient(link);
    const phases: SendPhase[] = [];
    const direct = async (firstName: string) => {
      const t = performance.now();
      await inPool(changed, concurrency, async (i) => {
        await client.addUser(addUserParamsOf(syntheticInfo(`direct${i}`, i, firstName), null));
      });
      return (performance.now() - t) / 1000;
    };

    log(`\n${changed} new registrations: add-user directly (${concurrency} at a time), then the reconcile`);
    const directNew = await direct("Direct");
    await insertCustomers(shop, linked, changed, new Date(Date.now() + 1000));
    let t = performance.now();
    let report = await runReconcile({ db: shop.db, box }, { concurrency });
    const reconcileNew = (performance.now() - t) / 1000;
    if (report.chains[0]!.sent !== changed) throw new Error(`new registrations: ${JSON.stringify(report.chains[0])} ${JSON.stringify(report.failures.slice(0, 3))}`);
    phases.push(phase(`${changed} new registrations (add-user creates the member)`, changed, reconcileNew, directNew, "reconcile: add-user; direct: add-user"));
    log(`  direct ${rate(changed, directNew)}/s, reconcile ${rate(changed, reconcileNew)}/s`);

    log(`\n${changed} account edits: add-user updating directly, then the reconcile (get-user + add-user each)`);
    const directEdit = await direct("DirectEdited");
    await shop.pool.query("UPDATE customer_entity SET firstname = CONCAT('Edited', entity_id), updated_at = UTC_TIMESTAMP() + INTERVAL 1 MINUTE");
    t = performance.now();
    report = await runReconcile({ db: shop.db, box }, { concurrency });
    const reconcileEdit = (performance.now() - t) / 1000;
    if (report.chains[0]!.sent !== changed) throw new Error(`edits: ${JSON.stringify(report.chains[0])} ${JSON.stringify(report.failures.slice(0, 3))}`);
    phases.push(phase(`${changed} account edits (members exist)`, changed, reconcileEdit, directEdit, "reconcile: get-user + add-user (newer change wins); direct: add-user"));
    log(`  direct ${rate(changed, directEdit)}/s, reconcile ${rate(changed, reconcileEdit)}/s`);

    const sorted = [...unchangedPassesMs].sort((a, b) => a - b);
    return {
      date: new Date(),
      linked,
      concurrency,
      unchangedPassesMs,
      unchangedCpuMs,
      unchangedMedianMs: sorted[Math.floor(sorted.length / 2)]!,
      phases,
      loadAverage: [loadStart, Math.round(os.loadavg()[0]! * 100) / 100],
    };
  } finally {
    core?.kill("SIGTERM");
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

function rate(n: number, seconds: number): number {
  return Math.round(n / seconds);
}

function phase(label: string, customers: number, reconcileSeconds: number, directSeconds: number, calls: string): SendPhase {
  const reconcileRate = customers / reconcileSeconds;
  const directRate = customers / directSeconds;
  return { label, customers, reconcileSeconds, reconcileRate, directSeconds, directRate, ratio: reconcileRate / directRate, calls };
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

/** Starts core-api/src/main.node.ts in a process of its own on port 0; resolves with its URL. */
async function startCoreProcess(databaseUrl: string, dbName: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "core-api/src/main.node.ts"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, CORE_DB_NAME: dbName, CORE_API_PORT: "0", LOG_LEVEL: "warn", SERVICE_SECRET_KEY: SECRET_KEY, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(output);
      if (m) resolve(m[1]!);
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`core-api exited with ${code}:\n${output}`)));
  });
  return { child, url };
}

/** The markdown section of bench/RESULTS.md. */
export function syncBenchSection(r: SyncBenchResult): string {
  const passOk = r.unchangedMedianMs <= TARGET_UNCHANGED_PASS_MS;
  const lines = [
    SECTION_TITLE,
    "",
    `Taken ${r.date.toISOString().slice(0, 16).replace("T", " ")} UTC with bench/sync-reconcile.ts: the core API in a process of its own`,
    `(LOG_LEVEL=warn) on a throwaway database, the connector's reconcile in the benchmark's process, both on this`,
    `machine and its database server; load average (1 min) ${r.loadAverage[0]} at start, ${r.loadAverage[1]} at the end, on ${os.cpus().length} cores.`,
    "",
    `| measurement | figure | target | met |`,
    `| --- | --- | --- | --- |`,
    `| pass over ${r.linked.toLocaleString("en")} linked customers, none changed (median of ${r.unchangedPassesMs.length}: ${r.unchangedPassesMs.map((ms) => ms.toFixed(0)).join(", ")} ms; the connector's CPU time in them ${r.unchangedCpuMs.map((ms) => ms.toFixed(0)).join(", ")} ms) | ${r.unchangedMedianMs.toFixed(0)} ms | at most ${TARGET_UNCHANGED_PASS_MS} ms | ${passOk ? "yes" : "no"} |`,
    ...r.phases.map((p) => `| ${p.label}: reconcile ${p.reconcileRate.toFixed(0)}/s (${p.reconcileSeconds.toFixed(1)} s), add-user directly ${p.directRate.toFixed(0)}/s (${p.directSeconds.toFixed(1)} s), ${r.concurrency} at a time; ${p.calls} | ratio ${p.ratio.toFixed(2)} | at least ${TARGET_SEND_RATIO} | ${p.ratio >= TARGET_SEND_RATIO ? "yes" : "no"} |`),
    "",
    "An account edit of a customer already linked to a member costs two calls: get-user first, so that a platform",
    "change newer than the shop's is taken into the shop rather than overwritten (the newer change wins). add-user",
    "has no \"only if unchanged since\" condition that would let one call do both, so that row's ratio stays near",
    "add-user's share of the two calls' time. A load average above the core count means every process waited for",
    "a CPU: the connector's own CPU time shows what the unchanged pass costs it.",
    "",
  ];
  return lines.join("\n");
}

/** Writes the section into bench/RESULTS.md, replacing an earlier one. */
export async function writeSyncBenchSection(r: SyncBenchResult, path = RESULTS_PATH): Promise<void> {
  const current = await readFile(path, "utf8").catch(() => "# Benchmark results\n");
  const start = current.indexOf(SECTION_TITLE);
  let before = current;
  let after = "";
  if (start >= 0) {
    before = current.slice(0, start);
    const next = current.indexOf("\n## ", start + SECTION_TITLE.length);
    after = next >= 0 ? current.slice(next + 1) : "";
  }
  await writeFile(path, `${before.trimEnd()}\n\n${syncBenchSection(r)}${after ? `\n${after}` : ""}`);
}

/** `npm run bench` section "sync": the same measurement; run.ts writes its block. */
export const syncReconcileSection: BenchSection = {
  name: "sync",
  summary: "webshop -> platform reconcile: a pass over 100,000 unchanged customers, 10,000 changed ones against add-user directly",
  flags: ["--linked <n>           linked customers of the sync section's unchanged pass (default 100000)",
    "--changed <n>          customers the sync section sends (default 10000)"],
  async run(ctx) {
    const quick = ctx.settings.quick;
    const r = await benchSyncReconcile({
      databaseUrl: ctx.settings.databaseUrl,
      linked: numberOption(ctx.flags, "linked", null, quick ? 5_000 : 100_000),
      changed: numberOption(ctx.flags, "changed", null, quick ? 500 : 10_000),
      log: (line) => console.log(line),
    });
    const body = syncBenchSection(r).split("\n").slice(1).join("\n");
    return {
      title: "Sync: webshop -> platform reconcile",
      markdown: body,
      targets: [
        { label: `unchanged pass over ${r.linked.toLocaleString("en")} linked customers at most ${TARGET_UNCHANGED_PASS_MS} ms`, met: r.unchangedMedianMs <= TARGET_UNCHANGED_PASS_MS, detail: `${r.unchangedMedianMs.toFixed(0)} ms` },
        ...r.phases.map((p) => ({ label: `${p.label}: reconcile / add-user directly at least ${TARGET_SEND_RATIO}`, met: p.ratio >= TARGET_SEND_RATIO, detail: `${p.ratio.toFixed(2)} (${p.reconcileRate.toFixed(0)}/s vs ${p.directRate.toFixed(0)}/s)` })),
      ],
    };
  },
};

/** Runs the benchmark and writes its section (this file run directly). */
export async function runSyncBench(databaseUrl: string, options: Omit<SyncBenchOptions, "databaseUrl"> = {}): Promise<SyncBenchResult> {
  console.log("\nsync reconcile benchmark");
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
