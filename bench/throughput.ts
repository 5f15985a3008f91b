/**
 * The throughput section: the running services under load next to floors the bench
 * starts itself in the same run, in interleaved rounds, as ratios.
 *
 * Product targets, against core-api and the connector started by the bench (`npm start
 * --service ...`, WEB_CONCURRENCY = the core count, the services' default), driven over HTTP by
 * autocannon:
 * - `GET /resources/business/{id}` as the bench admin, ids from a fixed sample, 32 connections; also
 *   from a core-api started with COMPILED_SELECTS=off (the check and the reads as drizzle's prepared
 *   queries) and from one started with CHECK_COALESCING=off (every request its own check): the rows
 *   with and without those speed devices (docs/performance.md);
 * - add-business (`POST /internal/add-business`, JSON, a new store each), 32 in flight, with group
 *   commit (the default: concurrent calls share a transaction), from a second core-api started
 *   with GROUP_COMMIT=off (a transaction per call) and from a third started with ROWS_AS_WRITTEN=off
 *   (the rows read back instead of answered as written);
 * - location search (25 km, page of 25) and prefix search ("bak") on the big data set, 32 connections;
 *   the location search also from a core-api started with SEARCH_SHAPES=off (its hot statements
 *   rendered on every run): the row with and without rendering once per shape;
 * - connector authenticate (bench customers, the current Magento argon2id hash), 8 concurrent;
 * - get-basket-price for a member with 5 claimed vouchers and a 20-line basket, and add-basket
 *   redeeming 2 vouchers per sale (bench/basket-bench.ts), 32 connections; add-basket also from
 *   the core-api started with GROUP_COMMIT=off (a transaction per sale).
 * Floors:
 * - Hono hello-world and Hono + a mysql2 primary-key select, on @hono/node-server, in a process
 *   of their own (bench/floor-server.ts), 32 connections;
 * - a bare mysql2 pool in this process: the same primary-key select; one-row INSERT into a table
 *   like businesses; each search's own statements, captured from the product and replayed
 *   (32 in flight);
 * - native argon2id verifications (@node-rs/argon2, the Magento hash's parameters), 8 concurrent;
 * - a bare transaction inserting one row and updating two (add-basket's floor), 32 in flight.
 * WEB_CONCURRENCY: the by-id read and authenticate also run against services started with 1 and
 * 2 workers: the 2-worker / 1-worker ratio.
 * Memory: the RSS of every process of the started services is read before the load (cold),
 * after the warm-up (warm idle: every request path has run once), sampled every 250 ms during
 * the warm-up and the rounds (peak) and read again after a pause (after); "returns to idle" is
 * judged against the warm idle reading.
 *
 * Every round runs every target once, in the same order, so a change in the machine's load
 * touches products and floors alike; the round's 1-minute load average is recorded.
 */
import os from "node:os";
import { DEFAULT_CONNECTION_LIMIT } from "@service/shared/node";
import { hash as argonHash, verify as argonVerify } from "@node-rs/argon2";
import { numberOption } from "../scripts/lib/options.ts";
import { productStatements, runCases } from "./latency.ts";
import { closedLoop, httpLoad, type LoadResult } from "./load-drivers.ts";
import { median } from "./measure.ts";
import { measureCpu, QUIET_CORE_SHARE, QUIET_MAX_MS, QUIET_STEP_MS, waitForQuiet, type CpuSpent } from "./process-cpu.ts";
import { MemorySampler, type ProcessMemory } from "./process-memory.ts";
import { basketPriceRequest, basketSaleRequest, prepareBasketBench } from "./basket-bench.ts";
import { bareSaleTransaction, prepareBasketFloor } from "./floors/bare-sale-transaction.ts";
import { addBusinessRequest, addBusinessRow, byIdRequest, sampleIds, searchRequest, writesChain, type ProductRequest } from "./product-requests.ts";
import { markdownTable, textTable } from "./report.ts";
import { barePool } from "./request-statements.ts";
import type { BenchChain, BenchSection, ServiceHandle, TargetCheck } from "./section.ts";
import { BENCH_REQUEST_DEADLINE_MS, TYPESCRIPT_LOADER } from "./services.ts";
import { replay } from "./sql-capture.ts";
import { wipeStores } from "./load.ts";
import { BENCH_CUSTOMER_PASSWORD, benchClientAddress, benchCustomerEmail, ensureBenchCustomers } from "./webshop-customers.ts";

/** The load: 32 connections (authenticate: 8 concurrent). */
export const CONNECTIONS = 32;
export const AUTH_CONCURRENCY = 8;
/** Target: RSS per worker under load. */
export const RSS_LIMIT_BYTES = 300 * 2 ** 20;
/**
 * What a process may keep above its warm idle RSS after the load even when its rise was small: the
 * ordinary wobble of a Node process's RSS (when the collector last ran, allocator arenas).
 */
const RSS_WOBBLE_BYTES = 8 * 2 ** 20;
const FLOOR_TABLE = "bench_floor_businesses";
/** The floor server's row of the memory table: the same loader and libraries, no product code (a reference, not a target). */
const FLOOR_MEMORY_LABEL = "floor server (reference)";
const BENCH_CUSTOMERS = 32;
/** The Magento hash's argon2id parameters (3_32_2_67108864): 64 MiB, 2 passes, one lane, 32 bytes. */
const MAGENTO_ARGON = { algorithm: 2, version: 1, memoryCost: 65536, timeCost: 2, parallelism: 1, outputLen: 32 } as const;

