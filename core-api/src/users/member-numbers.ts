/**
 * Member numbers of users (spec, "Internal call: add-user": member_number "auto-generated unless
 * given; must lie in an assigned range"; handbook, "The user"): a given number must lie in one of
 * the chain's live ranges; without one, the next free number of the chain's generated ranges is
 * taken in the transaction that stores the user, under the range's row lock, so no two users ever
 * get one and a refused request leaves the counter as it was (the transaction rolls back).
 * A chain with no live generated range first gets the default one (DEFAULT_GENERATED_RANGE,
 * 10000000-99999999), created in that same transaction under the chain's range-write lock
 * (users/range-write-lock.ts), so two racing first users create it once and still get different
 * numbers, on one server and across the nodes of a Galera cluster.
 */
import { DEFAULT_GENERATED_RANGE, RANGE_BOUND } from "@service/shared/resources/member-number-range";
import { and, asc, eq, gte, lte, sql } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { memberNumberRanges, users } from "../db/schema.ts";
import { ServiceError } from "../http/service-error.ts";
import type { MemberNumberRangeRow } from "./member-number-range-columns.ts";
import { lockChainRanges } from "./range-write-lock.ts";

/** A transaction of the core database. */
export type CoreTx = Parameters<Parameters<CoreDb["transaction"]>[0]>[0];

/**
 * The live range of `ranges` that holds member number `number`.
 * @returns the range, or null when the number is no range bound's form (decimal, no leading zero) or lies in none
 */
export function rangeOf(ranges: readonly MemberNumberRangeRow[], number: string): MemberNumberRangeRow | null {
  if (!RANGE_BOUND.test(number)) return null;
  const n = BigInt(number);
  return ranges.find((r) => !r.deleted && r.first <= n && n <= r.last) ?? null;
}

/**
 * Requires a given member number to lie in one of the chain's live ranges.
 * @returns the range it lies in
 * @throws ServiceError parameter_invalid (419) when it lies in none
 */
export function requireInRange(ranges: readonly MemberNumberRangeRow[], number: string): MemberNumberRangeRow {
  const range = rangeOf(ranges, number);
  if (!range) throw new ServiceError("parameter_invalid", `member_number ${number} lies in none of the chain's member-number ranges.`);
  return range;
}

/**
 * Takes the next free number of the chain's generated ranges (lowest range first), skipping
 * numbers callers gave to users, and moves the range's counter past it. Runs inside the
 * transaction that stores the user and holds the range's row lock until it ends. A chain without
 * a live generated range gets the default one first (module comment).
 * @param now the default range's created_date, when it is created
 * @returns the number
 * @throws ServiceError parameter_invalid (419) when every generated range is used up, or when the
 *   chain has none and the default range would overlap one of its custom ranges
 */
export async function takeGeneratedNumber(tx: CoreTx, chainId: number, now: Date): Promise<string> {
  // A plain read first, so the common case takes no chain lock; ensureDefaultRange checks again under it.
  if (!(await hasGeneratedRange(tx, chainId, false))) await ensureDefaultRange(tx, chainId, now);
  for (;;) {
    const [range] = await tx
      .select()
      .from(memberNumberRanges)
      .where(and(
        eq(memberNumberRanges.chainId, chainId),
        eq(memberNumberRanges.deleted, false),
        eq(memberNumberRanges.kind, "generated"),
        lte(memberNumberRanges.nextNumber, memberNumberRanges.last),
      ))
      .orderBy(asc(memberNumberRanges.first))
      .limit(1)
      .for("update");
    if (!range) {
      // Deleted since the check above: the chain is without a generated range again.
      if (!(await hasGeneratedRange(tx, chainId, true))) {
        await ensureDefaultRange(tx, chainId, now);
        continue;
      }
      throw new ServiceError("parameter_invalid", "The chain's generated member-number ranges are used up.");
    }
    let candidate = range.nextNumber;
    while (candidate <= range.last && (await numberTaken(tx, chainId, String(candidate)))) candidate += 1n;
    await tx.update(memberNumberRanges).set({ nextNumber: candidate + 1n }).where(eq(memberNumberRanges.id, range.id));
    if (candidate <= range.last) return String(candidate);
  }
}

/** Whether chain `chainId` has a live generated range (used up or not); `locking`: a locking read, which sees the latest commit. */
async function hasGeneratedRange(tx: CoreTx, chainId: number, locking: boolean): Promise<boolean> {
  const query = tx.select({ id: memberNumberRanges.id }).from(memberNumberRanges)
    .where(and(eq(memberNumberRanges.chainId, chainId), eq(memberNumberRanges.deleted, false), eq(memberNumberRanges.kind, "generated"))).limit(1);
  const [row] = locking ? await query.for("update") : await query;
  return row !== undefined;
}

/**
 * Gives chain `chainId` the default generated range unless it has a generated range by now,
 * under the chain's range-write lock (users/range-write-lock.ts: a write of the chain's row, which
 * also makes racing creations on two Galera nodes conflict), so racing callers create it once.
 * @throws ServiceError parameter_invalid (419) when the default range overlaps a live range of the chain
 */
async function ensureDefaultRange(tx: CoreTx, chainId: number, now: Date): Promise<void> {
  await lockChainRanges(tx, chainId);
  if (await hasGeneratedRange(tx, chainId, true)) return;
  const { first, last } = DEFAULT_GENERATED_RANGE;
  const [clash] = await tx.select({ id: memberNumberRanges.id }).from(memberNumberRanges)
    .where(and(eq(memberNumberRanges.chainId, chainId), eq(memberNumberRanges.deleted, false), lte(memberNumberRanges.first, last), gte(memberNumberRanges.last, first)))
    .limit(1);
  if (clash) {
    throw new ServiceError("parameter_invalid", `The chain has no generated member-number range, and the default one (${first}-${last}) overlaps its range ${clash.id}: give the chain a generated range.`);
  }
  await tx.insert(memberNumberRanges).values({ chainId, kind: "generated", first, last, nextNumber: first, lastUpdatedBy: null, createdDate: now, lastModifiedDate: now });
}

async function numberTaken(tx: CoreTx, chainId: number, number: string): Promise<boolean> {
  const [row] = await tx.select({ one: sql`1` }).from(users).where(and(eq(users.chainId, chainId), eq(users.memberNumber, number))).limit(1);
  return row !== undefined;
}
