/**
 * The latency section's figures as a console table and as its Markdown block of
 * bench/RESULTS.md (bench/results-file.ts writes the file).
 */
import type { Endpoint, SearchCase } from "./cases.ts";
import type { LatencyOptions } from "./latency.ts";
import type { Timing } from "./measure.ts";
import type { BenchChain } from "./section.ts";

/** Targets of the search: p50 at most 20 ms, at least 20x faster than the full scan, same results. */
export const TARGET_P50_MS = 20;
export const TARGET_RATIO = 20;

/** One endpoint's timing of one search, and how its page differs from the full scan's. */
export interface EndpointResult {
  endpoint: Endpoint;
  timing: Timing;
  /** differences from the baseline page; empty when identical */
  problems: string[];
}

/** Everything measured of one search. */
export interface CaseResult {
  search: SearchCase;
  /** matching stores, all pages (the baseline's COUNT) */
  total: number;
  api: EndpointResult[];
  baseline: Timing;
  baselineExplain: string[];
  /** our search statements replayed on a direct connection, and the anchor's statement */
  inDatabase?: { ours: Timing; anchor: Timing; anchorProblems: string[]; anchorExplain: string[] };
}

/** The statements of one request. */
export interface StatementsRow {
  label: string;
  all: number;
  /** statements on businesses and their indexes */
  business: number;
  list: string[];
}

/** What the latency section measured, for the table and the Markdown. */
export interface LatencyReport {
  chain: BenchChain;
  options: LatencyOptions;
  coreUrl: string;
  cases: CaseResult[];
  statements: StatementsRow[];
  anchorBuild: { seconds: number; reused: boolean };
}

const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const ENDPOINT_LABEL: Record<Endpoint, string> = {
  resources: "GET /resources/businesses",
  "get-businesses": "GET /internal/get-businesses",
};

/** Whether one measured endpoint meets the search targets. */
export function meetsTargets(r: EndpointResult, baseline: Timing): boolean {
  return r.timing.p50 <= TARGET_P50_MS && baseline.p50 / r.timing.p50 >= TARGET_RATIO && r.problems.length === 0;
}

const HTTP_HEADER = ["search", "endpoint", "matches", "p50 ms", "p99 ms", "scan p50 ms", "scan p99 ms", "speed-up (p50)", "identical", "targets"];

function httpRows(report: LatencyReport): string[][] {
  return report.cases.flatMap((c) =>
    c.api.map((r) => [
      c.search.label,
      ENDPOINT_LABEL[r.endpoint],
      String(c.total),
      ms(r.timing.p50),
      ms(r.timing.p99),
      ms(c.baseline.p50),
      ms(c.baseline.p99),
      `${(c.baseline.p50 / r.timing.p50).toFixed(0)}x`,
      r.problems.length === 0 ? "yes" : "NO",
      meetsTargets(r, c.baseline) ? "met" : "MISSED",
    ]),
  );
}

const DB_HEADER = ["search", "ours in the database p50 ms", "p99 ms", "anchor p50 ms", "p99 ms", "factor (p50)", "anchor identical"];

function dbRows(report: LatencyReport): string[][] {
  return report.cases.flatMap((c) => {
    const d = c.inDatabase;
    if (!d) return [];
    return [[c.search.label, ms(d.ours.p50), ms(d.ours.p99), ms(d.anchor.p50), ms(d.anchor.p99), `${(d.anchor.p50 / d.ours.p50).toFixed(1)}x`, d.anchorProblems.length ? "NO" : "yes"]];
  });
}