interface Target {
  key: string;
  label: string;
  kind: "floor" | "product";
  /** how it is driven, for the table */
  how: string;
  /** the process serving it (its tree), for the CPU table; absent: it runs in this process */
  pid?: number;
  run(seconds: number): Promise<LoadResult>;
}

interface Ratio {
  label: string;
  product: string;
  floor: string;
  /** the required minimum, if the target sets one */
  min?: number;
}

const mib = (b: number | null) => (b === null ? "-" : `${(b / 2 ** 20).toFixed(0)}`);
const fmtRate = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
/** A ratio for a table: "0.42x", or "-" when it could not be measured (nothing completed). */
const fmtRatio = (x: number) => (Number.isFinite(x) ? `${x.toFixed(2)}x` : "-");
const loadAverage = () => Math.round(os.loadavg()[0]! * 100) / 100;

/** The floor server's pool (bench/floor-server.ts: a pool of 10 connections, as a service's worker). */
const FLOOR_SERVER_CONNECTIONS = 10;
/** The bench process's own pools while the rounds run: the context's database (4) and the bare pool (10). */
const BENCH_OWN_CONNECTIONS = 14;
/** Connections left for everything else on the server (a client, another test run). */
const SPARE_CONNECTIONS = 10;

/**
 * Refuses to measure when the database server may not accept the connections this run's
 * processes can open: every worker of every started service a full pool (DEFAULT_CONNECTION_LIMIT),
 * the floor server's and the bench's own. Past max_connections the services' statements fail with
 * "Too many connections" in the middle of a round, and the figures would count those failures.
 * @param pool a pool of the bench on the server
 * @param services the started services (one handle may appear under several keys; each counted once)
 * @throws Error naming what the run needs and how to allow it, when max_connections is lower
 */
async function requireConnections(pool: { query(sql: string): Promise<unknown> }, services: ServiceHandle[], floorServer: number): Promise<void> {
  const started = [...new Map(services.filter((svc) => svc.pid).map((svc) => [svc.pid, svc])).values()];
  const workers = started.reduce((n, svc) => n + (svc.workers ?? os.availableParallelism()), 0);
  const needed = workers * DEFAULT_CONNECTION_LIMIT + floorServer + BENCH_OWN_CONNECTIONS + SPARE_CONNECTIONS;
  const [[row]] = (await pool.query("SELECT @@max_connections AS allowed")) as [[{ allowed: number }]];
  if (Number(row.allowed) >= needed) return;
  throw new Error(
    `this run starts ${started.length} service${started.length === 1 ? "" : "s"} with ${workers} worker process${workers === 1 ? "" : "es"} in all; with a pool of ${DEFAULT_CONNECTION_LIMIT} each, ` +
      `the floor server's and the bench's own they may open ${needed} connections, and the database server allows ${row.allowed} ` +
      `(max_connections): allow more (SET GLOBAL max_connections = ${needed}) or measure fewer targets (--targets)`,
  );
}

/** An HTTP target: `next(n)` gives the n-th request. */
function httpTarget(key: string, label: string, kind: Target["kind"], server: { url: string; pid: number }, connections: number, next: (n: number) => ProductRequest | { method: "GET"; path: string }): Target {
  const url = server.url;
  let n = 0;
  return {
    key,
    label,
    kind,
    pid: server.pid,
    how: `autocannon, ${connections} connections`,
    run: (seconds) => httpLoad(url, connections, seconds, () => next(n++)),
  };
}

/** Sends `r` once and checks the answer (before any load: a target that fails is not measured). */
async function probe(baseUrl: string, r: ProductRequest | { method: "GET"; path: string }, check?: (body: any) => boolean): Promise<void> {
  const res = await fetch(`${baseUrl}${r.path}`, { method: r.method, headers: "headers" in r ? r.headers : {}, body: "body" in r ? r.body : undefined });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  if (res.status !== 200 || (check && !check(body))) throw new Error(`probe ${r.method} ${baseUrl}${r.path} answered ${res.status}: ${text.slice(0, 300)}`);
}

/**
 * The target keys `--targets` names (a comma-separated list), or null when it is not given (all targets).
 * @throws Error when the flag is given without keys
 */
function chosenTargets(flag: string | boolean | undefined): Set<string> | null {
  if (flag === undefined) return null;
  const keys = (flag === true ? "" : String(flag)).split(",").map((k) => k.trim()).filter(Boolean);
  if (keys.length === 0) throw new Error("--targets needs target keys, e.g. --targets by-id,hono-pk");
  return new Set(keys);
}

