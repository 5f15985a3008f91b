/**
 * Confirming a sale (handbook, "Baskets": add-basket): one runner transaction stores the priced
 * basket and redeems exactly the vouchers its `basket_vouchers` name, exactly once.
 *
 * In the transaction, in this order: the member (68 when no user of the chain) and the named
 * vouchers are locked `FOR UPDATE` in one statement (the member first, then the vouchers in key
 * order: no deadlocks; two baskets of one member see each other: the first-transaction rule and
 * the idempotency check) and priced with the chain's settings the authentication read; every named voucher must apply (its reason's error, 909-913 / 916) and
 * match its `expected_discount` (915); the basket is inserted and the vouchers set `redeemed`
 * in one UPDATE `WHERE status = 'claimed'`, as many rows changed as vouchers named or 910; partly
 * used vouchers leave claimed children with the rest (regenerate_vouchers_on_partial_redemption,
 * one INSERT), and a return records its quantities and issues replacement vouchers
 * (baskets/returns.ts), which with regenerated_rewards_redeem_immediately (read with the other
 * settings) are priced with the basket after its named vouchers and issued redeemed by it for what
 * they take. A plain sale (no return lines) reads nothing for returns. The basket answered is the row as inserted (its created_date in whole
 * seconds, as the column stores it), not read back.
 *
 * A basket already stored under the same `retailer_basket_code` is not looked up first: a copy of
 * it fails on its vouchers (already redeemed) or on the unique index, and the caller then answers
 * it as a replay or refuses it (914): add-basket, `answerStored`, also when a copy committed on
 * another node of a cluster surfaced here as its redeemed voucher (910). Nothing of the failed copy
 * is written.
 *
 * add-basket confirms through baskets/sale-batch.ts: concurrent sales share one such transaction
 * (group commit), each with its own answer; plain sales are written together there (priceSale,
 * redeemSales), and writeSale is any other sale's work in it, after a savepoint.
 *
 * A sale racing another for one voucher on one server waits for the voucher's lock and then
 * finds it redeemed: 910, and the rollback leaves nothing of it. On a Galera cluster `FOR UPDATE`
 * does not lock across nodes: the losing commit fails certification (1213), the runner re-runs
 * the whole unit, and the re-run finds the voucher redeemed (910) or the basket stored (the
 * unique index: a replay).
 */
import { runTransaction } from "@service/shared/node";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { AnyMySqlColumn } from "drizzle-orm/mysql-core";
import type { CoreDb } from "../db/client.ts";
import { baskets, users, vouchers } from "../db/schema.ts";
import { wholeSeconds } from "../db/whole-seconds.ts";
import { ServiceError } from "../http/service-error.ts";
import type { CoreTx } from "../users/member-numbers.ts";
import { generateVoucherKey } from "../vouchers/key.ts";
import type { BasketRequest, MemberKey } from "./basket-request.ts";
import { centsToNumber, toCents } from "./money.ts";
import { priceBasket, pricingSettingsFor, type ConsideredVoucher, type PricingResult } from "./pricing.ts";
import { immediateReplacements, matchReturns, pendingReplacements, settleReturns } from "./returns.ts";
import { lockMemberAndVouchers, type LockedVoucher, type SaleChain, type SaleMember } from "./sale-reads.ts";
import { REASON_ERRORS } from "./voucher-rules.ts";

export type BasketRow = typeof baskets.$inferSelect;

/** A sale to confirm. */
export interface Sale {
  chainId: number;
  /** the member, as the request names it (found and locked in the transaction) */
  member: NonNullable<MemberKey>;
  /** the chain's settings, read with the request's authentication (the chain head) */
  chain: SaleChain;
  basket: BasketRequest;
  /** the `items` column: the lines as sent, JSON; null without lines */
  itemsJson: string | null;
  /** SHA-256 hex of the canonical request */
  requestHash: string;
  /** the chain's first_transaction_sets_home_and_signup_store */
  firstTransactionSetsStores: boolean;
  now: Date;
  /** the pricing as answered, from the member and the priced basket (stored for replays) */
  answer: (user: SaleMember, priced: PricingResult, warnings: string[]) => unknown;
}

/** What a confirmation did: the new basket, and whether it issued vouchers. */
export type SaleOutcome = { basket: BasketRow; duplicate: boolean; issuedVouchers: boolean };

/**
 * Confirms a sale; see the module comment.
 * @throws ServiceError 68 for a member that is no user of the chain or a key that is no voucher of
 *   the member, 909-913 / 916 for a named voucher that cannot apply, 915
 *   basket_price_changed, 910 voucher_already_redeemed, 419 for a line returned beyond its
 *   original quantity; the duplicate-key error of `baskets_by_retailer_code` when the code is
 *   stored already, or of `basket_returns_of_line` when another return of a line committed
 *   meanwhile (add-basket's confirmSaleOnce runs the sale once more); nothing is written then
 */
