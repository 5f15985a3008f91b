/**
 * Returns (handbook, "Baskets": returns): a return is a new basket whose return lines
 * (`return_item`, or a negative quantity or price) name `original_retailer_basket_code` and the
 * original line's `retailer_item_code`. The original basket is never changed and its vouchers
 * stay redeemed (spec: redeemed is final).
 *
 * - A line that matches no original line of the chain stays a plain negative line, with the
 *   warning `original_basket_item_not_found`.
 * - A line returned beyond its original quantity (across all returns) is refused: 419.
 * - A returned line that carried voucher discounts gets each back, in proportion to the quantity
 *   returned, as a replacement voucher: type `basket`, the original's user, `parent_voucher` the
 *   original, `generating_return_transaction` the return basket, status `claimed`, the original's
 *   expiry; an original that has expired is replaced only with the chain's
 *   expired_vouchers_regenerate_on_return, then valid for the original's validity length from now.
 * - With the chain's regenerated_rewards_redeem_immediately, the member's own replacements are
 *   priced with the basket, after its named vouchers (baskets/pricing.ts): an exchange's new lines
 *   take them at once. The part a basket takes is issued redeemed by it, the rest (all of it when
 *   nothing is left to discount) claimed, as without the setting; both name the original as
 *   parent and the return basket as generating transaction, and their amounts add up to the refund.
 */
import type { BasketPricing } from "@service/shared/internal/basket-params";
import { and, eq, inArray, max, sql, sum } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { basketReturns, baskets, chains, vouchers } from "../db/schema.ts";
import { ServiceError } from "../http/service-error.ts";
import type { CoreTx } from "../users/member-numbers.ts";
import { generateVoucherKey } from "../vouchers/key.ts";
import type { BasketRequest, VoucherRow } from "./basket-request.ts";
import type { ConsideredVoucher } from "./pricing.ts";
import type { PricingVoucher } from "./voucher-rules.ts";
import { centsToNumber, divideHalfUp, toCents, type Cents } from "./money.ts";

/** A return line matched to its original line. */
export interface MatchedReturn {
  originalBasketId: number;
  retailerItemCode: string;
  /** the quantity returned now (positive) */
  quantity: number;
  /** this return row's number among the line's returns (basket_returns.line_return_number) */
  lineReturnNumber: number;
  /** the original line's voucher adjustments, each scaled to the quantity returned */
  refunds: Array<{ voucherKey: string; amount: Cents }>;
}

const SCALE = 1_000_000;
const scaled = (q: number) => BigInt(Math.round(Math.abs(q) * SCALE));

/**
 * Matches the basket's return lines to their original lines (a locking read of each original
 * basket when `lock`), checks the quantities, and scales the original discounts.
 * @returns the matched returns and the warnings of lines that match nothing
 * @throws ServiceError 419 parameter_invalid for a line returned beyond its original quantity
 */