/** The throughput section (see the module comment); registered in run.ts. */
export const throughputSection: BenchSection = {
  name: "throughput",
  summary: "requests/s of the running services next to floors started in the same run, interleaved rounds, ratios, WEB_CONCURRENCY 2/1, RSS per worker",
  flags: [
    "--settle <s>           pause after the rounds before reading memory again (default 10; --quick 3)",
    "--targets <a,b>        measure only these targets, by key (default: all): hello, hono-pk, mysql2-pk, by-id,",
    "                       by-id-drizzle (COMPILED_SELECTS=off), by-id-uncoalesced (CHECK_COALESCING=off),",
    "                       by-id-w1, by-id-w2,",
    "                       mysql2-insert, add-business, add-business-solo (GROUP_COMMIT=off),",
    "                       add-business-readback (ROWS_AS_WRITTEN=off),",
    "                       mysql2-location, location, location-unshaped (SEARCH_SHAPES=off), mysql2-prefix, prefix,",
    "                       argon2, authenticate, authenticate-w1,",
    "                       authenticate-w2, get-basket-price, add-basket, add-basket-solo (GROUP_COMMIT=off),",
    "                       mysql2-sale-tx; what no chosen target needs",
    "                       is not started or written (without the add-business targets, mysql2-insert and the",
    "                       basket targets nothing is written)",
  ],
  async run(ctx) {
    const s = ctx.settings;
    const seconds = s.durationSeconds;
    const warmSeconds = Math.min(2, seconds);
    const settleSeconds = numberOption(ctx.flags, "settle", null, s.quick ? 3 : 10);
    const cores = os.availableParallelism();
    const only = chosenTargets(ctx.flags.get("targets"));
    const want = (...keys: string[]) => only === null || keys.some((k) => only.has(k));
    const writing = want("add-business", "add-business-solo", "add-business-readback", "mysql2-insert");
    const chain = await ctx.benchChain(s.count);
    // Unused (never read) when no write target is measured: nothing is written then.
    const writes = writing ? await writesChain(ctx) : (undefined as unknown as BenchChain);
    const statements = want("mysql2-location", "mysql2-prefix") ? await productStatements(ctx, { writes: writing }) : [];
    const cases = runCases(ctx);
    const locationCase = cases.find((c) => c.key === "location")!;
    const textCase = cases.find((c) => c.key === "text")!;
    const replayed = (key: string) => statements.find((x) => x.key === key)!.all;

    // A service no chosen target needs is not started: its targets are left out below.
    const services: Record<string, ServiceHandle> = {};
    const startIf = async (keys: string[], make: () => Promise<ServiceHandle>, service: ServiceHandle["service"]) =>
      want(...keys) ? make() : { service, workers: 0, url: "http://not-started", pid: 0, logPath: "" };
    services.core = await startIf(["by-id", "add-business", "location", "prefix", "get-basket-price", "add-basket", ...(cores === 2 ? ["by-id-w2"] : [])], () => ctx.core(cores), "core-api");
    services.coreSolo = await startIf(["add-business-solo", "add-basket-solo"], () => ctx.core(cores, { name: "group-commit-off", env: { GROUP_COMMIT: "off" } }), "core-api");
    services.coreReadBack = await startIf(["add-business-readback"], () => ctx.core(cores, { name: "rows-as-written-off", env: { ROWS_AS_WRITTEN: "off" } }), "core-api");
    services.coreDrizzle = await startIf(["by-id-drizzle"], () => ctx.core(cores, { name: "compiled-selects-off", env: { COMPILED_SELECTS: "off" } }), "core-api");
    services.coreUncoalesced = await startIf(["by-id-uncoalesced"], () => ctx.core(cores, { name: "check-coalescing-off", env: { CHECK_COALESCING: "off" } }), "core-api");
    services.coreUnshaped = await startIf(["location-unshaped"], () => ctx.core(cores, { name: "search-shapes-off", env: { SEARCH_SHAPES: "off" } }), "core-api");
    services.core1 = await startIf(["by-id-w1"], () => ctx.core(1), "core-api");
    services.core2 = cores === 2 ? services.core : await startIf(["by-id-w2"], () => ctx.core(2), "core-api");
    services.connector = await startIf(["authenticate", ...(cores === 2 ? ["authenticate-w2"] : [])], () => ctx.connector(cores), "connector");
    services.connector1 = await startIf(["authenticate-w1"], () => ctx.connector(1), "connector");
    services.connector2 = cores === 2 ? services.connector : await startIf(["authenticate-w2"], () => ctx.connector(2), "connector");
    const floor = want("hello", "hono-pk")
      ? await ctx.startProcess("floor-server", "bench/floor-server.ts", { DATABASE_URL: s.databaseUrl, FLOOR_DB_NAME: s.coreDb }, "/hello")
      : { url: "http://not-started", pid: 0, logPath: "" };
    if (floor.pid) console.log(`started the floor server at ${floor.url} (pid ${floor.pid})`);

    const authenticating = want("authenticate", "authenticate-w1", "authenticate-w2");
    // The customers' website serves the read chain unless it serves a chain already (webshop-customers.ts).
    const customers = authenticating ? await ensureBenchCustomers(s, BENCH_CUSTOMERS, chain.chainId) : { hash: "", chainId: chain.chainId };
    const storedHash = customers.hash;
    const nativeHash = await argonHash(BENCH_CUSTOMER_PASSWORD, MAGENTO_ARGON as never);
    const ids = await sampleIds(ctx.db, chain.chainId, 1000);
    const runStarted = Date.now();
    const runTag = runStarted.toString(36);

    const pool = barePool(s, 10);
    await requireConnections(pool, Object.values(services), floor.pid ? FLOOR_SERVER_CONNECTIONS : 0);
    if (writing) {
      await pool.query(`DROP TABLE IF EXISTS ${FLOOR_TABLE}`);
      await pool.query(`CREATE TABLE ${FLOOR_TABLE} LIKE businesses`);
    }

    const authRequest = (n: number): ProductRequest => ({
      method: "POST",
      path: "/rest/V1/service/customer/authenticate",
      // each customer from an address of its own (webshop-customers.ts): the product's per-address limit is not tripped
      headers: { authorization: `Bearer ${ctx.secrets.integrationToken}`, "content-type": "application/json", "x-forwarded-for": benchClientAddress(runStarted, n % BENCH_CUSTOMERS) },
      body: JSON.stringify({ email: benchCustomerEmail(n % BENCH_CUSTOMERS), password: BENCH_CUSTOMER_PASSWORD, service_chain_id: customers.chainId }),
    });
    const idOf = (n: number) => ids[n % ids.length]!;
    const byId = (svc: ServiceHandle, key: string, label: string) => httpTarget(key, label, "product", svc, CONNECTIONS, (n) => byIdRequest(chain, idOf(n)));
    const auth = (svc: ServiceHandle, key: string, label: string) => httpTarget(key, label, "product", svc, AUTH_CONCURRENCY, (n) => authRequest(n));
    const bare = (key: string, label: string, concurrency: number, op: (n: number) => Promise<unknown>): Target => ({
      key, label, kind: "floor", how: `this process, ${concurrency} in flight`,
      run: async (secs) => {
        const r = await closedLoop(concurrency, secs, op);
        if (r.firstError) console.log(`  ! ${key}: ${r.failed} failures, first: ${r.firstError}`);
        return r;
      },
    });
    // The basket targets: seeded only when one is measured; enough voucher pairs for every sale the run may send.
    // add-basket-solo sells the second half of the pairs (a sale's vouchers are redeemed once).
    const salesPerTarget = Math.max(2000, Math.ceil(seconds * (s.rounds + 1) * 1500));
    const baskets = want("get-basket-price", "add-basket", "add-basket-solo") ? await prepareBasketBench(ctx, 2 * salesPerTarget) : null;
    if (want("mysql2-sale-tx")) await prepareBasketFloor(pool);
    let inserted = 0;
    const insertSql = `INSERT INTO ${FLOOR_TABLE} (chain_id, name, owner_code, towncity, country_code, latitude, longitude) VALUES (?, ?, ?, ?, ?, ?, ?)`;
    const workersNote = (n: number) => `WEB_CONCURRENCY=${n}`;

    const allTargets: Target[] = [
      httpTarget("hello", "Hono hello-world (@hono/node-server)", "floor", floor, CONNECTIONS, () => ({ method: "GET", path: "/hello" })),
      httpTarget("hono-pk", "Hono + mysql2 primary-key select", "floor", floor, CONNECTIONS, (n) => ({ method: "GET", path: `/business/${idOf(n)}` })),
      bare("mysql2-pk", "bare mysql2 pool: primary-key select", CONNECTIONS, (n) => pool.execute("SELECT * FROM businesses WHERE id = ?", [idOf(n)])),
      byId(services.core, "by-id", `GET /resources/business/{id} (${workersNote(cores)})`),
      byId(services.coreDrizzle, "by-id-drizzle", `GET /resources/business/{id}, COMPILED_SELECTS=off (${workersNote(cores)})`),
      byId(services.coreUncoalesced, "by-id-uncoalesced", `GET /resources/business/{id}, CHECK_COALESCING=off (${workersNote(cores)})`),
      byId(services.core1, "by-id-w1", `GET /resources/business/{id} (${workersNote(1)})`),
      ...(cores === 2 ? [] : [byId(services.core2, "by-id-w2", `GET /resources/business/{id} (${workersNote(2)})`)]),
      bare("mysql2-insert", "bare mysql2 pool: one-row INSERT into a table like businesses", CONNECTIONS, () => {
        const r = addBusinessRow(writes.chainId, runTag, ++inserted);
        return pool.execute(insertSql, [r.chainId, r.name, r.ownerCode, r.towncity, r.countryCode, r.latitude, r.longitude]);
      }),
      httpTarget("add-business", `add-business over HTTP (${workersNote(cores)})`, "product", services.core, CONNECTIONS, (n) => addBusinessRequest(writes, runTag, n)),
      httpTarget("add-business-solo", `add-business over HTTP, GROUP_COMMIT=off (${workersNote(cores)})`, "product", services.coreSolo, CONNECTIONS, (n) => addBusinessRequest(writes, `${runTag}s`, n)),
      httpTarget("add-business-readback", `add-business over HTTP, ROWS_AS_WRITTEN=off (${workersNote(cores)})`, "product", services.coreReadBack, CONNECTIONS, (n) => addBusinessRequest(writes, `${runTag}r`, n)),
      bare("mysql2-location", "bare mysql2 pool: the location search's own statements replayed", CONNECTIONS, () => replay(pool, replayed("location"))),
      httpTarget("location", `location search ${locationCase.location!.radiusKm} km (${workersNote(cores)})`, "product", services.core, CONNECTIONS, () => searchRequest(chain, locationCase)),
      httpTarget("location-unshaped", `location search ${locationCase.location!.radiusKm} km, SEARCH_SHAPES=off (${workersNote(cores)})`, "product", services.coreUnshaped, CONNECTIONS, () => searchRequest(chain, locationCase)),
      bare("mysql2-prefix", "bare mysql2 pool: the prefix search's own statements replayed", CONNECTIONS, () => replay(pool, replayed("text"))),
      httpTarget("prefix", `prefix search "${textCase.prefix}" (${workersNote(cores)})`, "product", services.core, CONNECTIONS, () => searchRequest(chain, textCase)),
      httpTarget("get-basket-price", `get-basket-price: 5 claimed vouchers, 20 lines (${workersNote(cores)})`, "product", services.core, CONNECTIONS, () => basketPriceRequest(baskets!)),
      httpTarget("add-basket", `add-basket redeeming 2 vouchers (${workersNote(cores)})`, "product", services.core, CONNECTIONS, (n) => basketSaleRequest(baskets!, 1 + (n % (salesPerTarget - 1)))),
      httpTarget("add-basket-solo", `add-basket redeeming 2 vouchers, GROUP_COMMIT=off (${workersNote(cores)})`, "product", services.coreSolo, CONNECTIONS, (n) => basketSaleRequest(baskets!, salesPerTarget + 1 + (n % (salesPerTarget - 1)))),
      bare("mysql2-sale-tx", "bare mysql2 pool: one transaction, 1 INSERT + 2 UPDATE on copies of baskets and vouchers", CONNECTIONS, (n) => bareSaleTransaction(pool, 1, n)),
      bare("argon2", "native argon2id verifications (@node-rs/argon2, 64 MiB, t=2, p=1)", AUTH_CONCURRENCY, () => argonVerify(nativeHash, BENCH_CUSTOMER_PASSWORD)),
      auth(services.connector, "authenticate", `connector authenticate (${workersNote(cores)})`),
      auth(services.connector1, "authenticate-w1", `connector authenticate (${workersNote(1)})`),
      ...(cores === 2 ? [] : [auth(services.connector2, "authenticate-w2", `connector authenticate (${workersNote(2)})`)]),
    ];
    const targets = allTargets.filter((t) => want(t.key));
    const unknownKeys = [...(only ?? [])].filter((k) => !allTargets.some((t) => t.key === k));
    if (unknownKeys.length) throw new Error(`--targets: no target ${unknownKeys.join(", ")}; targets: ${allTargets.map((t) => t.key).join(", ")}`);
    const w2 = (key: string) => (cores === 2 ? key : `${key}-w2`);
    const allRatios: Ratio[] = [
      { label: "by-id read / Hono + mysql2 primary-key select", product: "by-id", floor: "hono-pk", min: 0.5 },
      { label: "by-id: compiled selects on / off", product: "by-id", floor: "by-id-drizzle" },
      { label: "by-id: check coalescing on / off", product: "by-id", floor: "by-id-uncoalesced" },
      { label: "add-business / bare mysql2 INSERT (32 in flight)", product: "add-business", floor: "mysql2-insert", min: 0.25 },
      { label: "add-business with GROUP_COMMIT=off / bare mysql2 INSERT (32 in flight)", product: "add-business-solo", floor: "mysql2-insert" },
      { label: "add-business: group commit on / off", product: "add-business", floor: "add-business-solo" },
      { label: "add-business: rows answered as written / read back", product: "add-business", floor: "add-business-readback" },
      { label: "location search / its own SQL on a bare mysql2 pool", product: "location", floor: "mysql2-location", min: 0.8 },
      { label: "location search: statements rendered once per shape on / off", product: "location", floor: "location-unshaped" },
      { label: "prefix search / its own SQL on a bare mysql2 pool", product: "prefix", floor: "mysql2-prefix" },
      { label: "authenticate / native argon2id verifications (8 concurrent)", product: "authenticate", floor: "argon2", min: 0.9 },
      { label: "get-basket-price (5 vouchers, 20 lines) / by-id read", product: "get-basket-price", floor: "by-id", min: 0.5 },
      { label: "add-basket redeeming 2 vouchers / bare 1 INSERT + 2 UPDATE transaction", product: "add-basket", floor: "mysql2-sale-tx", min: 0.3 },
      { label: "add-basket with GROUP_COMMIT=off / bare 1 INSERT + 2 UPDATE transaction", product: "add-basket-solo", floor: "mysql2-sale-tx" },
      { label: "add-basket: group commit on / off", product: "add-basket", floor: "add-basket-solo" },
      { label: "Hono + mysql2 primary-key select / Hono hello-world", product: "hono-pk", floor: "hello" },
      { label: "core-api by-id read: 2 workers / 1 worker", product: w2("by-id"), floor: "by-id-w1" },
      { label: "connector authenticate: 2 workers / 1 worker", product: w2("authenticate"), floor: "authenticate-w1" },
    ];
    const ratios = allRatios.filter((q) => want(q.product) && want(q.floor));

    // Every target answers correctly before anything is measured.
    if (want("hello")) await probe(floor.url, { method: "GET", path: "/hello" });
    if (want("hono-pk")) await probe(floor.url, { method: "GET", path: `/business/${idOf(0)}` });
    for (const [key, svc] of [["by-id", services.core], ["by-id-drizzle", services.coreDrizzle], ["by-id-uncoalesced", services.coreUncoalesced], ["by-id-w1", services.core1], [w2("by-id"), services.core2]] as const) {
      if (want(key)) await probe(svc.url, byIdRequest(chain, idOf(0)));
    }
    if (want("add-business")) await probe(services.core.url, addBusinessRequest(writes, `${runTag}p`, 0));
    if (want("get-basket-price")) await probe(services.core.url, basketPriceRequest(baskets!), (b) => b?.results?.vouchers_applied?.length > 0);
    if (want("add-basket")) await probe(services.core.url, basketSaleRequest(baskets!, 0), (b) => b?.results?.pricing?.vouchers_applied?.length === 2);
    if (want("add-business-solo")) await probe(services.coreSolo.url, addBusinessRequest(writes, `${runTag}q`, 0));
    if (want("add-business-readback")) await probe(services.coreReadBack.url, addBusinessRequest(writes, `${runTag}t`, 0));
    if (want("add-basket-solo")) await probe(services.coreSolo.url, basketSaleRequest(baskets!, salesPerTarget), (b) => b?.results?.pricing?.vouchers_applied?.length === 2);
    if (want("location")) await probe(services.core.url, searchRequest(chain, locationCase), (b) => b?.results?.total_count > 0);
    if (want("location-unshaped")) await probe(services.coreUnshaped.url, searchRequest(chain, locationCase), (b) => b?.results?.total_count > 0);
    if (want("prefix")) await probe(services.core.url, searchRequest(chain, textCase), (b) => b?.results?.total_count > 0);
    for (const [key, svc] of [["authenticate", services.connector], ["authenticate-w1", services.connector1], [w2("authenticate"), services.connector2]] as const) {
      if (want(key)) await probe(svc.url, authRequest(0), (b) => b?.authenticated === true);
    }
    if (!(await argonVerify(nativeHash, BENCH_CUSTOMER_PASSWORD))) throw new Error("native argon2id does not verify its own hash");

    const serviceRoots = new Map<string, number>();
    const served = {
      "core-api": services.core, "core-api (GROUP_COMMIT=off)": services.coreSolo, "core-api (ROWS_AS_WRITTEN=off)": services.coreReadBack, "core-api (COMPILED_SELECTS=off)": services.coreDrizzle, "core-api (CHECK_COALESCING=off)": services.coreUncoalesced,
      "core-api (SEARCH_SHAPES=off)": services.coreUnshaped,
      "core-api (1 worker)": services.core1, connector: services.connector, "connector (1 worker)": services.connector1,
    };
    for (const [label, svc] of Object.entries(served)) {
      if (svc.pid) serviceRoots.set(`${label} pid ${svc.pid}`, svc.pid);
    }
    if (floor.pid) serviceRoots.set(`${FLOOR_MEMORY_LABEL} pid ${floor.pid}`, floor.pid);
    const memory = new MemorySampler(serviceRoots);
    memory.idle();

    console.log(`\nthroughput: ${targets.length} targets, ${s.rounds} interleaved rounds of ${seconds} s each, after a ${warmSeconds} s warm-up of each`);
    memory.start();
    for (const t of targets) await t.run(warmSeconds);
    memory.warm();
    const results = new Map<string, LoadResult[]>(targets.map((t) => [t.key, []]));
    const cpuSpent = new Map<string, Array<{ cpu: CpuSpent; operations: number }>>(targets.map((t) => [t.key, []]));
    const rounds: Array<{ start: number; end: number }> = [];
    // Before each target's round: the wait for the work the one before it left (waitForQuiet).
    const quietWaits: Array<{ key: string; waitedMs: number; quiet: boolean; databaseCounted: boolean }> = [];
    try {
      for (let round = 1; round <= s.rounds; round++) {
        const start = loadAverage();
        console.log(`round ${round} (load average ${start})`);
        for (const t of targets) {
          quietWaits.push({ key: t.key, ...(await waitForQuiet(s.databaseUrl, serviceRoots)) });
          const { result: r, cpu } = await measureCpu(s.databaseUrl, serviceRoots, () => t.run(seconds));
          results.get(t.key)!.push(r);
          cpuSpent.get(t.key)!.push({ cpu, operations: r.ok + r.failed });
          const waited = quietWaits.at(-1)!;
          console.log(`  ${t.label.padEnd(72)} ${fmtRate(r.perSecond).padStart(8)}/s  p50 ${r.p50Ms.toFixed(1)} ms${r.failed ? `  ${r.failed} FAILED` : ""}  (quiet after ${(waited.waitedMs / 1000).toFixed(1)} s${waited.quiet ? "" : ": NOT quiet"})`);
        }
        rounds.push({ start, end: loadAverage() });
      }
    } finally {
      memory.stop();
      if (writing) await pool.query(`DROP TABLE IF EXISTS ${FLOOR_TABLE}`).catch(() => undefined);
      await pool.end();
    }
    console.log(`waiting ${settleSeconds} s before reading memory again`);
    await new Promise((r) => setTimeout(r, settleSeconds * 1000));
    memory.after();
    if (writing) await wipeStores(ctx.db, writes.chainId);

    const ratioValues = ratios.map((q) => {
      const p = results.get(q.product)!;
      const f = results.get(q.floor)!;
      return { ...q, perRound: p.map((r, i) => (r.perSecond > 0 && f[i]!.perSecond > 0 ? r.perSecond / f[i]!.perSecond : NaN)) };
    });
    const failures = targets.filter((t) => results.get(t.key)!.some((r) => r.failed > 0));
    const allMemoryRows = [...memory.results()].flatMap(([service, procs]) => procs.map((p) => ({ service, ...p })));
    const memoryRows = allMemoryRows.filter((p) => !p.service.startsWith(FLOOR_MEMORY_LABEL));
    const memoryOk = (p: ProcessMemory) => p.peak !== null && p.peak < RSS_LIMIT_BYTES;
    const backTowardIdle = (p: ProcessMemory) =>
      p.warm !== null && p.peak !== null && p.after !== null && p.after - p.warm <= Math.max(Math.max(0, p.peak - p.warm) / 2, RSS_WOBBLE_BYTES);

    const targetChecks: TargetCheck[] = [
      ...ratioValues.filter((q) => q.min !== undefined).map((q) => ({
        label: `${q.label} >= ${q.min}x`,
        met: median(q.perRound) >= q.min! && !failures.some((t) => t.key === q.product),
        detail: `median ${fmtRatio(median(q.perRound))} (rounds ${q.perRound.map(fmtRatio).join(", ")})${failures.some((t) => t.key === q.product) ? "; the product target had failures" : ""}`,
      })),
      {
        label: "RSS of every service process below 300 MB under the throughput load",
        met: memoryRows.length > 0 && memoryRows.every(memoryOk),
        detail: memoryRows.length ? `highest peak ${mib(Math.max(...memoryRows.map((p) => p.peak ?? 0)))} MB` : "no /proc: not measured",
      },
      {
        label: `RSS returns toward its warm idle ${settleSeconds} s after the load (at most half the rise above it left, or ${RSS_WOBBLE_BYTES / 2 ** 20} MB)`,
        met: memoryRows.length > 0 && memoryRows.every(backTowardIdle),
        detail: memoryRows.map((p) => `${p.service.replace(/ pid \d+$/, "")} ${p.role}: ${mib(p.idle)} (cold) / ${mib(p.warm)} (warm) -> ${mib(p.peak)} -> ${mib(p.after)} MB`).join("; "),
      },
    ];
    const cell = (t: Target) => results.get(t.key)!;
    const perTargetHeader = ["target", "kind", "driven by", ...rounds.map((_, i) => `round ${i + 1} /s`), "median /s", "p50 ms (median)", "failed"];
    const perTargetRows = targets.map((t) => [
      t.label, t.kind, t.how, ...cell(t).map((r) => fmtRate(r.perSecond)), fmtRate(median(cell(t).map((r) => r.perSecond))),
      median(cell(t).map((r) => r.p50Ms)).toFixed(1), String(cell(t).reduce((n, r) => n + r.failed, 0)),
    ]);
    const ratioHeader = ["ratio", ...rounds.map((_, i) => `round ${i + 1}`), "median", "target", "met"];
    const ratioRows = ratioValues.map((q) => [
      q.label, ...q.perRound.map(fmtRatio), fmtRatio(median(q.perRound)),
      q.min !== undefined ? `>= ${q.min}x` : "-", q.min !== undefined ? (median(q.perRound) >= q.min ? "met" : "MISSED") : "-",
    ]);
    // CPU per operation (µs), the median over the rounds of each column (process-cpu.ts).
    const perOperation = (t: Target, pick: (c: CpuSpent) => number | null) =>
      median(cpuSpent.get(t.key)!.map(({ cpu, operations }) => {
        const v = pick(cpu);
        return v === null || operations === 0 ? NaN : (v / operations) * 1e6;
      }));
    const sum = (m: Map<string, number>, skip?: string) => [...m].reduce((n, [label, v]) => (label === skip ? n : n + v), 0);
    const us = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : "-");
    const cpuHeader = ["target", "database server µs", "serving process µs", "of which main threads µs", "other started processes µs", "bench process µs", "total µs", "2 cores / total, /s"];
    const cpuRows = targets.map((t) => {
      // the serving process's label in serviceRoots (none: the target runs in this process)
      const label = t.pid ? [...serviceRoots].find(([, pid]) => pid === t.pid)?.[0] : undefined;
      const database = perOperation(t, (c) => c.database);
      const own = perOperation(t, (c) => (label ? c.services.get(label) ?? 0 : 0));
      const onMain = perOperation(t, (c) => (label ? c.mainThreads.get(label) ?? 0 : 0));
      const others = perOperation(t, (c) => sum(c.services, label));
      const bench = perOperation(t, (c) => c.bench);
      const total = [database, own, others, bench].filter(Number.isFinite).reduce((a, b) => a + b, 0);
      return [t.label, us(database), t.pid ? us(own) : "- (in the bench process)", t.pid ? us(onMain) : "-", us(others), us(bench), us(total), total > 0 ? fmtRate((cores * 1e6) / total) : "-"];
    });
    console.log("");
    console.log(textTable(cpuHeader, cpuRows));
    const memoryHeader = ["service", "process", "cold MB", "warm idle MB", "peak under load MB", `${settleSeconds} s after MB`, "below 300 MB", "back toward warm idle"];
    const memoryTableRows = allMemoryRows.map((p) => {
      const reference = p.service.startsWith(FLOOR_MEMORY_LABEL);
      const verdict = (ok: boolean) => (reference ? "-" : ok ? "yes" : "NO");
      return [p.service, p.role, mib(p.idle), mib(p.warm), mib(p.peak), mib(p.after), verdict(memoryOk(p)), verdict(backTowardIdle(p))];
    });
    console.log("");
    console.log(textTable(ratioHeader, ratioRows));
    console.log("");
    console.log(textTable(memoryHeader, memoryTableRows, 2));

    const longest = quietWaits.reduce((a, b) => (b.waitedMs > a.waitedMs ? b : a), { key: "-", waitedMs: 0 });
    const unquiet = quietWaits.filter((w) => !w.quiet).length;
    const quietNote = `Each round of a target starts once the database server and the started services are quiet (together at most
${QUIET_CORE_SHARE * 100}% of one core over ${QUIET_STEP_MS} ms${quietWaits.some((w) => !w.databaseCounted) ? "; the database server was not found on this machine and is not counted" : ""}): autocannon stops at its time with requests still in flight, and what the services do for them
is then neither charged to the next target nor shares the machine with it. The longest wait was ${(longest.waitedMs / 1000).toFixed(1)} s (before ${longest.key})${unquiet ? `; ${unquiet} of ${quietWaits.length} rounds started without quiet after ${QUIET_MAX_MS / 1000} s` : ""}.`;
    const markdown = `Big data set: ${chain.count.toLocaleString("en-US")} stores ("${chain.name}"). ${s.rounds} interleaved rounds: every round runs every target
once for ${seconds} s, in the order below, after a ${warmSeconds} s warm-up of each target before the first round. ${quietNote} Autocannon
runs in the bench process (it shares the ${cores} cores with the services, the floors and the database, alike for
products and floors). Services: \`node ${TYPESCRIPT_LOADER.join(" ")} scripts/start.ts --service core-api|connector\` (the entry of \`npm start\`${TYPESCRIPT_LOADER.includes("tsx") ? "; this Node has no type stripping, so the tsx loader is in every process's RSS, which the production images' native type stripping does without" : ", run as the production images run it"}) as child processes on the bench
databases (\`${s.coreDb}\`, \`${s.webshopDb}\`), LOG_LEVEL=${s.serviceLogLevel}, WEB_CONCURRENCY=${cores} (the core count) unless the
target says otherwise. by-id reads rotate over ${ids.length} stores of the big chain as the bench admin (session headers);
add-business creates a new store per request in the chain "${writing ? writes.name : "(not measured)"}" (emptied after the run), once with group commit (the
default: the calls that arrive while a transaction commits share the next one) and once from a second core-api started with
GROUP_COMMIT=off (a transaction, with its marker row, per call); add-basket, likewise, with group commit of sales and from the
GROUP_COMMIT=off core-api (its own vouchers and baskets: a transaction per sale); the by-id row marked COMPILED_SELECTS=off comes from a
core-api started with that switch (the check and the business reads as drizzle's prepared queries), to measure that speed
device against the plain by-id row, and the one marked CHECK_COALESCING=off from a core-api where every request runs its
own check (no sharing with the concurrent requests of the session); every started service runs with REQUEST_DEADLINE_MS=${BENCH_REQUEST_DEADLINE_MS} (autocannon's
time-out; the production default of 5 s would turn a request queued behind the load into a 503);
authenticate rotates over ${BENCH_CUSTOMERS} customers whose hash is the current Magento format
(\`${storedHash.split(":").at(-1)}\`), each from a client address of its own (X-Forwarded-For in 198.18.0.0/15; the connector trusts 127.0.0.1). Floors: bench/floor-server.ts in a process of its own (Hono on @hono/node-server, mysql2
prepared statement, pool of 10); the bare mysql2 pool (10 connections, the services' pool size per process)
and native argon2id run in the bench process. The replayed statements are the whole request's, authentication
included (latency section, "Statements per request"), sent as the product sent them (concurrent ones concurrently).

${markdownTable(perTargetHeader, perTargetRows)}

#### Ratios (product / floor, per round)

${markdownTable(ratioHeader, ratioRows)}

#### CPU per operation (where each target's time goes)

CPU time (user + system, from /proc) that the database server, the process serving the target (every process of
its tree), the other processes the bench started (idle services: their timers and pollers) and the bench process
itself (autocannon, or the in-process floor) spent while the target ran, divided by the operations it completed;
the median over the rounds. "Of which main threads" is the serving process's share spent on its processes' main
threads, where their JavaScript runs; the rest of it ran on other threads (libuv's pool, where authenticate's
argon2id hashes run, and V8's helpers). Everything shares the ${cores} cores, so "total" is what one operation costs the machine and
${cores} cores / total the rate the machine could reach if it did nothing else.

${markdownTable(cpuHeader, cpuRows)}

#### Load average (1 minute) per round

${markdownTable(["round", "at start", "at end"], rounds.map((r, i) => [String(i + 1), String(r.start), String(r.end)]))}

The bench itself loads the machine during a round; a load well above ${cores} at the start of a round means other
work shared the machine.

#### Memory (RSS per service process)

Read before the warm-up (cold: no request path has run yet), right after the warm-up (warm idle: every target has
run once, so the code, compiled functions and connections a serving process keeps are in), every 250 ms during the
warm-up and the rounds (peak), and ${settleSeconds} s after the last round (after). A process grows from cold to warm once
(a worker about 50 MB: lazily compiled code, JIT code, pools and prepared statements) and keeps that; "back toward
warm idle": at most half of the rise under load above the warm idle reading is left after the load, or at most
${RSS_WOBBLE_BYTES / 2 ** 20} MB (the ordinary wobble of a Node process's RSS) when the rise was small. The floor
server runs with the same loader and libraries and no product code: its row is a reference for what the runtime
alone takes.

${markdownTable(memoryHeader, memoryTableRows)}
${failures.length ? `\nTargets with failed requests: ${failures.map((t) => t.label).join("; ")} (see the process logs in bench/.cache/).\n` : ""}`;
    return { title: "Throughput", markdown, targets: targetChecks };
  },
};
