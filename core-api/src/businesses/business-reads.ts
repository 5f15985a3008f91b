/**
 * Business reads (spec, "Business"): a live business by id or owner code, and a page's businesses
 * by id. Hot paths: each a select of the query builder compiled once (db/compiled-select.ts) and
 * run as a prepared statement.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { compileSelect, qb, type CompiledSelect } from "../db/compiled-select.ts";
import { businesses, chains } from "../db/schema.ts";

/** A stored business row. */
export type BusinessRow = typeof businesses.$inferSelect;

/** The live business of chain `chainId` with id `id` (compiled once: db/compiled-select.ts). */
const LIVE_BY_ID = compileSelect(
  qb
    .select()
    .from(businesses)
    .where(and(eq(businesses.id, sql.placeholder("id")), eq(businesses.chainId, sql.placeholder("chainId")), eq(businesses.deleted, false)))
    .limit(1),
  ["id", "chainId"],
);

/** The live business of chain `chainId` with owner code `ownerCode` (compiled once). */
const LIVE_BY_OWNER_CODE = compileSelect(
  qb
    .select()
    .from(businesses)
    .where(and(eq(businesses.chainId, sql.placeholder("chainId")), eq(businesses.activeOwnerCode, sql.placeholder("ownerCode"))))
    .limit(1),
  ["chainId", "ownerCode"],
);

/** The live business of chain `chainId` with id `id`, or null. */
export async function findBusinessById(db: CoreDb, chainId: number, id: number): Promise<BusinessRow | null> {
  const [row] = await LIVE_BY_ID.run(db, { id, chainId });
  return row ?? null;
}

/** The live business of chain `chainId` with owner code `ownerCode`, or null. */
export async function findBusinessByOwnerCode(db: CoreDb, chainId: number, ownerCode: string): Promise<BusinessRow | null> {
  const [row] = await LIVE_BY_OWNER_CODE.run(db, { chainId, ownerCode });
  return row ?? null;
}

/**
 * Statements reading the live businesses of up to N ids, N a power of two: a handful of prepared
 * statements per connection serve every page size (the server caps them: max_prepared_stmt_count).
 */
const liveByIds = new Map<number, CompiledSelect<BusinessRow, `id${number}`>>();

/** Live businesses by id, in the order of `ids` (ids not found are skipped). */
export async function findBusinessesByIds(db: CoreDb, ids: number[]): Promise<BusinessRow[]> {
  if (ids.length === 0) return [];
  const slots = 2 ** Math.ceil(Math.log2(ids.length));
  let statement = liveByIds.get(slots);
  if (!statement) {
    const names = Array.from({ length: slots }, (_, i) => `id${i}` as const);
    statement = compileSelect(
      qb.select().from(businesses).where(and(inArray(businesses.id, names.map((n) => sql.placeholder(n))), eq(businesses.deleted, false))),
      names,
    );
    liveByIds.set(slots, statement);
  }
  // The slots past the ids repeat the last one: IN ignores the repeats.
  const values: Record<`id${number}`, number> = {};
  for (let i = 0; i < slots; i++) values[`id${i}`] = ids[Math.min(i, ids.length - 1)]!;
  const rows = await statement.run(db, values);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** Whether chain `chainId` exists and is not deleted. */
export async function chainExists(db: CoreDb, chainId: number): Promise<boolean> {
  const rows = await db.select({ id: chains.id }).from(chains).where(and(eq(chains.id, chainId), eq(chains.deleted, false))).limit(1);
  return rows.length > 0;
}