/** `rows` under `header` as an aligned text table (first `left` columns left-aligned). */
export function textTable(header: string[], rows: string[][], left = 1): string {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? "").length)));
  const lines = all.map((r) => r.map((cell, i) => (i < left ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  "));
  lines.splice(1, 0, widths.map((w) => "-".repeat(w)).join("  "));
  return lines.join("\n");
}

/** `rows` under `header` as a Markdown table. */
export function markdownTable(header: string[], rows: string[][]): string {
  return [header, header.map(() => "---"), ...rows].map((r) => `| ${r.join(" | ")} |`).join("\n");
}

/** Prints the latency results as aligned tables. */
export function printLatencyTable(report: LatencyReport): void {
  console.log(textTable(HTTP_HEADER, httpRows(report), 2));
  console.log("");
  console.log(textTable(DB_HEADER, dbRows(report)));
  for (const c of report.cases) {
    for (const r of c.api) for (const p of r.problems) console.log(`! ${c.search.key} ${r.endpoint}: ${p}`);
    for (const p of c.inDatabase?.anchorProblems ?? []) console.log(`! ${c.search.key} anchor: ${p}`);
  }
  console.log("");
  for (const s of report.statements) console.log(`statements: ${s.label}: ${s.all} (${s.business} on businesses and their indexes)`);
}

/** The latency section's Markdown block (without its heading). */
export function latencyMarkdown(report: LatencyReport): string {
  const o = report.options;
  const problems = report.cases.flatMap((c) => [
    ...c.api.flatMap((r) => r.problems.map((p) => `- ${c.search.key} / ${r.endpoint}: ${p}`)),
    ...(c.inDatabase?.anchorProblems ?? []).map((p) => `- ${c.search.key} / anchor: ${p}`),
  ]);
  const statementsTable = markdownTable(
    ["request", "statements", "on businesses and their indexes", "the statements, in order"],
    report.statements.map((s) => [s.label, String(s.all), String(s.business), s.list.map((x) => `\`${x.replace(/\|/g, "\\|")}\``).join("<br>")]),
  );
  return `${report.chain.count.toLocaleString("en-US")} stores in chain "${report.chain.name}" (id ${report.chain.chainId}); load: ${report.chain.load}.

### Over HTTP, next to the full scan

Every API request goes over HTTP to the core-api the bench started (${report.coreUrl}), logged in as an admin,
one at a time: ${o.warmup} warm-up requests, then ${o.runs} timed ones per row (client-side round trip, including HTTP
and JSON). The full scan is the same search as one plain SQL statement with every secondary index of
\`businesses\` ignored (bench/baseline.ts), on a direct database connection (no HTTP, which favours it):
1 warm-up, ${o.baselineRuns} timed runs. "matches" counts the stores matching (all pages); a page is ${o.limit} stores. "identical"
compares the API's page (ids, order, distances) and its total_count with the full scan's page and COUNT
(get-businesses reports no total, so only its page is compared).

${markdownTable(HTTP_HEADER, httpRows(report))}
${problems.length ? `\nDifferences found:\n\n${problems.join("\n")}\n` : ""}
### In the database, next to the SPATIAL / FULLTEXT anchor

The anchor is what a competent developer would build instead on the same server: the same stores in a
copy of \`businesses\` with a POINT column under a SPATIAL index and a FULLTEXT index on (name, owner_code)
(bench/anchor.ts; ${report.anchorBuild.reused ? "table reused from an earlier run" : `table built by this run in ${report.anchorBuild.seconds.toFixed(0)} s`}): the bounding box through the spatial index
then the exact distance, \`MATCH ... AGAINST ('+${o.prefix}*' IN BOOLEAN MODE)\`, both together; one statement per
search returning the page's rows and the total. "ours" replays the statements our search sent (captured
on the wire, those on businesses and their indexes; authentication left out) on a direct connection. Both
${o.dbRuns} timed runs after 3 warm-ups. "factor" = anchor p50 / ours p50; "anchor identical" compares the
anchor's page and total with the full scan's.

${markdownTable(DB_HEADER, dbRows(report))}

### Statements per request

Captured on the wire (every Query and Execute a pooled connection sends, as test/helpers/statements.ts
counts them) from one request to an in-process core app on the same database, after one untimed request.

${statementsTable}

### Plans (EXPLAIN)

${report.cases.map((c) => `- ${c.search.label}, full scan: ${c.baselineExplain.join("; ")}`).join("\n")}
${report.cases.map((c) => `- ${c.search.label}, anchor: ${c.inDatabase?.anchorExplain.join("; ") ?? "-"}`).join("\n")}`;
}
