/**
 * What add-basket reads (handbook, "Baskets": add-basket), in one statement inside its
 * transaction: the member's row and the named vouchers locked `FOR UPDATE` (the member first, by
 * its unique identifier in the chain, then the vouchers in key order, as the join reads them),
 * only the voucher columns pricing and a remainder voucher need. The chain's settings come with
 * the request's authentication (chains/chain-columns.ts, the chain head).
 *
 * Errors: 68 permission_denied_or_non_existent for a member that is no user of the chain, or a
 * voucher key that is no voucher of the member in the chain; 419 parameter_invalid for a key
 * named twice.
 */
import type { BasketVoucherEntry } from "@service/shared/internal/basket-params";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { users, vouchers } from "../db/schema.ts";
import { ServiceError } from "../http/service-error.ts";
import type { CoreTx } from "../users/member-numbers.ts";
import { PRICING_VOUCHER_COLUMNS, pricingVoucherOf, type MemberKey } from "./basket-request.ts";
import type { ChainPricingColumns, ConsideredVoucher } from "./pricing.ts";

const DENIED = "permission_denied_or_non_existent";

/** The member as a sale needs it: the id it locks and stores, the member number it answers. */
export interface SaleMember {
  id: number;
  memberNumber: string | null;
}

/**
 * The chain settings a sale reads: pricing's, the two that decide which vouchers it issues, and
 * whether an exchange's new lines take the return's replacements at once.
 */
export type SaleChain = ChainPricingColumns & { regenerateVouchersOnPartialRedemption: boolean; expiredVouchersRegenerateOnReturn: boolean; regeneratedRewardsRedeemImmediately: boolean };

/** The voucher columns a sale reads: pricing's (pricingVoucherOf), the owner, and what a remainder voucher copies. */
const SALE_VOUCHER_COLUMNS = {
  ...PRICING_VOUCHER_COLUMNS, userId: vouchers.userId, campaignId: vouchers.campaignId, currencyId: vouchers.currencyId, title: vouchers.title, description: vouchers.description,
};

/** A voucher row as a sale reads it. */
export type SaleVoucherRow = { [K in keyof typeof SALE_VOUCHER_COLUMNS]: (typeof vouchers.$inferSelect)[K] };

/** A named voucher, locked, with its entry. */
export type LockedVoucher = ConsideredVoucher & { row: SaleVoucherRow; entry: BasketVoucherEntry };

/**
 * Locks the member named by `member` in chain `chainId` and the vouchers `entries` name
 * (`FOR UPDATE`, one statement: the member first, then the vouchers in key order, so two sales
 * never deadlock on them), inside the sale's transaction. The member is found by a unique key (its
 * id, or a unique identifier of the chain): a record lock, no gap locked when it is there.
 * @returns the member, and the entries' vouchers in the entries' order
 * @throws ServiceError 419 for a key named twice; 68 for a member that is no user of the chain,
 *   or a key that is no voucher of the member in the chain
 */
export async function lockMemberAndVouchers(tx: CoreTx, chainId: number, member: NonNullable<MemberKey>, entries: readonly BasketVoucherEntry[]): Promise<{ user: SaleMember; locked: LockedVoucher[] }> {
  const keys = keysOf(entries);
  const rows = await tx.select({ user: { id: users.id, memberNumber: users.memberNumber }, voucher: SALE_VOUCHER_COLUMNS }).from(users)
    .leftJoin(vouchers, keys.length === 0 ? sql`false` : and(eq(vouchers.chainId, chainId), inArray(vouchers.key, keys)))
    .where(and(eq(users.chainId, chainId), eq(users[member.column], member.value))).orderBy(asc(vouchers.key)).for("update");
  const user = rows[0]?.user;
  if (!user) throw new ServiceError(DENIED, "The member named is no user of the chain.");
  return { user, locked: lockedOf(user, new Map(rows.flatMap((r) => (r.voucher ? [[r.voucher.key, r.voucher] as const] : []))), entries) };
}

/** What lockMembersAndVouchers read: the members found by id, and the vouchers of each by key. */
export interface LockedMembers {
  members: Map<number, { user: SaleMember; vouchers: Map<string, SaleVoucherRow> }>;
}

/**
 * Locks the members `userIds` of chain `chainId` and those of their vouchers whose keys are in
 * `keys` (`FOR UPDATE`, one statement: each member, then its vouchers in key order), for several
 * sales of one group-commit transaction (baskets/sale-batch.ts). A key that is no voucher of one
 * of these members locks nothing: the sale naming it is refused (68) by lockedFor.
 * @returns the members found, each with its vouchers among `keys`
 */
export async function lockMembersAndVouchers(tx: CoreTx, chainId: number, userIds: readonly number[], keys: readonly string[]): Promise<LockedMembers> {
  const ownVoucher = keys.length === 0 ? sql`false` : and(eq(vouchers.chainId, chainId), eq(vouchers.userId, users.id), inArray(vouchers.key, [...keys]));
  const rows = await tx.select({ user: { id: users.id, memberNumber: users.memberNumber }, voucher: SALE_VOUCHER_COLUMNS }).from(users)
    .leftJoin(vouchers, ownVoucher)
    .where(and(eq(users.chainId, chainId), inArray(users.id, [...userIds]))).orderBy(asc(users.id), asc(vouchers.key)).for("update");
  const members: LockedMembers["members"] = new Map();
  for (const { user, voucher } of rows) {
    let member = members.get(user.id);
    if (!member) members.set(user.id, (member = { user, vouchers: new Map() }));
    if (voucher) member.vouchers.set(voucher.key, voucher);
  }
  return { members };
}

/**
 * One sale's member and named vouchers out of what lockMembersAndVouchers read.
 * @throws ServiceError 419 for a key named twice; 68 for a member that is no user of the chain,
 *   or a key that is no voucher of the member
 */
export function lockedFor(read: LockedMembers, userId: number, entries: readonly BasketVoucherEntry[]): { user: SaleMember; locked: LockedVoucher[] } {
  keysOf(entries); // 419 for a key named twice, as a sale alone refuses it
  const member = read.members.get(userId);
  if (!member) throw new ServiceError(DENIED, "The member named is no user of the chain.");
  return { user: member.user, locked: lockedOf(member.user, member.vouchers, entries) };
}

/**
 * The keys `entries` name, sorted (the order their vouchers are locked in).
 * @throws ServiceError 419 parameter_invalid for a key named twice
 */
function keysOf(entries: readonly BasketVoucherEntry[]): string[] {
  const keys = [...new Set(entries.map((e) => e.key))].sort();
  if (keys.length !== entries.length) throw new ServiceError("parameter_invalid", "A voucher key appears twice in basket_vouchers.");
  return keys;
}

/**
 * The entries' vouchers of `user`, in the entries' order, out of the rows read by key.
 * @throws ServiceError 68 for a key that is no voucher of the member in the chain
 */
function lockedOf(user: SaleMember, byKey: ReadonlyMap<string, SaleVoucherRow>, entries: readonly BasketVoucherEntry[]): LockedVoucher[] {
  return entries.map((entry) => {
    const row = byKey.get(entry.key);
    if (!row || row.userId !== user.id) throw new ServiceError(DENIED, `Voucher ${entry.key} is no voucher of this member.`);
    return { voucher: pricingVoucherOf(row), lockingCode: entry.locking_code ?? null, row, entry };
  });
}
