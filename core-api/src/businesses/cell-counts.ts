/**
 * Per-cell business counts (business_geo_cell_counts), changed in the same transaction as the
 * businesses they count, so a radius search can add up whole cells (search.ts).
 */
import { businessGeoCellCounts } from "../db/schema.ts";
import { insertRows, runInTransaction, type BuiltStatement } from "../db/built-statements.ts";
import type { Tx } from "./word-index.ts";

/** One business entering (+1) or leaving (-1) a grid cell of a chain; null cells are ignored. */
export interface CellChange {
  chainId: number;
  cell: number | null;
  delta: 1 | -1;
}

/**
 * The statements applying `changes` to the per-cell counts (one, unless thousands of cells change).
 * Keys are summed and written sorted: a fixed lock order, so concurrent writers of the same cells
 * queue instead of deadlocking.
 */
export function cellCountStatements(changes: readonly CellChange[]): BuiltStatement[] {
  const sums = new Map<string, { chainId: number; geoCell: number; n: number }>();
  for (const c of changes) {
    if (c.cell === null) continue;
    const key = `${c.chainId}:${c.cell}`;
    const entry = sums.get(key) ?? { chainId: c.chainId, geoCell: c.cell, n: 0 };
    entry.n += c.delta;
    sums.set(key, entry);
  }
  const values = [...sums.values()].filter((v) => v.n !== 0).sort((a, b) => a.chainId - b.chainId || a.geoCell - b.geoCell);
  const statements = [];
  for (let i = 0; i < values.length; i += 5000) statements.push(insertRows(businessGeoCellCounts, values.slice(i, i + 5000), { addOnDuplicateKey: "n" }));
  return statements;
}

/** Applies `changes` to the per-cell counts in `tx` (cellCountStatements). */
export async function adjustCellCounts(tx: Tx, changes: readonly CellChange[]): Promise<void> {
  for (const statement of cellCountStatements(changes)) await runInTransaction(tx, statement);
}