export async function matchReturns(db: CoreDb | CoreTx, chainId: number, basket: BasketRequest, lock: boolean): Promise<{ matched: MatchedReturn[]; warnings: string[] }> {
  const matched: MatchedReturn[] = [];
  const warnings = new Set<string>();
  for (const [i, line] of (basket.lines ?? []).entries()) {
    const code = line.original_retailer_basket_code;
    if (!basket.pricingLines![i]!.returnItem || !code) continue;
    const query = db.select({ id: baskets.id, pricing: baskets.pricing }).from(baskets).where(and(eq(baskets.chainId, chainId), eq(baskets.retailerBasketCode, code)));
    const [original] = lock ? await query.for("update") : await query;
    const originalLine = original?.pricing ? (JSON.parse(original.pricing) as BasketPricing).basket_items?.find((l) => l.retailer_item_code === line.retailer_item_code) : undefined;
    if (!original || !originalLine || !line.retailer_item_code) {
      warnings.add("original_basket_item_not_found");
      continue;
    }
    // A locking read when confirming: it reads the latest rows, not the transaction's snapshot,
    // so a return that waited for the original basket's lock sees the one that held it.
    const doneQuery = db.select({ q: sum(basketReturns.quantity), last: max(basketReturns.lineReturnNumber) }).from(basketReturns)
      .where(and(eq(basketReturns.originalBasketId, original.id), eq(basketReturns.retailerItemCode, line.retailer_item_code)));
    const [done] = lock ? await doneQuery.for("update") : await doneQuery;
    const sameLine = matched.filter((m) => m.originalBasketId === original.id && m.retailerItemCode === line.retailer_item_code);
    const earlier = sameLine.reduce((a, m) => a + m.quantity, 0);
    const quantity = Math.abs(line.item_quantity);
    const originalQuantity = Math.abs(Number(originalLine.item_quantity ?? 1));
    if (scaled(Number(done?.q ?? 0) + earlier + quantity) > scaled(originalQuantity)) {
      throw new ServiceError("parameter_invalid", `basket_items[${i}]: ${line.retailer_item_code} of ${code} is returned beyond its original quantity ${originalQuantity}.`);
    }
    const refunds = originalLine.adjustments.map((a) => ({
      voucherKey: a.voucher_key,
      amount: Number(divideHalfUp(BigInt(toCents(a.amount) ?? 0) * scaled(quantity), scaled(originalQuantity))),
    })).filter((r): r is { voucherKey: string; amount: Cents } => r.amount > 0 && r.voucherKey !== null);
    const lineReturnNumber = Number(done?.last ?? 0) + sameLine.length + 1;
    matched.push({ originalBasketId: original.id, retailerItemCode: line.retailer_item_code, quantity, lineReturnNumber, refunds });
  }
  return { matched, warnings: [...warnings] };
}

/** A replacement voucher a return is to issue, not written yet. */
export interface PendingReplacement {
  /** the voucher as pricing sees it: a claimed `basket` voucher of the refund, a negative id (no row's) */
  voucher: PricingVoucher;
  parent: VoucherRow;
  expiryDate: Date | null;
}

/**
 * The replacement vouchers the matched returns issue (see the module comment): one per returned
 * line and original voucher, the original's expiry, or none for an expired original unless
 * `regenerateExpired`. Reads the original vouchers in one query.
 * @param issueKeys true: each gets the key it is issued under (add-basket); false: an empty key
 *   (get-basket-price, which issues nothing)
 */
export async function pendingReplacements(db: CoreDb | CoreTx, chainId: number, matched: readonly MatchedReturn[], regenerateExpired: boolean, now: Date, issueKeys: boolean): Promise<PendingReplacement[]> {
  const keys = [...new Set(matched.flatMap((m) => m.refunds.map((r) => r.voucherKey)))];
  if (keys.length === 0) return [];
  const parents = new Map((await db.select().from(vouchers).where(and(eq(vouchers.chainId, chainId), inArray(vouchers.key, keys)))).map((v) => [v.key, v]));
  const pending: PendingReplacement[] = [];
  for (const refund of matched.flatMap((m) => m.refunds)) {
    const parent = parents.get(refund.voucherKey);
    if (!parent) continue;
    let expiryDate = parent.expiryDate;
    if (expiryDate !== null && expiryDate.getTime() <= now.getTime()) {
      if (!regenerateExpired) continue;
      expiryDate = new Date(now.getTime() + (expiryDate.getTime() - parent.createdDate.getTime()));
    }
    const voucher: PricingVoucher = {
      id: -(pending.length + 1), key: issueKeys ? generateVoucherKey() : "", type: "basket", status: "claimed", deleted: false,
      amount: refund.amount, discountRatio: null, expiryDate, lockedUntil: now, basketOwnerCodeExclusive: null, lockingCode: null,
      redemptionExclusiveBusinessId: null, honourCode: null,
    };
    pending.push({ voucher, parent, expiryDate });
  }
  return pending;
}

