/**
 * The latency section: at --count stores, p50 / p99 of a 25 km location search around Amsterdam
 * Centraal, a one-term prefix text search and both together, over HTTP against the core-api the
 * bench started, one request at a time; next to
 * - the full scan: the same searches as one plain SQL statement with every secondary index
 *   ignored (bench/baseline.ts);
 * - the anchor: a POINT column under a SPATIAL index and a FULLTEXT index on (name, owner_code),
 *   same data, same searches (bench/anchor.ts), against our own statements replayed on a direct
 *   connection: the factor between the two is ours "in the database";
 * - the statements each request sends (by-id read, the three searches, add-business).
 * Every page (the API's, the anchor's) is compared with the full scan's for identity.
 */
import { AMSTERDAM_CENTRAAL } from "../scripts/lib/towns.ts";
import { numberOption, stringOption } from "../scripts/lib/options.ts";
import { encodeParams, fetchJson, ServiceCallError, type Params } from "../scripts/lib/http-client.ts";
import { ensureAnchor, explainAnchor, runAnchor } from "./anchor.ts";
import { explainBaseline, runBaseline } from "./baseline.ts";
import { benchCases, pageOf, requestFor, type Endpoint, type Page, type SearchCase } from "./cases.ts";
import { comparePages, timeSequential, type Timing } from "./measure.ts";
import { addBusinessRequest, byIdRequest, sampleIds, searchRequest, writesChain } from "./product-requests.ts";
import { latencyMarkdown, printLatencyTable, TARGET_P50_MS, TARGET_RATIO, type CaseResult, type StatementsRow } from "./report.ts";
import { barePool, captureRequests, type CapturedRequestSpec, type RequestStatements } from "./request-statements.ts";
import type { BenchChain, BenchContext, BenchSection, TargetCheck } from "./section.ts";
import { replay, shortSql } from "./sql-capture.ts";

const ENDPOINTS: Endpoint[] = ["resources", "get-businesses"];
/** Target: the prefix search in at most 4 statements, p50 at most 5 ms over HTTP at 1M stores. */
export const PREFIX_STATEMENTS_TARGET = 4;
export const PREFIX_P50_TARGET_MS = 5;
/** Target: ours at least 10x faster than the anchor in the database. */
export const ANCHOR_FACTOR_TARGET = 10;

/** The latency settings (flags; smaller defaults with --quick). */
export interface LatencyOptions {
  runs: number;
  warmup: number;
  baselineRuns: number;
  dbRuns: number;
  limit: number;
  prefix: string;
  radiusKm: number;
}

/** Reads the latency flags of `ctx`. */
export function latencyOptions(ctx: BenchContext): LatencyOptions {
  const q = ctx.settings.quick;
  return {
    runs: numberOption(ctx.flags, "runs", null, q ? 30 : 200),
    warmup: numberOption(ctx.flags, "warmup", null, q ? 5 : 20),
    baselineRuns: numberOption(ctx.flags, "baseline-runs", null, q ? 2 : 10),
    dbRuns: numberOption(ctx.flags, "db-runs", null, q ? 10 : 50),
    limit: numberOption(ctx.flags, "limit", null, 25),
    prefix: stringOption(ctx.flags, "prefix", null, "bak")!,
    radiusKm: numberOption(ctx.flags, "radius", null, 25),
  };
}

/** The three searches of the run (location, text, both). */
export function runCases(ctx: BenchContext): SearchCase[] {
  const o = latencyOptions(ctx);
  return benchCases(AMSTERDAM_CENTRAAL, o.radiusKm, o.prefix, o.limit);
}

/**
 * `GET baseUrl+path?params` with `headers`, timed (client-side round trip, body read and parsed).
 * @throws ServiceCallError when the answer is not a success
 */
async function timedGet(baseUrl: string, path: string, params: Params, headers: Record<string, string>): Promise<{ results: any; ms: number }> {
  const url = `${baseUrl}${path}?${encodeParams(params)}`;
  const { status, body, ms } = await fetchJson(url, { headers });
  if (status !== 200 || body?.result?.code !== 1) throw new ServiceCallError("GET", url, status, body);
  return { results: body.results, ms };
}

/** HTTP latency of every search and endpoint at one store count. */
export interface HttpLatency {
  chain: BenchChain;
  cases: SearchCase[];
  /** per case, per endpoint: the timing and the first page */
  rows: Array<Array<{ endpoint: Endpoint; timing: Timing; first: Page }>>;
}

/**
 * Measures the searches over HTTP at `count` stores, one request at a time (once per run and
 * count: the scaling section reuses it).
 */
