/**
 * Storage of the allowed IP ranges (spec, "AllowedIpRange"). Every query is confined to one chain;
 * `cidr` values arrive here already in canonical form (cidr.ts), so equality is range equality.
 */
import { and, asc, count, desc, eq, type SQL } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { isDuplicateKey } from "../db/duplicate-key.ts";
import { allowedIpRanges } from "../db/schema.ts";
import { ServiceError } from "../http/service-error.ts";

export type IpRangeRow = typeof allowedIpRanges.$inferSelect;

/** Unique index of (chain_id, active_cidr): one live entry per range and chain. */
const UNIQUE_CIDR = "allowed_ip_ranges_unique_cidr_per_chain";

export interface IpRangeListQuery {
  filters: { id?: number; cidr?: string };
  /** absent: id order */
  sort?: "created_date" | "last_modified_date";
  order: "asc" | "desc";
  limit: number;
  offset: number;
}

const SORT_COLUMNS = { created_date: allowedIpRanges.createdDate, last_modified_date: allowedIpRanges.lastModifiedDate };

/**
 * Creates a range.
 * @param values cidr in canonical form; lastUpdatedBy the admin user id or null
 * @throws ServiceError parameter_invalid (419) when the chain already has this range live; nothing is written
 */
export async function insertIpRange(
  db: CoreDb,
  values: { chainId: number; cidr: string; notes: string | null; lastUpdatedBy: number | null },
  now: Date,
): Promise<IpRangeRow> {
  const [res] = await translateDuplicate(values.cidr, () =>
    db.insert(allowedIpRanges).values({ ...values, createdDate: now, lastModifiedDate: now }),
  );
  const [row] = await db.select().from(allowedIpRanges).where(eq(allowedIpRanges.id, Number(res.insertId)));
  return row!;
}

/**
 * Updates the live range `id` of chain `chainId`.
 * @returns the row after the update, or null when no live range has that id in the chain
 * @throws ServiceError parameter_invalid (419) when the new cidr is already live in the chain
 */
export async function updateIpRange(
  db: CoreDb,
  chainId: number,
  id: number,
  changes: { cidr?: string; notes?: string | null; lastUpdatedBy: number | null },
  now: Date,
): Promise<IpRangeRow | null> {
  const [res] = await translateDuplicate(changes.cidr ?? "", () =>
    db
      .update(allowedIpRanges)
      .set({ ...changes, lastModifiedDate: now })
      .where(and(eq(allowedIpRanges.id, id), eq(allowedIpRanges.chainId, chainId), eq(allowedIpRanges.deleted, false))),
  );
  if (res.affectedRows === 0) return null;
  return findIpRange(db, chainId, { id }, { includeDeleted: true });
}

/**
 * Soft-deletes the live range `id` of chain `chainId` (the row stays for audit; its cidr is free again).
 * @returns the deleted row, or null when no live range has that id in the chain
 */
export async function deleteIpRange(db: CoreDb, chainId: number, id: number, deletedBy: number | null, now: Date): Promise<IpRangeRow | null> {
  const [res] = await db
    .update(allowedIpRanges)
    .set({ deleted: true, lastUpdatedBy: deletedBy, lastModifiedDate: now })
    .where(and(eq(allowedIpRanges.id, id), eq(allowedIpRanges.chainId, chainId), eq(allowedIpRanges.deleted, false)));
  if (res.affectedRows === 0) return null;
  return findIpRange(db, chainId, { id }, { includeDeleted: true });
}

/**
 * One range of chain `chainId` by id or by canonical cidr.
 * @returns the live range (or, with includeDeleted and an id, also a deleted one), or null
 */
export async function findIpRange(
  db: CoreDb,
  chainId: number,
  by: { id: number } | { cidr: string },
  opts: { includeDeleted?: boolean } = {},
): Promise<IpRangeRow | null> {
  const match = "id" in by ? eq(allowedIpRanges.id, by.id) : eq(allowedIpRanges.activeCidr, by.cidr);
  const live = opts.includeDeleted ? undefined : eq(allowedIpRanges.deleted, false);
  const [row] = await db
    .select()
    .from(allowedIpRanges)
    .where(and(eq(allowedIpRanges.chainId, chainId), match, live))
    .limit(1);
  return row ?? null;
}

/** One page of the chain's live ranges and the total over all pages. */
export async function listIpRanges(db: CoreDb, chainId: number, q: IpRangeListQuery): Promise<{ rows: IpRangeRow[]; total: number }> {
  const conditions: SQL[] = [eq(allowedIpRanges.chainId, chainId), eq(allowedIpRanges.deleted, false)];
  if (q.filters.id !== undefined) conditions.push(eq(allowedIpRanges.id, q.filters.id));
  if (q.filters.cidr !== undefined) conditions.push(eq(allowedIpRanges.activeCidr, q.filters.cidr));
  const where = and(...conditions);
  const direction = q.order === "desc" ? desc : asc;
  // id breaks ties so that pages never overlap when many ranges share a timestamp
  const orderBy = q.sort ? [direction(SORT_COLUMNS[q.sort]), direction(allowedIpRanges.id)] : [direction(allowedIpRanges.id)];
  const [totals] = await db.select({ n: count() }).from(allowedIpRanges).where(where);
  const rows = await db.select().from(allowedIpRanges).where(where).orderBy(...orderBy).limit(q.limit).offset(q.offset);
  return { rows, total: Number(totals?.n ?? 0) };
}

/** The chain's live ranges in id order (what Chain.allowed_ip_ranges renders and the login check reads). */
export async function liveIpRanges(db: CoreDb, chainId: number): Promise<IpRangeRow[]> {
  return db
    .select()
    .from(allowedIpRanges)
    .where(and(eq(allowedIpRanges.chainId, chainId), eq(allowedIpRanges.deleted, false)))
    .orderBy(asc(allowedIpRanges.id));
}

async function translateDuplicate<T>(cidr: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isDuplicateKey(err, UNIQUE_CIDR)) throw new ServiceError("parameter_invalid", `cidr ${cidr} is already allowed for this chain.`);
    throw err;
  }
}
