/**
 * bench/RESULTS.md as blocks, one per section: a run replaces the blocks of the sections it ran
 * and keeps the others (`--only latency` leaves the throughput figures of an earlier run in
 * place, each block saying when and where it was taken). Blocks are delimited by HTML comments
 * (`<!-- bench:latency -->` ... `<!-- /bench:latency -->`) and kept in the order of the sections'
 * registration.
 */
import { readFile, writeFile } from "node:fs/promises";

/** One section's block: its name and its full Markdown (heading included). */
export interface ResultBlock {
  name: string;
  markdown: string;
}

const BLOCK = /<!-- bench:([a-z0-9-]+) -->\n([\s\S]*?)\n<!-- \/bench:\1 -->/g;

const HEADER = `# Benchmark results

Written by \`npm run bench\` (bench/run.ts); do not edit by hand. Each section below is replaced by the
run that measures it and says when, on what machine and with which command it was taken; \`--only\`
keeps the other sections as they were.
`;

/** The blocks in `text` (an earlier RESULTS.md), in file order. */
export function parseBlocks(text: string): ResultBlock[] {
  return [...text.matchAll(BLOCK)].map((m) => ({ name: m[1]!, markdown: m[2]! }));
}

/**
 * The file with `fresh` blocks replacing (or joining) those of `previous`, ordered by `order`
 * (section names); blocks of sections not in `order` follow, as they were.
 */
export function mergeBlocks(previous: string, fresh: ResultBlock[], order: string[]): string {
  const byName = new Map(parseBlocks(previous).map((b) => [b.name, b]));
  for (const b of fresh) byName.set(b.name, b);
  const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
  const blocks = [...byName.values()].sort((a, b) => rank(a.name) - rank(b.name));
  return `${HEADER}\n${blocks.map((b) => `<!-- bench:${b.name} -->\n${b.markdown.trimEnd()}\n<!-- /bench:${b.name} -->`).join("\n\n")}\n`;
}

/** Writes `fresh` into the results file at `path` (created when missing), keeping its other blocks. */
export async function writeResultBlocks(path: string, fresh: ResultBlock[], order: string[]): Promise<void> {
  const previous = await readFile(path, "utf8").catch(() => "");
  await writeFile(path, mergeBlocks(previous, fresh, order));
}
