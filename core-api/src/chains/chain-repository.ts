/**
 * Chain storage for the Chain resource (spec, "Chain (singular resource)"): the chain's row with
 * what it refers to (chains/chain-columns.ts), and updates of its settings.
 */
import { and, eq } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { findRow } from "../db/resource-rows.ts";
import { chains, currencies } from "../db/schema.ts";
import { chainColumns, type ChainRow } from "./chain-columns.ts";
import { runStatement } from "@service/shared/node";

export type { ChainRow };
export type CurrencyRow = typeof currencies.$inferSelect;
/** Columns the Chain resource may change (camelCase drizzle names). */
export type ChainChanges = Partial<Omit<typeof chains.$inferInsert, "id" | "deleted" | "createdDate" | "lastModifiedDate">>;

/**
 * The chain `chainId` with its first app and its currency, in one query.
 * @param opts.includeDeleted also a deleted chain (a nested chain is shown as it is)
 * @returns the row, or null when it does not exist (or is deleted, without includeDeleted)
 */
export async function findChain(db: CoreDb, chainId: number, opts: { includeDeleted?: boolean } = {}): Promise<ChainRow | null> {
  const live = opts.includeDeleted ? undefined : eq(chains.deleted, false);
  return findRow(db, chainColumns, [eq(chains.id, chainId), live]);
}

/**
 * Applies `changes` to the live chain `chainId`; keys left undefined stay unchanged.
 * @param now the new last_modified_date
 * @returns whether a live chain was updated
 */
export async function updateChain(db: CoreDb, chainId: number, changes: ChainChanges, now: Date): Promise<boolean> {
  const [res] = await runStatement(() => db
    .update(chains)
    .set({ ...changes, lastModifiedDate: now })
    .where(and(eq(chains.id, chainId), eq(chains.deleted, false))));
  return res.affectedRows > 0;
}

/** The currency with id `id`, or null. */
export async function findCurrency(db: CoreDb, id: number): Promise<CurrencyRow | null> {
  const [row] = await db.select().from(currencies).where(eq(currencies.id, id)).limit(1);
  return row ?? null;
}
