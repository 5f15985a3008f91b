/**
 * Business storage: every write of a business goes through here, so the row, its location grid
 * cell and its text-search words always agree (spec, "Business"; handbook, schema-as-code).
 */
import { and, eq, inArray } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { rowAsInserted } from "../db/inserted-row.ts";
import { wholeSeconds } from "../db/whole-seconds.ts";
import { WriteBatcher } from "../db/group-commit.ts";
import { businessSearchTokens, businesses } from "../db/schema.ts";
import { ServiceError } from "../http/service-error.ts";
import { geoCell, geoRow } from "./geo.ts";
import { adjustCellCounts } from "./cell-counts.ts";
import { countWords, deleteWords, insertWords, tokenRows } from "./word-index.ts";
import { runTransaction } from "@service/shared/node";
import { baseDatabase, databaseUntil, deadlineOf } from "../db/request-database.ts";

/** Writable columns of a business (camelCase drizzle names). */
export type BusinessValues = Omit<
  typeof businesses.$inferInsert,
  "id" | "activeOwnerCode" | "geoCell" | "createdDate" | "lastModifiedDate" | "deleted" | "deletedBy"
>;
export type BusinessChanges = Partial<Omit<BusinessValues, "chainId">>;

export { TOKEN_FIELD } from "./word-index.ts";
export {
  chainExists,
  findBusinessById,
  findBusinessByOwnerCode,
  findBusinessesByIds,
  type BusinessRow,
} from "./business-reads.ts";
import type { BusinessRow } from "./business-reads.ts";

const DUPLICATE_OWNER_CODE = "businesses_unique_owner_code_per_chain";

/** Most new businesses written in one group-commit transaction (see insertBusiness). */
const GROUP_COMMIT_MAX_BATCH = 64;
/**
 * Group-commit transactions of one process written at once: one. Its batch grows while the one
 * before commits, and the database's cost per business falls with the batch (a transaction of
 * one business took about 0.8 ms of database CPU, of eight 0.18 ms each); with two in flight the
 * batches halved and the cost per business rose by a tenth. The processes of WEB_CONCURRENCY write
 * side by side; the count rows they share are locked in one order (word-index.ts).
 */
const GROUP_COMMIT_IN_FLIGHT = 1;

/** A new business with its own creation time (whole seconds). */
interface NewBusiness {
  values: BusinessValues;
  stamp: Date;
}

/** Databases whose add-business calls each write a transaction of their own (GROUP_COMMIT=off). */
const alone = new WeakSet<CoreDb>();

/**
 * Turns group commit of insertBusiness on `db` on (the default) or off (GROUP_COMMIT=off: each
 * business its own transaction, to measure what group commit saves).
 */
export function useGroupCommit(db: CoreDb, on: boolean): void {
  if (on) alone.delete(baseDatabase(db));
  else alone.add(baseDatabase(db));
}

/** Databases whose new businesses are read back after writing them (ROWS_AS_WRITTEN=off). */
const readBack = new WeakSet<CoreDb>();

/**
 * Turns answering new businesses as written (db/inserted-row.ts) on `db` on (the default) or off
 * (ROWS_AS_WRITTEN=off: each batch's rows read back in one SELECT of its transaction, to measure
 * what answering them as written saves).
 */
export function useRowsAsWritten(db: CoreDb, on: boolean): void {
  if (on) readBack.delete(baseDatabase(db));
  else readBack.add(baseDatabase(db));
}

/** One group committer per shared database client (a process has one; tests one per database); a batch is written on a request handle under its writes' soonest deadline. */
const committers = new WeakMap<CoreDb, WriteBatcher<NewBusiness, BusinessRow>>();

function committerOf(base: CoreDb): WriteBatcher<NewBusiness, BusinessRow> {
  let committer = committers.get(base);
  if (!committer) {
    const write = (items: NewBusiness[], at: number | undefined) => writeNewBusinesses(at === undefined ? base : databaseUntil(base, at), items);
    committer = new WriteBatcher(write, { maxBatch: GROUP_COMMIT_MAX_BATCH, maxInFlight: GROUP_COMMIT_IN_FLIGHT });
    committers.set(base, committer);
  }
  return committer;
}