export async function confirmSale(db: CoreDb, sale: Sale): Promise<SaleOutcome> {
  return runTransaction(db, (tx) => writeSale(tx, sale));
}

/**
 * The work of one sale inside a transaction that is open already (confirmSale's own, or a
 * group-commit transaction of several sales, baskets/sale-batch.ts); see the module comment. It
 * only touches the database and may run more than once.
 * @returns what confirmSale answers
 * @throws what confirmSale throws; the transaction is then the caller's to roll back (whole, or
 *   to a savepoint set before this sale)
 */
export async function writeSale(tx: CoreTx, sale: Sale): Promise<SaleOutcome> {
  const { chainId, basket, now, chain } = sale;
  const { user, locked } = await lockMemberAndVouchers(tx, chainId, sale.member, basket.entries ?? []);
  const returns = await matchReturns(tx, chainId, basket, true);
  // No statement for a basket without return lines, or whose returned lines carried no voucher.
  const pending = await pendingReplacements(tx, chainId, returns.matched, chain.expiredVouchersRegenerateOnReturn, now, true);
  const immediate = chain.regeneratedRewardsRedeemImmediately ? immediateReplacements(pending, user.id) : [];
  const { priced, row } = priceSale(sale, user, locked, immediate, returns.warnings);
  // Whether this is the member's first basket matters only to the first-transaction rule.
  const storesRule = setsStores(sale);
  const [earlier] = storesRule ? await tx.select({ id: baskets.id }).from(baskets).where(and(eq(baskets.chainId, chainId), eq(baskets.userId, user.id))).limit(1) : [];
  const basketId = Number((await tx.insert(baskets).values(row))[0].insertId);
  let issued = (await redeemSales(tx, [{ sale, basketId, priced, locked }]))[0]!;
  const used = new Map(priced.applied.flatMap((a) => (a.replacement ? [[a.voucher.key, a.discount] as const] : [])));
  issued += (await settleReturns(tx, chainId, basketId, returns.matched, pending, used, now)).length;
  if (storesRule && !earlier) {
    const store = basket.branchBusinessId!;
    await tx.update(users)
      .set({ signupStoreId: sql`COALESCE(${users.signupStoreId}, ${store})`, homeStoreId: sql`COALESCE(${users.homeStoreId}, ${store})`, lastModifiedDate: now })
      .where(eq(users.id, user.id));
  }
  return { basket: { id: basketId, ...row }, duplicate: false, issuedVouchers: issued > 0 };
}

/** Whether `sale` may set its member's stores (the first-transaction rule: a branch named, the chain's setting on). */
export function setsStores(sale: Sale): boolean {
  return sale.firstTransactionSetsStores && sale.basket.branchBusinessId !== null;
}

/**
 * Prices `sale` for `user` with its named vouchers `locked` (and a return's replacements applied
 * at once, `immediate`), checks every named voucher, and builds the basket row to store.
 * @returns the pricing and the row (its created_date in whole seconds: DATETIME keeps no more,
 *   so the row answered is the row stored, on every engine)
 * @throws ServiceError the reason's error of a named voucher that cannot apply (909-913, 916);
 *   915 basket_price_changed
 */
export function priceSale(sale: Sale, user: SaleMember, locked: readonly LockedVoucher[], immediate: readonly ConsideredVoucher[] = [], warnings: string[] = []): { priced: PricingResult; row: Omit<BasketRow, "id"> } {
  const { basket, now, chain } = sale;
  const priced = priceBasket({ totalPrice: basket.totalCents, lines: basket.pricingLines, branchBusinessId: basket.branchBusinessId, retailerBasketCode: basket.retailerBasketCode, now }, [...locked, ...immediate], pricingSettingsFor(chain, basket.platformType));
  checkNamedVouchers(priced, locked);
  const row: Omit<BasketRow, "id"> = {
    chainId: sale.chainId, userId: user.id, branchBusinessId: basket.branchBusinessId,
    basketTotalPrice: centsToNumber(basket.totalCents), items: sale.itemsJson,
    retailerBasketCode: basket.retailerBasketCode, basketPlatformType: basket.platformType,
    basketDiscount: centsToNumber(priced.basketDiscount), pricing: JSON.stringify(sale.answer(user, priced, warnings)),
    requestHash: sale.requestHash, createdDate: wholeSeconds(now),
  };
  return { priced, row };
}

