/**
 * Per-cell business counts (business_geo_cell_counts), changed in the same transaction as the
 * businesses they count, so a radius search can add up whole cells (search.ts).
 */
import { businessGeoCellCounts } from "../db/schema.ts";
import { ADD_N, slices, type Tx } from "./word-index.ts";

/** One business entering (+1) or leaving (-1) a grid cell of a chain; null cells are ignored. */
export interface CellChange {
  chainId: number;
  cell: number | null;
  delta: 1 | -1;
}

/**
 * The changes of the per-cell counts, keys summed and sorted: a fixed lock order, so concurrent
 * writers of the same cells queue instead of deadlocking.
 */
function cellCountChanges(changes: readonly CellChange[]): Array<{ chainId: number; geoCell: number; n: number }> {
  const sums = new Map<string, { chainId: number; geoCell: number; n: number }>();
  for (const c of changes) {
    if (c.cell === null) continue;
    const key = `${c.chainId}:${c.cell}`;
    const entry = sums.get(key) ?? { chainId: c.chainId, geoCell: c.cell, n: 0 };
    entry.n += c.delta;
    sums.set(key, entry);
  }
  return [...sums.values()].filter((v) => v.n !== 0).sort((a, b) => a.chainId - b.chainId || a.geoCell - b.geoCell);
}

/** Applies `changes` to the per-cell counts in `tx` (one upsert, unless thousands of cells change). */
export async function adjustCellCounts(tx: Tx, changes: readonly CellChange[]): Promise<void> {
  for (const slice of slices(cellCountChanges(changes))) {
    await tx.insert(businessGeoCellCounts).values(slice).onDuplicateKeyUpdate({ set: { n: ADD_N } });
  }
}
