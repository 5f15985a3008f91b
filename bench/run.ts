/**
 * `npm run bench`: 1,000,000 stores in one chain, then p50 / p99 of a 25 km location search
 * around Amsterdam Centraal, a one-term prefix text search, and both together, measured over
 * HTTP against the RUNNING core-api, next to the same searches as a plain full-scan SQL query.
 * Prints a table and writes bench/RESULTS.md.
 *
 * The stores go straight into the core database (DATABASE_URL, CORE_DB_NAME) of the running
 * core-api, into a chain of their own ("Bench Chain") with a bench admin; the load is done once
 * and reused while the chain holds the wanted number of stores (`--reload` forces it).
 *
 * Flags: --count (1000000), --runs (200), --warmup (20), --baseline-runs (10), --limit (25),
 * --prefix (bak), --radius (25), --reload, --core-api-url (CORE_API_URL, default
 * http://127.0.0.1:8080), --database-url (DATABASE_URL), --db-name (CORE_DB_NAME).
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import { sql } from "drizzle-orm";
import { openCoreDatabase, type CoreDb } from "../core-api/src/db/client.ts";
import { exitOnHelp } from "../scripts/lib/command-line.ts";
import { CoreApiClient, ServiceCallError } from "../scripts/lib/http-client.ts";
import { booleanOption, numberOption, parseFlags, serviceUrls, stringOption } from "../scripts/lib/options.ts";
import { AMSTERDAM_CENTRAAL, loadTowns } from "../scripts/lib/towns.ts";
import { runBaseline, explainBaseline } from "./baseline.ts";
import { benchCases, pageOf, requestFor, type Endpoint, type Page } from "./cases.ts";
import { BENCH_COUNTRIES } from "./dataset.ts";
import { countStores, ensureBenchAdmin, ensureChain, loadStores, wipeStores } from "./load.ts";
import { describeMachine } from "./machine.ts";
import { comparePages, timeSequential, type Timing } from "./measure.ts";
import { printTable, writeResults, type CaseResult } from "./report.ts";
import { runSyncBench } from "./sync-reconcile.ts";

const RESULTS_PATH = new URL("./RESULTS.md", import.meta.url);
const CACHE_DIR = new URL("./.cache/", import.meta.url);
const CACHE_PATH = new URL("./.cache/load.json", import.meta.url);
const ENDPOINTS: Endpoint[] = ["resources", "get-businesses"];

const USAGE = `Usage: npm run bench [-- options]

Loads --count stores into a chain of their own in the core database of the RUNNING core-api (once;
reused while the count holds), then measures p50 / p99 of location, prefix and combined searches
over HTTP next to a full-scan SQL baseline. Prints a table and writes bench/RESULTS.md.

Options (environment in brackets):
  --count <n>            stores to load (default 1000000)
  --runs <n>             timed requests per case (default 200)
  --warmup <n>           untimed requests first (default 20)
  --baseline-runs <n>    full-scan SQL runs per case (default 10)
  --limit <n>            page size (default 25)
  --prefix <text>        text search prefix (default bak)
  --radius <km>          location radius (default 25)
  --reload               load the stores again
  --core-api-url <url>   core API (CORE_API_URL, default http://127.0.0.1:8080)
  --database-url <url>   its database server (DATABASE_URL)
  --db-name <name>       its database (CORE_DB_NAME, default service_core)
  -h, --help             print this text and exit; nothing is loaded or measured`;

type LoadRecord = { seconds: number; stores: number; date: string };

async function readLoadRecords(): Promise<Record<string, LoadRecord>> {
  return readFile(CACHE_PATH, "utf8").then((t) => JSON.parse(t) as Record<string, LoadRecord>, () => ({}));
}

/** Makes sure the bench chain holds `count` stores; returns a sentence about the load for the report. */
async function prepareStores(db: CoreDb, dbName: string, chainName: string, count: number, reload: boolean) {
  const { chainId } = await ensureChain(db, chainName);
  const existing = await countStores(db, chainId);
  const records = await readLoadRecords();
  const cacheKey = `${dbName}/${chainName}/${chainId}`;
  if (!reload && existing === count) {
    const r = records[cacheKey];
    console.log(`chain "${chainName}" (id ${chainId}) already holds ${count} stores: load skipped (--reload forces it)`);
    const how = r ? `loaded in ${r.seconds.toFixed(0)} s (${Math.round(r.stores / r.seconds)} stores/s) on ${r.date.slice(0, 10)}` : "loaded earlier";
    return { chainId, load: `${how}; reused by this run` };
  }
  if (existing > 0) {
    console.log(`chain "${chainName}" (id ${chainId}) holds ${existing} stores, want ${count}: wiping them`);
    await wipeStores(db, chainId);
  }
  console.log(`loading ${count} stores into chain "${chainName}" (id ${chainId}) through insertBusinesses`);
  const seconds = await loadStores(db, chainId, count);
  console.log(`loaded ${count} stores in ${seconds.toFixed(1)} s (${Math.round(count / seconds)} stores/s); analysing tables`);
  await db.execute(sql`ANALYZE TABLE businesses, business_search_tokens`);
  records[cacheKey] = { seconds, stores: count, date: new Date().toISOString() };
  await mkdir(CACHE_DIR, { recursive: true });
  await writeFile(CACHE_PATH, JSON.stringify(records, null, 2));
  return { chainId, load: `${seconds.toFixed(0)} s (${Math.round(count / seconds)} stores/s), measured by this run` };
}