/**
 * Every named voucher applies (else its reason's error) and gives the discount its entry
 * expected, when it says. A return's replacement applied at once is never refused: what it does
 * not take stays claimed (pricing lists no reason for it).
 * @throws ServiceError the reason's error (909-913, 916); 915 basket_price_changed
 */
function checkNamedVouchers(priced: PricingResult, locked: readonly LockedVoucher[]): void {
  for (const { voucher, reason } of priced.notApplied) throw new ServiceError(REASON_ERRORS[reason], `Voucher ${voucher.key}: ${reason.replaceAll("_", " ")}.`);
  for (const c of locked) {
    const expected = c.entry.expected_discount;
    const given = priced.applied.find((a) => a.voucher.id === c.voucher.id)!.discount;
    if (expected !== undefined && toCents(expected) !== given) throw new ServiceError("basket_price_changed", `Voucher ${c.voucher.key} gives ${centsToNumber(given).toFixed(2)}, not ${Number(expected).toFixed(2)}.`);
  }
}

/** A stored basket's named vouchers to redeem: its sale, its id, its pricing, its locked vouchers. */
export interface Redemption {
  sale: Sale;
  basketId: number;
  priced: PricingResult;
  locked: readonly LockedVoucher[];
}

/**
 * Sets the applied named vouchers of `redemptions` `redeemed`, each by its own basket, in one
 * UPDATE (basket_id, amount_redeemed and the dates by a CASE on the voucher's id where they
 * differ), and issues the claimed children of partly used ones in one INSERT, where the sale's
 * chain regenerates them (regenerate_vouchers_on_partial_redemption). A return's replacements
 * applied at once have no row yet: settleReturns issues them redeemed.
 * @returns per redemption, how many children it issued
 * @throws ServiceError 910 voucher_already_redeemed when not every voucher was still claimed
 */
export async function redeemSales(tx: CoreTx, redemptions: readonly Redemption[]): Promise<number[]> {
  const applied = redemptions.flatMap((r) => r.priced.applied.filter((a) => !a.replacement).map((a) => ({ r, a })));
  if (applied.length === 0) return redemptions.map(() => 0);
  const ids = applied.map(({ a }) => a.voucher.id);
  const byVoucher = (column: AnyMySqlColumn, value: (x: (typeof applied)[number]) => unknown): unknown => {
    const values = applied.map(value);
    const same = (v: unknown) => (v instanceof Date && values[0] instanceof Date ? v.getTime() === values[0].getTime() : v === values[0]);
    if (values.every(same)) return values[0];
    return sql`CASE ${vouchers.id} ${sql.join(applied.map((x, i) => sql`WHEN ${x.a.voucher.id} THEN ${sql.param(values[i], column)}`), sql` `)} END`;
  };
  const [done] = await tx.update(vouchers)
    .set({
      status: "redeemed", dbRedeemedDate: sql`CURRENT_TIMESTAMP`,
      basketId: byVoucher(vouchers.basketId, (x) => x.r.basketId) as number,
      amountRedeemed: byVoucher(vouchers.amountRedeemed, (x) => (x.a.amountRedeemed === null ? null : centsToNumber(x.a.amountRedeemed))) as number | null,
      redeemedDate: byVoucher(vouchers.redeemedDate, (x) => x.r.sale.now) as Date,
      lastModifiedDate: byVoucher(vouchers.lastModifiedDate, (x) => x.r.sale.now) as Date,
    })
    .where(and(inArray(vouchers.id, ids), eq(vouchers.status, "claimed")));
  if (done.affectedRows !== ids.length) {
    throw new ServiceError("voucher_already_redeemed", `A voucher of ${applied.map(({ a }) => a.voucher.key).join(", ")} has already been redeemed.`);
  }
  const children = applied.filter(({ r, a }) => r.sale.chain.regenerateVouchersOnPartialRedemption && a.remainder > 0).map(({ r, a }) => {
    const parent = r.locked.find((c) => c.voucher.id === a.voucher.id)!.row;
    const { chainId, now } = r.sale;
    return {
      row: {
        chainId, key: generateVoucherKey(), type: "basket", status: "claimed", campaignId: parent.campaignId, userId: parent.userId,
        currencyId: parent.currencyId, parentVoucherId: parent.id, amount: centsToNumber(a.remainder), expiryDate: parent.expiryDate,
        title: parent.title, description: parent.description, lockedUntil: now, createdDate: now, lastModifiedDate: now,
      },
      of: r,
    };
  });
  if (children.length > 0) await tx.insert(vouchers).values(children.map((c) => c.row));
  return redemptions.map((r) => children.filter((c) => c.of === r).length);
}
