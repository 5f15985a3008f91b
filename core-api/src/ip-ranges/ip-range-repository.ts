/**
 * Storage of the allowed IP ranges (spec, "AllowedIpRange"). Every query is confined to one chain;
 * `cidr` values arrive here already in canonical form (cidr.ts), so equality is range equality.
 */
import { and, asc, eq } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { isDuplicateKey } from "../db/duplicate-key.ts";
import type { ListRequest } from "../db/resource-columns.ts";
import { findRow, listRows } from "../db/resource-rows.ts";
import { allowedIpRanges } from "../db/schema.ts";
import { ServiceError } from "../http/service-error.ts";
import { ipRangeColumns, type IpRangeRow } from "./ip-range-columns.ts";
import { runStatement, runTransaction } from "@service/shared/node";

export type { IpRangeRow };

/** Unique index of (chain_id, active_cidr): one live entry per range and chain. */
const UNIQUE_CIDR = "allowed_ip_ranges_unique_cidr_per_chain";

/** What a new range needs: cidr in canonical form; lastUpdatedBy the admin user id or null. */
export type NewIpRange = Pick<typeof allowedIpRanges.$inferInsert, "chainId" | "cidr" | "notes" | "lastUpdatedBy">;
/** Columns a PUT / PATCH may change; a key left out (or undefined) stays as it is. */
export type IpRangeChanges = Partial<Pick<IpRangeRow, "cidr" | "notes">> & { lastUpdatedBy: number | null };

/**
 * Creates a range.
 * @throws ServiceError parameter_invalid (419) when the chain already has this range live; nothing is written
 */
export async function insertIpRange(db: CoreDb, values: NewIpRange, now: Date): Promise<IpRangeRow> {
  return translateDuplicate(values.cidr, () =>
    runTransaction(db, async (tx) => {
      const [res] = await tx.insert(allowedIpRanges).values({ ...values, createdDate: now, lastModifiedDate: now });
      const [row] = await tx.select().from(allowedIpRanges).where(eq(allowedIpRanges.id, Number(res.insertId)));
      return row!;
    }),
  );
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
  changes: IpRangeChanges,
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
  const [res] = await runStatement(() => db
    .update(allowedIpRanges)
    .set({ deleted: true, lastUpdatedBy: deletedBy, lastModifiedDate: now })
    .where(and(eq(allowedIpRanges.id, id), eq(allowedIpRanges.chainId, chainId), eq(allowedIpRanges.deleted, false))));
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
  return findRow(db, ipRangeColumns, [eq(allowedIpRanges.chainId, chainId), match, live]);
}

/**
 * One page of the chain's live ranges and the total over all pages: filters and sort keys by the
 * range's storage mapping (record.ts); ties are broken by id in the same direction.
 */
export async function listIpRanges(db: CoreDb, chainId: number, q: ListRequest): Promise<{ rows: IpRangeRow[]; total: number }> {
  return listRows(db, ipRangeColumns, [eq(allowedIpRanges.chainId, chainId), eq(allowedIpRanges.deleted, false)], q);
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