async function main(): Promise<void> {
  exitOnHelp(USAGE);
  const flags = parseFlags();
  const databaseUrl = stringOption(flags, "database-url", "DATABASE_URL", "mysql://root@127.0.0.1:3306")!;
  const dbName = stringOption(flags, "db-name", "CORE_DB_NAME", "service_core")!;
  const { coreApiUrl } = serviceUrls(flags);
  const count = numberOption(flags, "count", null, 1_000_000);
  const runs = numberOption(flags, "runs", null, 200);
  const warmup = numberOption(flags, "warmup", null, 20);
  const baselineRuns = numberOption(flags, "baseline-runs", null, 10);
  const limit = numberOption(flags, "limit", null, 25);
  const radiusKm = numberOption(flags, "radius", null, 25);
  const prefix = stringOption(flags, "prefix", null, "bak")!;
  const chainName = count === 1_000_000 ? "Bench Chain" : `Bench Chain ${count}`;

  // Bulk loads of up to a million stores: no statement timeout.
  const database = openCoreDatabase(databaseUrl, dbName, { connectionLimit: 2, timeouts: { queryTimeoutMs: 0 } });
  try {
    const db = database.db;
    const [chains] = (await db.execute(sql`SELECT COUNT(*) AS n FROM chains`).catch((err: Error) => {
      const reason = (err.cause as Error | undefined)?.message ?? err.message;
      throw new Error(`cannot read database ${dbName} at ${databaseUrl.replace(/:[^:@/]*@/, ":***@")}: ${reason}`);
    })) as unknown as [Array<{ n: number }>];
    // On an empty database npm start seeds the demo chain as id 1; the bench must not take that id.
    if (Number(chains[0]?.n ?? 0) === 0) {
      throw new Error(`database ${dbName} has no chain yet: start the services first (npm start seeds the demo chain)`);
    }
    const { chainId, load } = await prepareStores(db, dbName, chainName, count, booleanOption(flags, "reload"));

    const admin = await ensureBenchAdmin(db, chainId);
    const core = new CoreApiClient(coreApiUrl);
    await core.login(admin.username, admin.password, chainId).catch((err: unknown) => {
      if (err instanceof ServiceCallError && err.status === 401) {
        throw new Error(`the core API at ${coreApiUrl} does not know the bench admin: does it serve database ${dbName}?`);
      }
      throw err;
    });
    const machine = await describeMachine(db);
    console.log(`\nmeasuring over HTTP against ${coreApiUrl} (${warmup} warm-up + ${runs} requests per row, one at a time)`);

    const cases = benchCases(AMSTERDAM_CENTRAAL, radiusKm, prefix, limit);
    // All API rows first: the full scans afterwards push the indexes out of the buffer pool.
    const measured: Array<Array<{ endpoint: Endpoint; timing: Timing; first: Page }>> = [];
    for (const search of cases) {
      const perEndpoint = [];
      for (const endpoint of ENDPOINTS) {
        const { path, params } = requestFor(search, endpoint, chainId);
        const first = pageOf(endpoint, (await core.timedGet(path, params)).results);
        const timing = await timeSequential(async () => (await core.timedGet(path, params)).ms, warmup, runs);
        console.log(`  ${search.label.padEnd(48)} ${endpoint.padEnd(15)} p50 ${timing.p50.toFixed(1)} ms  p99 ${timing.p99.toFixed(1)} ms`);
        perEndpoint.push({ endpoint, timing, first });
      }
      measured.push(perEndpoint);
    }
    console.log(`\nfull-scan baseline on a direct database connection (1 warm-up + ${baselineRuns} runs per search)`);
    const results: CaseResult[] = [];
    for (const [i, search] of cases.entries()) {
      const { page } = await runBaseline(db, search, chainId);
      const baseline = await timeSequential(async () => (await runBaseline(db, search, chainId)).ms, 0, baselineRuns);
      const total = page.total ?? 0;
      console.log(`  ${search.label.padEnd(48)} full scan       p50 ${baseline.p50.toFixed(0)} ms  p99 ${baseline.p99.toFixed(0)} ms  (${total} matches)`);
      results.push({
        search,
        total,
        baseline,
        baselineExplain: await explainBaseline(db, search, chainId),
        api: measured[i]!.map((m) => ({ endpoint: m.endpoint, timing: m.timing, problems: comparePages(m.first, page) })),
      });
    }

    const report = {
      date: new Date(),
      machine,
      dataset: {
        stores: count,
        chainName,
        chainId,
        database: dbName,
        towns: loadTowns(BENCH_COUNTRIES).length,
        countries: BENCH_COUNTRIES.join(", "),
        load,
      },
      settings: { warmup, runs, baselineWarmup: 1, baselineRuns, coreApiUrl },
      cases: results,
      loadAverageEnd: Math.round(os.loadavg()[0]! * 100) / 100,
    };
    console.log("");
    printTable(report);
    await writeResults(RESULTS_PATH.pathname, report);
    console.log(`\nwritten to bench/RESULTS.md`);
    await runSyncBench(databaseUrl);
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(`bench failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
