/**
 * The model change log store (spec, "Change log entry", "Change log call"): recording one entry
 * per change inside the transaction that makes the change, and reading one instance's entries a
 * page at a time. Entries are written once; the diff is kept as JSON text exactly as recorded.
 */
import type { ChangeDiff } from "@service/shared/resources/change-log";
import { and, asc, count, desc, eq } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { adminUsers, modelChangeLogs } from "../db/schema.ts";

/** A transaction of the core database (what `db.transaction` hands its callback). */
export type CoreTx = Parameters<Parameters<CoreDb["transaction"]>[0]>[0];

/** One change to record. */
export interface ChangeToRecord {
  /** chain the changed instance belongs to: every read of the log filters on it first */
  chainId: number;
  /** class name of the changed model, for example `Campaign` */
  modelClass: string;
  modelId: number;
  /** admin user id; null when no admin made the change */
  changedBy: number | null;
  /** canonical API path, for example `internal/alter-campaign` */
  changeEndpoint: string | null;
  /** must not be empty: an unchanged instance gets no entry */
  diff: ChangeDiff;
}

/** A recorded entry as read back, with the admin's name for the pre-1.6.8 `changed_by` object. */
export interface StoredChange {
  id: number;
  modelClass: string;
  modelId: number;
  changedBy: { id: number; firstname: string | null; lastname: string | null } | null;
  changeEndpoint: string | null;
  diff: ChangeDiff;
  createdDate: Date;
  lastModifiedDate: Date;
}

/** One page of one instance's change log. */
export interface ChangeLogPage {
  chainId: number;
  modelClass: string;
  modelId: number;
  sortBy: "created_date" | "last_modified_date";
  order: "asc" | "desc";
  limit: number;
  offset: number;
}

/**
 * Records one change log entry.
 * @param tx the transaction that writes the change itself, so the entry exists exactly when the change does
 * @param now created and last-modified time of the entry
 * @returns the entry id
 */
export async function recordChange(tx: CoreTx, change: ChangeToRecord, now: Date): Promise<number> {
  const [res] = await tx.insert(modelChangeLogs).values({
    chainId: change.chainId,
    modelClass: change.modelClass,
    modelId: change.modelId,
    changedBy: change.changedBy,
    changeEndpoint: change.changeEndpoint,
    diff: JSON.stringify(change.diff),
    createdDate: now,
    lastModifiedDate: now,
  });
  return Number(res.insertId);
}

/**
 * Reads one page of the change log of `page.modelClass` `page.modelId` in `page.chainId`, ordered
 * by `page.sortBy` then by entry id, both in `page.order` (entries of the same second keep the
 * order they were recorded in).
 * @returns the page's entries and the number of entries over all pages
 */
export async function listChanges(db: CoreDb, page: ChangeLogPage): Promise<{ changes: StoredChange[]; total: number }> {
  const where = and(
    eq(modelChangeLogs.chainId, page.chainId),
    eq(modelChangeLogs.modelClass, page.modelClass),
    eq(modelChangeLogs.modelId, page.modelId),
  );
  const direction = page.order === "asc" ? asc : desc;
  const key = page.sortBy === "created_date" ? modelChangeLogs.createdDate : modelChangeLogs.lastModifiedDate;
  const rows = await db
    .select({ entry: modelChangeLogs, firstname: adminUsers.firstname, lastname: adminUsers.lastname })
    .from(modelChangeLogs)
    .leftJoin(adminUsers, eq(adminUsers.id, modelChangeLogs.changedBy))
    .where(where)
    .orderBy(direction(key), direction(modelChangeLogs.id))
    .limit(page.limit)
    .offset(page.offset);
  const [total] = await db.select({ n: count() }).from(modelChangeLogs).where(where);
  return {
    changes: rows.map(({ entry, firstname, lastname }) => ({
      id: entry.id,
      modelClass: entry.modelClass,
      modelId: entry.modelId,
      changedBy: entry.changedBy === null ? null : { id: entry.changedBy, firstname, lastname },
      changeEndpoint: entry.changeEndpoint,
      diff: JSON.parse(entry.diff) as ChangeDiff,
      createdDate: entry.createdDate,
      lastModifiedDate: entry.lastModifiedDate,
    })),
    total: Number(total?.n ?? 0),
  };
}