/**
 * Creates a business. Concurrent calls are group-committed (db/group-commit.ts; unless
 * useGroupCommit turned it off): those
 * arriving while a transaction of new businesses is being written go together into the next one.
 * Each call still answers only after the transaction holding its business committed (a search
 * after it finds the business and counts it), and a call whose business cannot be written fails
 * alone: a batch that fails on a row's error (a taken owner_code) is retried one business at a
 * time; one that meets a deadlock is written again whole by the transaction runner.
 * @param now creation and last-modified time (kept in whole seconds)
 * @returns the stored row
 * @throws ServiceError business_already_exists (311) when owner_code is used by a live business of
 *   the chain; nothing is written then
 */
export async function insertBusiness(db: CoreDb, values: BusinessValues, now: Date): Promise<BusinessRow> {
  const item = { values, stamp: wholeSeconds(now) };
  const base = baseDatabase(db);
  if (alone.has(base)) return translateDuplicate(async () => (await writeNewBusinesses(db, [item]))[0]!);
  return translateDuplicate(() => committerOf(base).add(item, deadlineOf(db)));
}

/**
 * Creates many businesses in one transaction (bulk loads: demo, benchmark, imports): see
 * writeNewBusinesses. The rows are answered as written (db/inserted-row.ts), or read back where
 * useRowsAsWritten turned that off for the database. The counts are written last, cells before words, as
 * by every write here: the count rows are the ones concurrent writers share, so their locks are
 * held the shortest and always taken in the same order.
 * @param now creation and last-modified time (kept in whole seconds)
 * @returns the stored rows in input order
 * @throws ServiceError business_already_exists (311) on a duplicate owner_code; nothing is written then
 */
export async function insertBusinesses(db: CoreDb, rows: BusinessValues[], now: Date): Promise<BusinessRow[]> {
  const stamp = wholeSeconds(now);
  return translateDuplicate(() => writeNewBusinesses(db, rows.map((values) => ({ values, stamp }))));
}

/**
 * Writes new businesses, their words and both counts in one transaction of the transaction
 * runner (insertBusinesses, and each batch of insertBusiness): one INSERT per business, each
 * answering its own id (no id is ever computed: auto_increment_increment, a Galera node's offset
 * or innodb_autoinc_lock_mode 2 may space or interleave them), then the words with those ids in
 * one multi-row INSERT, then the counts, cells before words. The rows are answered as written
 * (db/inserted-row.ts: the values given, the declared defaults, the ids and the generated
 * active_owner_code), or with ROWS_AS_WRITTEN=off read back in one SELECT of the same transaction.
 * @returns the stored rows in input order
 * @throws the driver's error (ER_DUP_ENTRY on a duplicate owner_code); nothing is written then
 */
async function writeNewBusinesses(db: CoreDb, items: readonly NewBusiness[]): Promise<BusinessRow[]> {
  if (items.length === 0) return [];
  const written = items.map(({ values: v, stamp }) => ({ ...v, geoCell: geoCell(v.latitude, v.longitude), createdDate: stamp, lastModifiedDate: stamp }));
  return runTransaction(db, async (tx) => {
    const ids: number[] = [];
    for (const row of written) ids.push((await tx.insert(businesses).values(row))[0].insertId);
    const words = written.flatMap((v, i) => tokenRows(v.chainId, ids[i]!, v));
    await insertWords(tx, words);
    await adjustCellCounts(tx, written.map((v) => ({ chainId: v.chainId, cell: v.geoCell, delta: 1 as const })));
    await countWords(tx, [], words);
    if (readBack.has(baseDatabase(db))) {
      const stored = new Map((await tx.select().from(businesses).where(inArray(businesses.id, ids))).map((row) => [row.id, row]));
      return ids.map((id) => {
        const row = stored.get(id);
        // Rolls the transaction back rather than answer without the row.
        if (!row) throw new Error(`writeNewBusinesses: business ${id}, just inserted, is not there to read back`);
        return row;
      });
    }
    return written.map((v, i) => rowAsInserted(businesses, v, { id: ids[i]!, activeOwnerCode: v.ownerCode ?? null }));
  });
}