export function measureHttpLatency(ctx: BenchContext, count: number): Promise<HttpLatency> {
  return ctx.memo(`http-latency-${count}`, async () => {
    const o = latencyOptions(ctx);
    const chain = await ctx.benchChain(count);
    const core = await ctx.core();
    const cases = runCases(ctx);
    console.log(`\n${count.toLocaleString("en-US")} stores: over HTTP against ${core.url} (${o.warmup} warm-up + ${o.runs} requests per row, one at a time)`);
    const rows: HttpLatency["rows"] = [];
    for (const search of cases) {
      const perEndpoint = [];
      for (const endpoint of ENDPOINTS) {
        const { path, params } = requestFor(search, endpoint, chain.chainId);
        const get = () => timedGet(core.url, path, params, chain.headers);
        const first = pageOf(endpoint, (await get()).results);
        const timing = await timeSequential(async () => (await get()).ms, o.warmup, o.runs);
        console.log(`  ${search.label.padEnd(48)} ${endpoint.padEnd(15)} p50 ${timing.p50.toFixed(1)} ms  p99 ${timing.p99.toFixed(1)} ms`);
        perEndpoint.push({ endpoint, timing, first });
      }
      rows.push(perEndpoint);
    }
    return { chain, cases, rows };
  });
}

/**
 * The statements of the product's requests at the big data set (once per run: the throughput
 * section replays the searches' statements as its floors).
 * @param options.writes also add-business's (default true), which writes into the writes chain;
 *   without, only the reads are captured and nothing is written
 */
export function productStatements(ctx: BenchContext, options: { writes?: boolean } = {}): Promise<RequestStatements[]> {
  const withWrites = options.writes ?? true;
  return ctx.memo(withWrites ? "product-statements" : "product-statements-reads", async () => {
    const chain = await ctx.benchChain(ctx.settings.count);
    const [id] = await sampleIds(ctx.db, chain.chainId, 1);
    const tag = `cap${Date.now().toString(36)}`;
    const spec = (key: string, label: string, r: ReturnType<typeof byIdRequest>): CapturedRequestSpec =>
      ({ key, label, method: r.method, path: r.path, headers: r.headers });
    const specs: CapturedRequestSpec[] = [
      spec("by-id", "GET /resources/business/{id}", byIdRequest(chain, id!)),
      ...runCases(ctx).map((c) => spec(c.key, `GET /resources/businesses, ${c.label}`, searchRequest(chain, c))),
    ];
    if (withWrites) {
      const writes = await writesChain(ctx);
      const add = (n: number) => addBusinessRequest(writes, tag, n);
      specs.push({ ...spec("add-business", "POST /internal/add-business", add(1)), body: JSON.parse(add(1).body!), secondBody: JSON.parse(add(2).body!) });
    }
    return captureRequests(ctx.settings, ctx.secrets.serviceSecretKey, specs);
  });
}