/**
 * The pending replacements as vouchers a basket of member `userId` considers, applied at once
 * (regenerated_rewards_redeem_immediately): only the member's own (a return made by someone
 * else issues the original owner's replacement whole).
 */
export function immediateReplacements(pending: readonly PendingReplacement[], userId: number | null): ConsideredVoucher[] {
  return pending.filter((p) => p.parent.userId === userId)
    .map((p) => ({ voucher: p.voucher, replacement: { parentKey: p.parent.key, issued: p.voucher.key !== "" } }));
}

/**
 * get-basket-price's view of the replacements a basket takes at once: none without the chain's
 * regenerated_rewards_redeem_immediately, a member, or a refund to replace (the settings are read
 * only then). Their keys are empty: nothing is issued.
 */
export async function previewImmediateReplacements(db: CoreDb, chainId: number, matched: readonly MatchedReturn[], userId: number | null, now: Date): Promise<ConsideredVoucher[]> {
  if (userId === null || !matched.some((m) => m.refunds.length > 0)) return [];
  const settings = await returnSettings(db, chainId);
  if (!settings.regeneratedRewardsRedeemImmediately) return [];
  return immediateReplacements(await pendingReplacements(db, chainId, matched, settings.expiredVouchersRegenerateOnReturn, now, false), userId);
}

/** The chain's return settings (read only for a basket that has something to replace). */
export async function returnSettings(db: CoreDb, chainId: number): Promise<{ expiredVouchersRegenerateOnReturn: boolean; regeneratedRewardsRedeemImmediately: boolean }> {
  const [row] = await db.select({ expiredVouchersRegenerateOnReturn: chains.expiredVouchersRegenerateOnReturn, regeneratedRewardsRedeemImmediately: chains.regeneratedRewardsRedeemImmediately })
    .from(chains).where(eq(chains.id, chainId));
  return row ?? { expiredVouchersRegenerateOnReturn: false, regeneratedRewardsRedeemImmediately: false };
}

/**
 * Records the returned quantities of the return basket `returnBasketId` and issues the pending
 * replacement vouchers: one the basket used (`used`, by key) is issued redeemed by it for what it
 * took, and what it left (or the whole refund) as a claimed voucher of the member.
 * @returns the ids of the replacement vouchers
 */
export async function settleReturns(tx: CoreTx, chainId: number, returnBasketId: number, matched: readonly MatchedReturn[], pending: readonly PendingReplacement[], used: ReadonlyMap<string, Cents>, now: Date): Promise<number[]> {
  const issued: number[] = [];
  for (const m of matched) {
    await tx.insert(basketReturns).values({ chainId, originalBasketId: m.originalBasketId, retailerItemCode: m.retailerItemCode, returnBasketId, quantity: m.quantity, lineReturnNumber: m.lineReturnNumber });
  }
  for (const { voucher, parent, expiryDate } of pending) {
    const taken = used.get(voucher.key) ?? 0;
    const values = {
      chainId, type: "basket", campaignId: parent.campaignId, userId: parent.userId, currencyId: parent.currencyId, parentVoucherId: parent.id,
      generatingReturnTransactionId: returnBasketId, expiryDate, title: parent.title, description: parent.description, lockedUntil: now, createdDate: now, lastModifiedDate: now,
    };
    if (taken > 0) {
      const [res] = await tx.insert(vouchers).values({
        ...values, key: voucher.key, status: "redeemed", amount: centsToNumber(taken), amountRedeemed: centsToNumber(taken),
        basketId: returnBasketId, redeemedDate: now, dbRedeemedDate: sql`CURRENT_TIMESTAMP`,
      });
      issued.push(Number(res.insertId));
    }
    const rest = (voucher.amount ?? 0) - taken;
    if (rest <= 0) continue;
    const [res] = await tx.insert(vouchers).values({ ...values, key: taken > 0 ? generateVoucherKey() : voucher.key, status: "claimed", amount: centsToNumber(rest) });
    issued.push(Number(res.insertId));
  }
  return issued;
}
