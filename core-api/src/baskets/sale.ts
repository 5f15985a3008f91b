/**
 * Confirming a sale (handbook, "Baskets": add-basket): one runner transaction stores the priced
 * basket and redeems exactly the vouchers its `basket_vouchers` name, exactly once.
 *
 * In the transaction, in this order: the member's row is locked (two baskets of one member see
 * each other: the first-transaction rule and the idempotency check); a basket already stored
 * under the same `retailer_basket_code` is answered as a replay or refused (914; another
 * member's copy racing this one loses on the unique index, and add-basket answers it so); the named vouchers are locked `FOR UPDATE` in key
 * order (no deadlocks) and priced again; every named voucher must apply (its reason's error,
 * 909-913 / 916) and match its `expected_discount` (915); the basket is inserted and each voucher
 * set `redeemed` with `WHERE status = 'claimed'`, one row changed or 910; a partly used voucher
 * leaves a claimed child with the rest (regenerate_vouchers_on_partial_redemption), and a return
 * records its quantities and issues replacement vouchers (baskets/returns.ts), which with
 * regenerated_rewards_redeem_immediately are priced with the basket and redeemed by it for what
 * they take.
 *
 * A sale racing another for one voucher on one server waits for the voucher's lock and then
 * finds it redeemed: 910, and the rollback leaves nothing of it. On a Galera cluster `FOR UPDATE`
 * does not lock across nodes: the losing commit fails certification (1213), the runner re-runs
 * the whole unit, and the re-run finds the voucher redeemed (910) or the basket stored (replay).
 */
import { runTransaction } from "@service/shared/node";
import { and, eq, sql } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { baskets, users, vouchers } from "../db/schema.ts";
import { ServiceError } from "../http/service-error.ts";
import type { UserRow } from "../users/user-repository.ts";
import { generateVoucherKey } from "../vouchers/key.ts";
import { chainPricingColumns, consideredVouchers, type BasketRequest } from "./basket-request.ts";
import { centsToNumber, toCents } from "./money.ts";
import { priceBasket, pricingSettingsFor, type PricingResult } from "./pricing.ts";
import { immediateReplacements, matchReturns, pendingReplacements, settleReturns } from "./returns.ts";
import { REASON_ERRORS } from "./voucher-rules.ts";

export type BasketRow = typeof baskets.$inferSelect;

/** A sale to confirm. */
export interface Sale {
  chainId: number;
  user: UserRow;
  basket: BasketRequest;
  /** the `items` column: the lines as sent, JSON; null without lines */
  itemsJson: string | null;
  /** SHA-256 hex of the canonical request */
  requestHash: string;
  /** the chain's first_transaction_sets_home_and_signup_store */
  firstTransactionSetsStores: boolean;
  now: Date;
  /** the pricing as answered, from the priced basket (stored for replays) */
  answer: (priced: PricingResult, warnings: string[]) => unknown;
}

/**
 * What a confirmation did: a new basket, or the one stored before under the same code; whether
 * it issued vouchers (a replay: not known here, so true, and the caller reads them).
 */
export type SaleOutcome = { basket: BasketRow; duplicate: boolean; issuedVouchers: boolean };

/**
 * Confirms a sale; see the module comment.
 * @throws ServiceError 914 basket_already_exists (same code, other content), 909-913 / 916 for a
 *   named voucher that cannot apply, 915 basket_price_changed, 910 voucher_already_redeemed; nothing
 *   is written then
 */
