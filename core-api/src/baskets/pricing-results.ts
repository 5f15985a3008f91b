/**
 * The pricing of a basket as the calls answer it (handbook, "Baskets": get-basket-price's
 * response): money as decimal strings with exactly 2 places, discounts as positive amounts. A
 * return's replacement voucher applied at once names its original as `parent_voucher_key`; its
 * own key is null until add-basket issues it.
 */
import type { BasketPricing } from "@service/shared/internal/basket-params";
import type { UserRow } from "../users/user-repository.ts";
import type { BasketRequest } from "./basket-request.ts";
import { formatCents } from "./money.ts";
import type { PricingResult, Replacement } from "./pricing.ts";

/** get-basket-price's results (without result_type), add-basket's `pricing`. */
export function pricingResults(user: Pick<UserRow, "id" | "memberNumber"> | null, basket: BasketRequest, priced: PricingResult, warnings: string[] = []): BasketPricing {
  return {
    user: user === null ? null : { id: user.id, member_number: user.memberNumber },
    basket_platform_type: basket.platformType,
    retailer_basket_code: basket.retailerBasketCode,
    basket_total_price: formatCents(basket.totalCents),
    basket_items: basket.lines === null ? null : basket.lines.map((line, i) => {
      const p = priced.lines![i]!;
      return {
        ...line,
        discount: formatCents(p.discount),
        final_price: formatCents(p.finalPrice),
        adjustments: p.adjustments.map((a) => ({ voucher_key: keyOf(a.voucherKey, a.replacement), amount: formatCents(a.amount), ...parentOf(a.replacement) })),
      };
    }),
    vouchers_applied: priced.applied.map((a) => ({
      key: keyOf(a.voucher.key, a.replacement),
      type: a.voucher.type,
      discount: formatCents(a.discount),
      amount_redeemed: a.amountRedeemed === null ? null : formatCents(a.amountRedeemed),
      honour_code: a.voucher.honourCode,
      ...parentOf(a.replacement),
    })),
    vouchers_not_applied: priced.notApplied.map((n) => ({ key: n.voucher.key, reason: n.reason })),
    basket_discount: formatCents(priced.basketDiscount),
    basket_final_price: formatCents(priced.basketFinalPrice),
    rewardable_total: formatCents(priced.rewardableTotal),
    warnings,
  };
}

/** A voucher's key as answered: null for a return's replacement not issued yet (get-basket-price). */
const keyOf = (key: string, replacement?: Replacement): string | null => (replacement && !replacement.issued ? null : key);

/** `parent_voucher_key` of a return's replacement applied at once; nothing for other vouchers. */
const parentOf = (replacement?: Replacement) => (replacement ? { parent_voucher_key: replacement.parentKey } : {});