/**
 * Updates the live business `id` of chain `chainId` with `changes`.
 * @param now the new last-modified time (kept in whole seconds)
 * @returns the stored row after the update (the locked row with the changes: not read back), or
 *   null when no live business has that id in the chain
 * @throws ServiceError business_already_exists (311) when the new owner_code is taken
 */
export async function updateBusiness(
  db: CoreDb,
  chainId: number,
  id: number,
  changes: BusinessChanges,
  now: Date,
): Promise<BusinessRow | null> {
  const stamp = wholeSeconds(now);
  return translateDuplicate(() =>
    runTransaction(db, async (tx) => {
      const [current] = await tx
        .select()
        .from(businesses)
        .where(and(eq(businesses.id, id), eq(businesses.chainId, chainId), eq(businesses.deleted, false)))
        .for("update");
      if (!current) return null;
      // A key present with the value undefined means "unchanged" (drizzle skips it in SET); left in,
      // it would blank the grid cell or the search words below.
      const given = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as BusinessChanges;
      const next: BusinessRow = { ...current, ...given, lastModifiedDate: stamp };
      next.geoCell = geoCell(next.latitude, next.longitude);
      next.activeOwnerCode = next.ownerCode; // live: the generated column equals owner_code
      await tx.update(businesses).set({ ...given, geoCell: next.geoCell, lastModifiedDate: stamp }).where(eq(businesses.id, id));
      const wordsChange = next.name !== current.name || next.ownerCode !== current.ownerCode;
      const removed = wordsChange ? await deleteWords(tx, id) : [];
      const added = wordsChange ? tokenRows(chainId, id, next) : [];
      if (wordsChange) await insertWords(tx, added);
      else if (next.latitude !== current.latitude || next.longitude !== current.longitude) {
        await tx
          .update(businessSearchTokens)
          .set({ latitude: next.latitude, longitude: next.longitude, geoRow: geoRow(next.latitude) })
          .where(eq(businessSearchTokens.businessId, id));
      }
      if (next.geoCell !== current.geoCell) {
        await adjustCellCounts(tx, [
          { chainId, cell: current.geoCell, delta: -1 },
          { chainId, cell: next.geoCell, delta: 1 },
        ]);
      }
      await countWords(tx, removed, added);
      return next;
    }),
  );
}

/**
 * Soft-deletes the live business `id` of chain `chainId`: it keeps its row for audit but leaves
 * every search, and frees its owner_code.
 * @param deletedBy admin user id, or null
 * @returns whether a live business was deleted
 */
export async function deleteBusiness(
  db: CoreDb,
  chainId: number,
  id: number,
  deletedBy: number | null,
  now: Date,
): Promise<boolean> {
  return runTransaction(db, async (tx) => {
    const live = and(eq(businesses.id, id), eq(businesses.chainId, chainId), eq(businesses.deleted, false));
    const [current] = await tx.select({ geoCell: businesses.geoCell }).from(businesses).where(live).for("update");
    if (!current) return false;
    await tx
      .update(businesses)
      .set({ deleted: true, deletedBy, lastUpdatedBy: deletedBy, geoCell: null, lastModifiedDate: wholeSeconds(now) })
      .where(live);
    const removed = await deleteWords(tx, id);
    await adjustCellCounts(tx, [{ chainId, cell: current.geoCell, delta: -1 }]);
    await countWords(tx, removed, []);
    return true;
  });
}

async function translateDuplicate<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
    const code = e.code ?? e.cause?.code;
    const message = `${e.message ?? ""} ${e.cause?.message ?? ""}`;
    if (code === "ER_DUP_ENTRY" && message.includes(DUPLICATE_OWNER_CODE)) {
      throw new ServiceError("business_already_exists");
    }
    throw err;
  }
}
