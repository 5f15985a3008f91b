/**
 * Timing and comparison helpers: sequential timed runs after a warm-up, nearest-rank
 * percentiles, and the check that two pages of results are the same.
 */
import type { Page } from "./cases.ts";

export interface Timing {
  runs: number;
  p50: number;
  p99: number;
  mean: number;
  min: number;
  max: number;
}

/** The median of the finite numbers of `xs` (NaN for none). */
export function median(xs: readonly number[]): number {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** The nearest-rank percentile `p` (0-100) of `sorted` (ascending). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** Summarises milliseconds `samples`. */
export function summarise(samples: readonly number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    runs: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    mean: sorted.reduce((s, x) => s + x, 0) / Math.max(1, sorted.length),
    min: sorted[0] ?? NaN,
    max: sorted.at(-1) ?? NaN,
  };
}

/**
 * Runs `once` `warmup` times untimed, then `runs` times one after the other.
 * @param once performs one request and returns the milliseconds it took
 */
export async function timeSequential(once: () => Promise<number>, warmup: number, runs: number): Promise<Timing> {
  for (let i = 0; i < warmup; i++) await once();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) samples.push(await once());
  return summarise(samples);
}

/** Largest difference between two distances still counted as equal, in km (1 micrometre). */
const DISTANCE_EPSILON_KM = 1e-9;

/**
 * The differences between an API page and the baseline page; empty when identical (same ids in
 * the same order, same distances, and the same total when the API reports one).
 */
export function comparePages(api: Page, baseline: Page): string[] {
  const problems: string[] = [];
  if (api.total !== null && api.total !== baseline.total) problems.push(`total_count ${api.total} vs COUNT(*) ${baseline.total}`);
  if (api.ids.length !== baseline.ids.length) problems.push(`${api.ids.length} results vs ${baseline.ids.length}`);
  const firstDiff = api.ids.findIndex((id, i) => id !== baseline.ids[i]);
  if (firstDiff >= 0) problems.push(`ids differ from position ${firstDiff}: ${api.ids[firstDiff]} vs ${baseline.ids[firstDiff]}`);
  api.distances.forEach((d, i) => {
    const b = baseline.distances[i];
    if (b === undefined) return;
    if ((d === null) !== (b === null) || (d !== null && b !== null && Math.abs(d - b) > DISTANCE_EPSILON_KM)) {
      problems.push(`distance at position ${i}: ${d} vs ${b}`);
    }
  });
  return problems.slice(0, 5);
}
