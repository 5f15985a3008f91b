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
 */
import type { BasketPricing } from "@service/shared/internal/basket-params";
import { and, eq, max, sum } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { basketReturns, baskets, vouchers } from "../db/schema.ts";
import { ServiceError } from "../http/service-error.ts";
import type { CoreTx } from "../users/member-numbers.ts";
import { generateVoucherKey } from "../vouchers/key.ts";
import type { BasketRequest } from "./basket-request.ts";
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
    })).filter((r) => r.amount > 0);
    const lineReturnNumber = Number(done?.last ?? 0) + sameLine.length + 1;
    matched.push({ originalBasketId: original.id, retailerItemCode: line.retailer_item_code, quantity, lineReturnNumber, refunds });
  }
  return { matched, warnings: [...warnings] };
}

/**
 * Records the returned quantities of the return basket `returnBasketId` and issues the
 * replacement vouchers (see the module comment).
 * @returns the ids of the replacement vouchers
 */
export async function settleReturns(tx: CoreTx, chainId: number, returnBasketId: number, matched: readonly MatchedReturn[], regenerateExpired: boolean, now: Date): Promise<number[]> {
  const issued: number[] = [];
  for (const m of matched) {
    await tx.insert(basketReturns).values({ chainId, originalBasketId: m.originalBasketId, retailerItemCode: m.retailerItemCode, returnBasketId, quantity: m.quantity, lineReturnNumber: m.lineReturnNumber });
    for (const refund of m.refunds) {
      const [parent] = await tx.select().from(vouchers).where(and(eq(vouchers.chainId, chainId), eq(vouchers.key, refund.voucherKey)));
      if (!parent) continue;
      let expiryDate = parent.expiryDate;
      if (expiryDate !== null && expiryDate.getTime() <= now.getTime()) {
        if (!regenerateExpired) continue;
        expiryDate = new Date(now.getTime() + (expiryDate.getTime() - parent.createdDate.getTime()));
      }
      const [res] = await tx.insert(vouchers).values({
        chainId, key: generateVoucherKey(), type: "basket", status: "claimed", campaignId: parent.campaignId, userId: parent.userId,
        currencyId: parent.currencyId, parentVoucherId: parent.id, generatingReturnTransactionId: returnBasketId,
        amount: centsToNumber(refund.amount), expiryDate, title: parent.title, description: parent.description,
        lockedUntil: now, createdDate: now, lastModifiedDate: now,
      });
      issued.push(Number(res.insertId));
    }
  }
  return issued;
}
