/**
 * What add-basket reads, in two statements (handbook, "Baskets": add-basket): before its
 * transaction, the chain's pricing settings and the member in one compiled statement (a prepared
 * statement read by position: db/compiled-select.ts); inside it, the member's row and the named
 * vouchers locked `FOR UPDATE` in one statement (the member first, then the vouchers in key order,
 * as the join reads them), only the voucher columns pricing and a remainder voucher need.
 *
 * Errors: 68 permission_denied_or_non_existent for a member that is no user of the chain, or a
 * voucher key that is no voucher of the member in the chain; 419 parameter_invalid for a key
 * named twice.
 */
import type { BasketVoucherEntry } from "@service/shared/internal/basket-params";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { compileSelect, qb, type CompiledSelect } from "../db/compiled-select.ts";
import type { CoreDb } from "../db/client.ts";
import { chains, users, vouchers } from "../db/schema.ts";
import { ServiceError } from "../http/service-error.ts";
import type { CoreTx } from "../users/member-numbers.ts";
import { PRICING_COLUMNS, PRICING_VOUCHER_COLUMNS, pricingVoucherOf, type MemberKey } from "./basket-request.ts";
import type { ChainPricingColumns, ConsideredVoucher } from "./pricing.ts";

const DENIED = "permission_denied_or_non_existent";

/** The member as a sale needs it: the id it locks and stores, the member number it answers. */
export interface SaleMember {
  id: number;
  memberNumber: string | null;
}

/** The chain settings a sale reads: pricing's, and the two that decide which vouchers it issues. */
export type SaleChain = ChainPricingColumns & { regenerateVouchersOnPartialRedemption: boolean; expiredVouchersRegenerateOnReturn: boolean };

const SALE_CHAIN_COLUMNS = {
  ...PRICING_COLUMNS,
  regenerateVouchersOnPartialRedemption: chains.regenerateVouchersOnPartialRedemption,
  expiredVouchersRegenerateOnReturn: chains.expiredVouchersRegenerateOnReturn,
};

type MemberColumn = NonNullable<MemberKey>["column"];

/** One compiled statement per member identifier: the chain's row, the member LEFT JOINed on it. */
const CHAIN_AND_MEMBER = new Map<MemberColumn, CompiledSelect<{ chain: SaleChain; user: SaleMember | null }, "chainId" | "member">>();

function chainAndMember(column: MemberColumn) {
  let statement = CHAIN_AND_MEMBER.get(column);
  if (!statement) {
    statement = compileSelect(
      qb.select({ chain: SALE_CHAIN_COLUMNS, user: { id: users.id, memberNumber: users.memberNumber } }).from(chains)
        .leftJoin(users, and(eq(users.chainId, chains.id), eq(users[column], sql.placeholder("member"))))
        .where(eq(chains.id, sql.placeholder("chainId"))).limit(1),
      ["chainId", "member"],
    );
    CHAIN_AND_MEMBER.set(column, statement);
  }
  return statement;
}

/**
 * The chain's settings and the member named by `member`, in one statement, outside any transaction.
 * @throws ServiceError 68 when the chain is gone or the member is no user of the chain
 */
export async function readSaleInputs(db: CoreDb, chainId: number, member: NonNullable<MemberKey>): Promise<{ chain: SaleChain; user: SaleMember }> {
  const [row] = await chainAndMember(member.column).run(db, { chainId, member: member.value });
  if (!row) throw new ServiceError(DENIED);
  if (!row.user) throw new ServiceError(DENIED, "The member named is no user of the chain.");
  return { chain: row.chain, user: row.user };
}

/** The voucher columns a sale reads: pricing's (pricingVoucherOf), the owner, and what a remainder voucher copies. */
const SALE_VOUCHER_COLUMNS = {
  ...PRICING_VOUCHER_COLUMNS, userId: vouchers.userId, campaignId: vouchers.campaignId, currencyId: vouchers.currencyId, title: vouchers.title, description: vouchers.description,
};

/** A voucher row as a sale reads it. */
export type SaleVoucherRow = { [K in keyof typeof SALE_VOUCHER_COLUMNS]: (typeof vouchers.$inferSelect)[K] };

/** A named voucher, locked, with its entry. */
export type LockedVoucher = ConsideredVoucher & { row: SaleVoucherRow; entry: BasketVoucherEntry };

/**
 * Locks the member's row and the vouchers `entries` name (`FOR UPDATE`, one statement: the member
 * first, then the vouchers in key order, so two sales never deadlock on them), inside the sale's
 * transaction.
 * @returns the entries' vouchers, in the entries' order
 * @throws ServiceError 419 for a key named twice; 68 for a key that is no voucher of the member in the chain
 */
export async function lockMemberAndVouchers(tx: CoreTx, chainId: number, userId: number, entries: readonly BasketVoucherEntry[]): Promise<LockedVoucher[]> {
  const keys = [...new Set(entries.map((e) => e.key))].sort();
  if (keys.length !== entries.length) throw new ServiceError("parameter_invalid", "A voucher key appears twice in basket_vouchers.");
  if (keys.length === 0) {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
    return [];
  }
  const rows = await tx.select({ userId: users.id, voucher: SALE_VOUCHER_COLUMNS }).from(users)
    .leftJoin(vouchers, and(eq(vouchers.chainId, chainId), inArray(vouchers.key, keys)))
    .where(eq(users.id, userId)).orderBy(asc(vouchers.key)).for("update");
  const byKey = new Map(rows.flatMap((r) => (r.voucher ? [[r.voucher.key, r.voucher] as const] : [])));
  return entries.map((entry) => {
    const row = byKey.get(entry.key);
    if (!row || row.userId !== userId) throw new ServiceError(DENIED, `Voucher ${entry.key} is no voucher of this member.`);
    return { voucher: pricingVoucherOf(row), lockingCode: entry.locking_code ?? null, row, entry };
  });
}
