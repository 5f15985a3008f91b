/**
 * Storage of the member-number ranges (resource `member_number_range`; handbook, "The user":
 * member numbers). Every query is confined to one chain. The live ranges of a chain never overlap
 * and have first <= last: a write checks both while it holds the chain's row lock, so two writes
 * cannot both pass (nothing is written when a check fails).
 */
import { and, asc, eq, gte, lte, ne, sql } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import type { ListRequest } from "../db/resource-columns.ts";
import { findRow, listRows } from "../db/resource-rows.ts";
import { memberNumberRanges } from "../db/schema.ts";
import { ServiceError } from "../http/service-error.ts";
import { memberNumberRangeColumns, type MemberNumberRangeRow } from "./member-number-range-columns.ts";
import { runStatement, runTransaction } from "@service/shared/node";
import { lockChainRanges } from "./range-write-lock.ts";

export type { MemberNumberRangeRow };

/** What a new range needs. */
export interface NewMemberNumberRange {
  chainId: number;
  kind: string;
  first: bigint;
  last: bigint;
  lastUpdatedBy: number | null;
}

/** Columns a PUT / PATCH may change (kind is immutable). */
export interface MemberNumberRangeChanges {
  first?: bigint;
  last?: bigint;
  lastUpdatedBy: number | null;
}

/**
 * Creates a range; a generated one hands out `first` next.
 * @throws ServiceError parameter_invalid (419) when first > last or the range overlaps a live range of the chain
 */
export async function insertMemberNumberRange(db: CoreDb, values: NewMemberNumberRange, now: Date): Promise<MemberNumberRangeRow> {
  const id = await runTransaction(db, async (tx) => {
    await lockChainRanges(tx, values.chainId);
    await checkBounds(tx, values.chainId, values.first, values.last, null);
    const [res] = await tx.insert(memberNumberRanges).values({ ...values, nextNumber: values.first, createdDate: now, lastModifiedDate: now });
    return Number(res.insertId);
  });
  return (await findMemberNumberRange(db, values.chainId, id))!;
}

/**
 * Changes the live range `id` of chain `chainId`; a generated range's next number moves up to the
 * new `first` when it lay below it.
 * @returns the row after the change, or null when no live range has that id in the chain
 * @throws ServiceError parameter_invalid (419) as insertMemberNumberRange
 */
export async function updateMemberNumberRange(
  db: CoreDb,
  chainId: number,
  id: number,
  changes: MemberNumberRangeChanges,
  now: Date,
): Promise<MemberNumberRangeRow | null> {
  const found = await runTransaction(db, async (tx) => {
    await lockChainRanges(tx, chainId);
    const [row] = await tx.select().from(memberNumberRanges)
      .where(and(eq(memberNumberRanges.id, id), eq(memberNumberRanges.chainId, chainId), eq(memberNumberRanges.deleted, false)));
    if (!row) return false;
    const first = changes.first ?? row.first;
    const last = changes.last ?? row.last;
    await checkBounds(tx, chainId, first, last, id);
    await tx.update(memberNumberRanges)
      .set({ first, last, nextNumber: row.nextNumber < first ? first : row.nextNumber, lastUpdatedBy: changes.lastUpdatedBy, lastModifiedDate: now })
      .where(eq(memberNumberRanges.id, id));
    return true;
  });
  return found ? findMemberNumberRange(db, chainId, id, { includeDeleted: true }) : null;
}

/**
 * Soft-deletes the live range `id` of chain `chainId`: it no longer hands out or admits numbers.
 * @returns the deleted row, or null when no live range has that id in the chain
 */
export async function deleteMemberNumberRange(db: CoreDb, chainId: number, id: number, deletedBy: number | null, now: Date): Promise<MemberNumberRangeRow | null> {
  const [res] = await runStatement(() => db
    .update(memberNumberRanges)
    .set({ deleted: true, lastUpdatedBy: deletedBy, lastModifiedDate: now })
    .where(and(eq(memberNumberRanges.id, id), eq(memberNumberRanges.chainId, chainId), eq(memberNumberRanges.deleted, false))));
  if (res.affectedRows === 0) return null;
  return findMemberNumberRange(db, chainId, id, { includeDeleted: true });
}

/** The live range `id` of chain `chainId` (or, with includeDeleted, a deleted one); null when none. */
export async function findMemberNumberRange(
  db: CoreDb,
  chainId: number,
  id: number,
  opts: { includeDeleted?: boolean } = {},
): Promise<MemberNumberRangeRow | null> {
  const live = opts.includeDeleted ? undefined : eq(memberNumberRanges.deleted, false);
  return findRow(db, memberNumberRangeColumns, [eq(memberNumberRanges.chainId, chainId), eq(memberNumberRanges.id, id), live]);
}

/** One page of the chain's live ranges and the total (filters and sorts by the storage mapping). */
export async function listMemberNumberRanges(db: CoreDb, chainId: number, q: ListRequest): Promise<{ rows: MemberNumberRangeRow[]; total: number }> {
  return listRows(db, memberNumberRangeColumns, [eq(memberNumberRanges.chainId, chainId), eq(memberNumberRanges.deleted, false)], q);
}

/** The chain's live ranges, lowest first (what add-user checks a given member number against). */
export async function liveMemberNumberRanges(db: CoreDb | Tx, chainId: number): Promise<MemberNumberRangeRow[]> {
  return db.select().from(memberNumberRanges)
    .where(and(eq(memberNumberRanges.chainId, chainId), eq(memberNumberRanges.deleted, false)))
    .orderBy(asc(memberNumberRanges.first));
}

type Tx = Parameters<Parameters<CoreDb["transaction"]>[0]>[0];

async function checkBounds(tx: Tx, chainId: number, first: bigint, last: bigint, exceptId: number | null): Promise<void> {
  if (first > last) throw new ServiceError("parameter_invalid", `first (${first}) lies above last (${last}).`);
  const [clash] = await tx
    .select({ id: memberNumberRanges.id, first: memberNumberRanges.first, last: memberNumberRanges.last })
    .from(memberNumberRanges)
    .where(and(
      eq(memberNumberRanges.chainId, chainId),
      eq(memberNumberRanges.deleted, false),
      lte(memberNumberRanges.first, last),
      gte(memberNumberRanges.last, first),
      exceptId === null ? sql`true` : ne(memberNumberRanges.id, exceptId),
    ))
    .limit(1);
  if (clash) throw new ServiceError("parameter_invalid", `The range ${first}-${last} overlaps range ${clash.id} (${clash.first}-${clash.last}) of the chain.`);
}