/** The latency section (see the module comment); registered in run.ts. */
export const latencySection: BenchSection = {
  name: "latency",
  summary: "p50 / p99 of location, prefix and combined search over HTTP at --count stores, next to a full scan and a SPATIAL + FULLTEXT anchor; statements per request",
  flags: [
    "--runs <n>             timed requests per search and endpoint (default 200; --quick 30)",
    "--warmup <n>           untimed requests first (default 20; --quick 5)",
    "--baseline-runs <n>    full-scan runs per search (default 10; --quick 2)",
    "--db-runs <n>          in-database runs of ours and of the anchor per search (default 50; --quick 10)",
    "--limit <n>            page size (default 25)",
    "--prefix <text>        text search prefix (default bak)",
    "--radius <km>          location radius (default 25)",
  ],
  async run(ctx) {
    const o = latencyOptions(ctx);
    const count = ctx.settings.count;
    // API rows first: the full scans at the end push the indexes out of a small buffer pool.
    const http = await measureHttpLatency(ctx, count);
    const chainId = http.chain.chainId;
    const statements = await productStatements(ctx);

    console.log(`\nanchor: ${count.toLocaleString("en-US")} stores copied with a POINT column (SPATIAL index) and a FULLTEXT index on (name, owner_code)`);
    const anchorBuild = await ensureAnchor(ctx.db, chainId, count);
    console.log(anchorBuild.reused ? "  anchor table reused" : `  anchor table built in ${anchorBuild.seconds.toFixed(1)} s`);
    const pool = barePool(ctx.settings, 4);
    const inDb: Array<{ ours: Timing; anchor: Timing; anchorPage: Page; anchorExplain: string[] }> = [];
    try {
      for (const search of http.cases) {
        const ours = statements.find((s) => s.key === search.key)!.business;
        const oursTiming = await timeSequential(async () => {
          const t = performance.now();
          await replay(pool, ours);
          return performance.now() - t;
        }, 3, o.dbRuns);
        const { page: anchorPage } = await runAnchor(ctx.db, search, chainId);
        const anchor = await timeSequential(async () => (await runAnchor(ctx.db, search, chainId)).ms, 3, o.dbRuns);
        console.log(`  ${search.label.padEnd(48)} ours in the database p50 ${oursTiming.p50.toFixed(2)} ms, anchor p50 ${anchor.p50.toFixed(2)} ms: ${(anchor.p50 / oursTiming.p50).toFixed(1)}x`);
        inDb.push({ ours: oursTiming, anchor, anchorPage, anchorExplain: await explainAnchor(ctx.db, search, chainId) });
      }
    } finally {
      await pool.end();
    }

    console.log(`\nfull-scan baseline on a direct database connection (1 warm-up + ${o.baselineRuns} runs per search)`);
    const cases: CaseResult[] = [];
    for (const [i, search] of http.cases.entries()) {
      const { page } = await runBaseline(ctx.db, search, chainId);
      const baseline = await timeSequential(async () => (await runBaseline(ctx.db, search, chainId)).ms, 0, o.baselineRuns);
      const total = page.total ?? 0;
      console.log(`  ${search.label.padEnd(48)} full scan       p50 ${baseline.p50.toFixed(0)} ms  p99 ${baseline.p99.toFixed(0)} ms  (${total} matches)`);
      const d = inDb[i]!;
      cases.push({
        search,
        total,
        baseline,
        baselineExplain: await explainBaseline(ctx.db, search, chainId),
        api: http.rows[i]!.map((m) => ({ endpoint: m.endpoint, timing: m.timing, problems: comparePages(m.first, page) })),
        inDatabase: { ours: d.ours, anchor: d.anchor, anchorProblems: comparePages(d.anchorPage, page), anchorExplain: d.anchorExplain },
      });
    }

    const statementRows: StatementsRow[] = statements.map((s) => ({
      label: s.label,
      all: s.all.length,
      business: s.business.length,
      list: s.all.map((x) => shortSql(x)),
    }));
    const prefix = statements.find((s) => s.key === "text")!;
    const prefixHttp = cases.find((c) => c.search.key === "text")!.api.find((a) => a.endpoint === "resources")!;
    const targets: TargetCheck[] = [
      ...cases.map((c) => ({
        label: `${c.search.label}: p50 <= ${TARGET_P50_MS} ms, >= ${TARGET_RATIO}x the full scan, identical (both endpoints)`,
        met: c.api.every((r) => r.timing.p50 <= TARGET_P50_MS && c.baseline.p50 / r.timing.p50 >= TARGET_RATIO && r.problems.length === 0),
        detail: c.api.map((r) => `${r.endpoint} p50 ${r.timing.p50.toFixed(1)} ms, ${(c.baseline.p50 / r.timing.p50).toFixed(0)}x${r.problems.length ? ", NOT identical" : ""}`).join("; "),
      })),
      ...cases.map((c) => ({
        label: `${c.search.label}: ours >= ${ANCHOR_FACTOR_TARGET}x faster than the SPATIAL / FULLTEXT anchor in the database, anchor identical`,
        met: c.inDatabase!.anchor.p50 / c.inDatabase!.ours.p50 >= ANCHOR_FACTOR_TARGET && c.inDatabase!.anchorProblems.length === 0,
        detail: `${(c.inDatabase!.anchor.p50 / c.inDatabase!.ours.p50).toFixed(1)}x (anchor ${c.inDatabase!.anchor.p50.toFixed(2)} ms, ours ${c.inDatabase!.ours.p50.toFixed(2)} ms)${c.inDatabase!.anchorProblems.length ? ", anchor NOT identical" : ""}`,
      })),
      {
        label: `prefix search "${o.prefix}" in at most ${PREFIX_STATEMENTS_TARGET} statements (besides authentication)`,
        met: prefix.business.length <= PREFIX_STATEMENTS_TARGET,
        detail: `${prefix.business.length} search statements, ${prefix.all.length} in the request`,
      },
      {
        label: `prefix search "${o.prefix}" p50 <= ${PREFIX_P50_TARGET_MS} ms over HTTP${count === 1_000_000 ? "" : " (the target is for 1,000,000 stores)"}`,
        met: prefixHttp.timing.p50 <= PREFIX_P50_TARGET_MS,
        detail: `${prefixHttp.timing.p50.toFixed(1)} ms at ${count.toLocaleString("en-US")} stores`,
      },
    ];
    const report = { chain: http.chain, options: o, cases, statements: statementRows, anchorBuild, coreUrl: (await ctx.core()).url };
    console.log("");
    printLatencyTable(report);
    return { title: "Latency", markdown: latencyMarkdown(report), targets };
  },
};
