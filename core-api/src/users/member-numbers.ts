/**
 * Member numbers of users (spec, "Internal call: add-user": member_number "auto-generated unless
 * given; must lie in an assigned range"; handbook, "The user"): a given number must lie in one of
 * the chain's live ranges; without one, the next free number of the chain's generated ranges is
 * taken in the transaction that stores the user, under the range's row lock, so no two users ever
 * get one and a refused request leaves the counter as it was (the transaction rolls back).
 */
import { RANGE_BOUND } from "@service/shared/resources/member-number-range";
import { and, asc, eq, lte, sql } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { memberNumberRanges, users } from "../db/schema.ts";
import { ServiceError } from "../http/service-error.ts";
import type { MemberNumberRangeRow } from "./member-number-range-columns.ts";

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
 * transaction that stores the user and holds the range's row lock until it ends.
 * @returns the number, or null when the chain has no generated range (its users get none)
 * @throws ServiceError parameter_invalid (419) when every generated range is used up
 */
export async function takeGeneratedNumber(tx: CoreTx, chainId: number): Promise<string | null> {
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
      const [any] = await tx.select({ id: memberNumberRanges.id }).from(memberNumberRanges)
        .where(and(eq(memberNumberRanges.chainId, chainId), eq(memberNumberRanges.deleted, false), eq(memberNumberRanges.kind, "generated"))).limit(1);
      if (!any) return null;
      throw new ServiceError("parameter_invalid", "The chain's generated member-number ranges are used up.");
    }
    let candidate = range.nextNumber;
    while (candidate <= range.last && (await numberTaken(tx, chainId, String(candidate)))) candidate += 1n;
    await tx.update(memberNumberRanges).set({ nextNumber: candidate + 1n }).where(eq(memberNumberRanges.id, range.id));
    if (candidate <= range.last) return String(candidate);
  }
}

async function numberTaken(tx: CoreTx, chainId: number, number: string): Promise<boolean> {
  const [row] = await tx.select({ one: sql`1` }).from(users).where(and(eq(users.chainId, chainId), eq(users.memberNumber, number))).limit(1);
  return row !== undefined;
}
