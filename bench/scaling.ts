/**
 * The scaling section: the latency section's HTTP measurement at each store count of --scaling
 * (default 100,000 and 1,000,000: one chain each in the bench database), and how p50 grows from
 * the smallest count to the largest. Target: below 2x for 10x the data. A count the latency
 * section already measured in this run is not measured again.
 */
import { measureHttpLatency, type HttpLatency } from "./latency.ts";
import { markdownTable, textTable } from "./report.ts";
import type { BenchSection, TargetCheck } from "./section.ts";

/** Target: p50 at the largest count at most this many times p50 at the smallest. */
export const GROWTH_TARGET = 2;

/** The scaling section (see the module comment); registered in run.ts. */
export const scalingSection: BenchSection = {
  name: "scaling",
  summary: "the latency section's HTTP searches at each count of --scaling and how p50 grows between them",
  async run(ctx) {
    const counts = ctx.settings.scalingCounts;
    const measured: HttpLatency[] = [];
    for (const count of counts) measured.push(await measureHttpLatency(ctx, count));
    const small = measured[0]!;
    const big = measured.at(-1)!;
    const header = ["search", "endpoint", ...counts.map((n) => `p50 ms at ${n.toLocaleString("en-US")}`), `growth ${counts.at(-1)!.toLocaleString("en-US")} / ${counts[0]!.toLocaleString("en-US")}`];
    const rows: string[][] = [];
    const targets: TargetCheck[] = [];
    small.cases.forEach((c, i) => {
      small.rows[i]!.forEach((r, j) => {
        const growth = big.rows[i]![j]!.timing.p50 / r.timing.p50;
        rows.push([c.label, r.endpoint, ...measured.map((m) => m.rows[i]![j]!.timing.p50.toFixed(2)), `${growth.toFixed(2)}x`]);
        targets.push({
          label: `${c.label} (${r.endpoint}): p50 grows below ${GROWTH_TARGET}x from ${counts[0]!.toLocaleString("en-US")} to ${counts.at(-1)!.toLocaleString("en-US")} stores`,
          met: growth < GROWTH_TARGET,
          detail: `${growth.toFixed(2)}x`,
        });
      });
    });
    console.log("");
    console.log(textTable(header, rows, 2));
    const runs = measured[0]!.rows[0]![0]!.timing.runs;
    const markdown = `Each count is a chain of its own in the bench database (${measured.map((m) => `"${m.chain.name}": ${m.chain.load}`).join("; ")}).
The same searches as the latency section, over HTTP, one at a time, ${runs} timed requests per row after the warm-up.

${markdownTable(header, rows)}`;
    return { title: "Scaling", markdown, targets };
  },
};