export async function confirmSale(db: CoreDb, sale: Sale): Promise<SaleOutcome> {
  const { chainId, user, basket, now } = sale;
  return runTransaction(db, async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for("update");
    if (basket.retailerBasketCode !== null) {
      // A plain read, never a locking one: a locking read of a code not stored yet would gap-lock
      // the index's end, where every new code goes, and make concurrent sales deadlock. The member's
      // row lock above already orders two copies of one sale; the unique index decides the rest.
      const [stored] = await tx.select().from(baskets)
        .where(and(eq(baskets.chainId, chainId), eq(baskets.retailerBasketCode, basket.retailerBasketCode)));
      if (stored) return replayOf(stored, sale.requestHash);
    }
    const chain = await chainPricingColumns(tx, chainId);
    const considered = await consideredVouchers(tx, chainId, user, basket.entries ?? [], true);
    const returns = await matchReturns(tx, chainId, basket, true);
    const pending = await pendingReplacements(tx, chainId, returns.matched, chain.expiredVouchersRegenerateOnReturn, now, true);
    const immediate = chain.regeneratedRewardsRedeemImmediately ? immediateReplacements(pending, user.id) : [];
    const priced = priceBasket({ totalPrice: basket.totalCents, lines: basket.pricingLines, branchBusinessId: basket.branchBusinessId, retailerBasketCode: basket.retailerBasketCode, now }, [...considered, ...immediate], pricingSettingsFor(chain, basket.platformType));
    checkNamedVouchers(considered, priced);
    // Whether this is the member's first basket matters only to the first-transaction rule.
    const storesRule = sale.firstTransactionSetsStores && basket.branchBusinessId !== null;
    const [earlier] = storesRule ? await tx.select({ id: baskets.id }).from(baskets).where(and(eq(baskets.chainId, chainId), eq(baskets.userId, user.id))).limit(1) : [];
    const [res] = await tx.insert(baskets).values({
      chainId, userId: user.id, branchBusinessId: basket.branchBusinessId,
      basketTotalPrice: centsToNumber(basket.totalCents), items: sale.itemsJson,
      retailerBasketCode: basket.retailerBasketCode, basketPlatformType: basket.platformType,
      basketDiscount: centsToNumber(priced.basketDiscount), pricing: JSON.stringify(sale.answer(priced, returns.warnings)),
      requestHash: sale.requestHash, createdDate: now,
    });
    const basketId = Number(res.insertId);
    const regenerate = chain.regenerateVouchersOnPartialRedemption;
    let issued = 0;
    for (const a of priced.applied) {
      if (a.replacement) continue; // issued by settleReturns, redeemed by this basket
      const [done] = await tx.update(vouchers).set({
        status: "redeemed", basketId, redeemedDate: now, dbRedeemedDate: sql`CURRENT_TIMESTAMP`, lastModifiedDate: now,
        amountRedeemed: a.amountRedeemed === null ? null : centsToNumber(a.amountRedeemed),
      }).where(and(eq(vouchers.id, a.voucher.id), eq(vouchers.status, "claimed")));
      if (done.affectedRows !== 1) throw new ServiceError("voucher_already_redeemed", `Voucher ${a.voucher.key} has already been redeemed.`);
      if (regenerate && a.remainder > 0) {
        const parent = considered.find((c) => c.voucher.id === a.voucher.id)!.row;
        issued += 1;
        await tx.insert(vouchers).values({
          chainId, key: generateVoucherKey(), type: "basket", status: "claimed", campaignId: parent.campaignId, userId: user.id,
          currencyId: parent.currencyId, parentVoucherId: parent.id, amount: centsToNumber(a.remainder), expiryDate: parent.expiryDate,
          title: parent.title, description: parent.description, lockedUntil: now, createdDate: now, lastModifiedDate: now,
        });
      }
    }
    issued += (await settleReturns(tx, chainId, basketId, returns.matched, pending, new Map(priced.applied.filter((a) => a.replacement).map((a) => [a.voucher.key, a.discount])), now)).length;
    if (storesRule && !earlier) {
      const store = basket.branchBusinessId!;
      await tx.update(users)
        .set({ signupStoreId: sql`COALESCE(${users.signupStoreId}, ${store})`, homeStoreId: sql`COALESCE(${users.homeStoreId}, ${store})`, lastModifiedDate: now })
        .where(eq(users.id, user.id));
    }
    const [row] = await tx.select().from(baskets).where(eq(baskets.id, basketId));
    return { basket: row!, duplicate: false, issuedVouchers: issued > 0 };
  });
}

/**
 * Every named voucher applies (else its reason's error, 909-913 / 916) and gives the discount its
 * entry expected, when it says (else 915 basket_price_changed).
 */
function checkNamedVouchers(considered: ReadonlyArray<Awaited<ReturnType<typeof consideredVouchers>>[number]>, priced: PricingResult): void {
  for (const { voucher, reason } of priced.notApplied) throw new ServiceError(REASON_ERRORS[reason], `Voucher ${voucher.key}: ${reason.replaceAll("_", " ")}.`);
  for (const c of considered) {
    const expected = c.entry?.expected_discount;
    const given = priced.applied.find((a) => a.voucher.id === c.voucher.id)!.discount;
    if (expected !== undefined && toCents(expected) !== given) throw new ServiceError("basket_price_changed", `Voucher ${c.voucher.key} gives ${centsToNumber(given).toFixed(2)}, not ${Number(expected).toFixed(2)}.`);
  }
}

function replayOf(stored: BasketRow, requestHash: string): SaleOutcome {
  if (stored.requestHash !== requestHash) throw new ServiceError("basket_already_exists", `retailer_basket_code ${stored.retailerBasketCode} is a basket with other content.`);
  return { basket: stored, duplicate: true, issuedVouchers: true };
}
