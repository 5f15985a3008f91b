/**
 * Chain storage for the Chain resource (spec, "Chain (singular resource)"): the chain's row with
 * what it refers to (its currency, its app), and updates of its settings.
 */
import { and, asc, eq } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { apps, chains, currencies } from "../db/schema.ts";

export type ChainRow = typeof chains.$inferSelect;
export type CurrencyRow = typeof currencies.$inferSelect;
/** Columns the Chain resource may change (camelCase drizzle names). */
export type ChainChanges = Partial<Omit<typeof chains.$inferInsert, "id" | "deleted" | "createdDate" | "lastModifiedDate">>;

/** A chain with what its resource renders beside the row. */
export interface ChainView {
  row: ChainRow;
  /** null until a currency is set */
  currency: CurrencyRow | null;
  /** id of the chain's first app (lowest id), or null when it has none */
  appId: number | null;
}

/** The live chain `chainId` with its currency and app, or null when it does not exist or is deleted. */
export async function findChainView(db: CoreDb, chainId: number): Promise<ChainView | null> {
  const [found] = await db
    .select({ row: chains, currency: currencies })
    .from(chains)
    .leftJoin(currencies, eq(currencies.id, chains.currencyId))
    .where(and(eq(chains.id, chainId), eq(chains.deleted, false)))
    .limit(1);
  if (!found) return null;
  const [app] = await db.select({ id: apps.id }).from(apps).where(eq(apps.chainId, chainId)).orderBy(asc(apps.id)).limit(1);
  return { row: found.row, currency: found.currency, appId: app?.id ?? null };
}

/**
 * Applies `changes` to the live chain `chainId`; keys left undefined stay unchanged.
 * @param now the new last_modified_date
 * @returns whether a live chain was updated
 */
export async function updateChain(db: CoreDb, chainId: number, changes: ChainChanges, now: Date): Promise<boolean> {
  const [res] = await db
    .update(chains)
    .set({ ...changes, lastModifiedDate: now })
    .where(and(eq(chains.id, chainId), eq(chains.deleted, false)));
  return res.affectedRows > 0;
}

/** The currency with id `id`, or null. */
export async function findCurrency(db: CoreDb, id: number): Promise<CurrencyRow | null> {
  const [row] = await db.select().from(currencies).where(eq(currencies.id, id)).limit(1);
  return row ?? null;
}
