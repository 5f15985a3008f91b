/**
 * Basket pricing (handbook, "Baskets": pricing rules; spec, "Voucher" and "Chain"): which of a
 * member's vouchers apply to a basket and what each takes off, as pure functions on integer
 * cents (baskets/money.ts). get-basket-price answers with it and add-basket runs the same code
 * inside its transaction.
 *
 * Order of application: `basket_fixed_unit`, then `basket_pct`, then `basket`, then `honour`;
 * inside a type the soonest expiry first (none last), then the lowest id. Each voucher works on
 * what earlier ones left. A return's replacement vouchers applied at once (the chain's
 * regenerated_rewards_redeem_immediately; baskets/returns.ts) come after all the others, use only
 * what they take (never the always-full-value rule: the rest stays the member's), and when they
 * cannot apply they are left out rather than listed as not applied: the return issues them whole.
 */
import { multiplyHalfUp, splitByLargestRemainder, type Cents } from "./money.ts";
import { voucherRefusal, type PricingVoucher, type VoucherReason } from "./voucher-rules.ts";

export type { PricingVoucher, VoucherReason } from "./voucher-rules.ts";

/** The chain settings pricing reads, already picked for the basket's platform type. */
export interface PricingSettings {
  /** basket_voucher_always_redeem_full_value_{in_store,online} */
  alwaysRedeemFullValue: boolean;
  /** calculate_basket_on_total_value_{in_store,online} */
  calculateOnTotalValue: boolean;
  /** redeem_basket_voucher_on_negative_value_basket */
  redeemOnNegativeValueBasket: boolean;
  /** allows_double_discounting */
  allowsDoubleDiscounting: boolean;
  /** exclude_rewards_on_basket_campaign_discounted_items */
  excludeRewardsOnDiscountedItems: boolean;
}

/** One line of the basket: `price` is the line price for its quantity, in cents. */
export interface PricingLine {
  price: Cents;
  quantity: number;
  excludeFromVouchers: boolean;
  /** `return_item`, or a negative quantity or price */
  returnItem: boolean;
}

/** The basket as pricing sees it. */
export interface PricingBasket {
  totalPrice: Cents;
  /** null when no items were sent (then total mode) */
  lines: PricingLine[] | null;
  branchBusinessId: number | null;
  retailerBasketCode: string | null;
  /** the request's time: expiry and locks are judged at it */
  now: Date;
}

/** A return's replacement voucher priced before it is issued: the original's key, and whether it has its own key yet. */
export interface Replacement {
  parentKey: string;
  /** false in get-basket-price (nothing is issued there): the voucher's key is answered as null */
  issued: boolean;
}

/** A voucher considered, with the locking code its `basket_vouchers` entry carried. */
export interface ConsideredVoucher {
  voucher: PricingVoucher;
  lockingCode?: string | null;
  /** set for a return's replacement applied at once (see the module comment) */
  replacement?: Replacement;
}

export interface LineAdjustment {
  voucherKey: string;
  amount: Cents;
  replacement?: Replacement;
}

export interface PricedLine {
  discount: Cents;
  finalPrice: Cents;
  adjustments: LineAdjustment[];
}

export interface AppliedVoucher {
  voucher: PricingVoucher;
  discount: Cents;
  /** recorded on redemption; null for an honour voucher */
  amountRedeemed: Cents | null;
  /** what a partially used `basket` voucher leaves (0 when used in full or always full value) */
  remainder: Cents;
  replacement?: Replacement;
}

export interface PricingResult {
  /** null when no items were sent */
  lines: PricedLine[] | null;
  applied: AppliedVoucher[];
  notApplied: Array<{ voucher: PricingVoucher; reason: VoucherReason }>;
  basketDiscount: Cents;
  basketFinalPrice: Cents;
  rewardableTotal: Cents;
}

const TYPE_ORDER: Record<string, number> = { basket_fixed_unit: 0, basket_pct: 1, basket: 2, honour: 3 };

/** The order vouchers apply in (see the module comment). */
export function applicationOrder(a: PricingVoucher, b: PricingVoucher): number {
  const byType = (TYPE_ORDER[a.type] ?? 9) - (TYPE_ORDER[b.type] ?? 9);
  if (byType !== 0) return byType;
  const ea = a.expiryDate?.getTime() ?? Infinity;
  const eb = b.expiryDate?.getTime() ?? Infinity;
  if (ea !== eb) return ea < eb ? -1 : 1;
  return a.id - b.id;
}

interface LineState {
  left: Cents;
  discounted: boolean;
  adjustments: LineAdjustment[];
}

/**
 * Prices a basket with the vouchers considered (handbook, pricing rules). Never throws on a
 * voucher's state: a voucher that cannot apply is listed in `notApplied` with its reason.
 * @returns per line discount, final price and adjustments; the applied vouchers with discount,
 *   amount redeemed and remainder; the basket's discount (the sum of all discounts), final price
 *   (total minus discount) and rewardable total; all in cents
 */
export function priceBasket(basket: PricingBasket, considered: readonly ConsideredVoucher[], settings: PricingSettings): PricingResult {
  const itemMode = !settings.calculateOnTotalValue && basket.lines !== null;
  const lines: LineState[] = (basket.lines ?? []).map((l) => ({ left: l.price, discounted: false, adjustments: [] }));
  const applied: AppliedVoucher[] = [];
  const notApplied: PricingResult["notApplied"] = [];
  let totalLeft = basket.totalPrice;
  let totalDiscounted = false;
  const negative = basket.totalPrice < 0;

  const order = (a: ConsideredVoucher, b: ConsideredVoucher) => Number(!!a.replacement) - Number(!!b.replacement) || applicationOrder(a.voucher, b.voucher);
  for (const { voucher, lockingCode, replacement } of [...considered].sort(order)) {
    const notApply = (reason: VoucherReason) => {
      if (!replacement) notApplied.push({ voucher, reason });
    };
    const refusal = voucherRefusal(voucher, { ...basket, lockingCode: lockingCode ?? null });
    if (refusal) {
      notApply(refusal);
      continue;
    }
    if (voucher.type === "honour") {
      applied.push({ voucher, discount: 0, amountRedeemed: null, remainder: 0 });
      continue;
    }
    if (negative && !settings.redeemOnNegativeValueBasket) {
      notApply("negative_value_basket");
      continue;
    }
    const outcome = itemMode
      ? applyToLines(voucher, basket.lines!, lines, settings, replacement)
      : applyToTotal(voucher, Math.max(0, totalLeft), totalDiscounted, settings);
    if (typeof outcome === "string") {
      notApply(outcome);
      continue;
    }
    const discount = outcome;
    if (!itemMode) {
      totalLeft -= discount;
      totalDiscounted = true;
    }
    applied.push(replacement
      ? { voucher, discount, amountRedeemed: discount, remainder: Math.max(0, (voucher.amount ?? 0) - discount), replacement }
      : appliedVoucher(voucher, discount, settings));
  }
  return summary(basket, lines, applied, notApplied, itemMode, settings);
}

/**
 * Item mode: applies `voucher` to the eligible lines (changing their state).
 * @returns the discount in cents, or why the voucher does not apply
 */
function applyToLines(voucher: PricingVoucher, sent: readonly PricingLine[], lines: LineState[], settings: PricingSettings, replacement?: Replacement): Cents | VoucherReason {
  const open = sent.map((l, i) => !l.excludeFromVouchers && !l.returnItem && lines[i]!.left > 0);
  const eligible = open.map((ok, i) => ok && (settings.allowsDoubleDiscounting || !lines[i]!.discounted));
  if (!eligible.some(Boolean)) return open.some(Boolean) ? "double_discounting" : "nothing_to_discount";
  const shares = lineShares(voucher, sent, lines, eligible);
  const discount = shares.reduce((a, b) => a + b, 0);
  if (discount <= 0) return "nothing_to_discount";
  shares.forEach((share, i) => {
    if (share <= 0) return;
    const line = lines[i]!;
    line.left -= share;
    line.discounted = true;
    line.adjustments.push({ voucherKey: voucher.key, amount: share, ...(replacement ? { replacement } : {}) });
  });
  return discount;
}

/**
 * Total mode: the discount of `voucher` on what is left of the basket's total (`base`, >= 0).
 * @returns the discount in cents, or why the voucher does not apply
 */
function applyToTotal(voucher: PricingVoucher, base: Cents, totalDiscounted: boolean, settings: PricingSettings): Cents | VoucherReason {
  if (totalDiscounted && !settings.allowsDoubleDiscounting) return "double_discounting";
  const discount = voucher.type === "basket" ? Math.min(voucher.amount ?? 0, base)
    : voucher.type === "basket_pct" ? Math.min(multiplyHalfUp(base, voucher.discountRatio ?? 0), base)
    : 0;
  return discount > 0 ? discount : "nothing_to_discount";
}

/** The discount of one voucher on each line (0 on lines not eligible), item mode. */
function lineShares(voucher: PricingVoucher, sent: readonly PricingLine[], lines: readonly LineState[], eligible: readonly boolean[]): Cents[] {
  const base = lines.map((l, i) => (eligible[i] ? l.left : 0));
  switch (voucher.type) {
    case "basket": {
      const total = Math.min(voucher.amount ?? 0, base.reduce((a, b) => a + b, 0));
      return splitByLargestRemainder(total, base);
    }
    case "basket_pct":
      return base.map((b) => Math.min(b, multiplyHalfUp(b, voucher.discountRatio ?? 0)));
    case "basket_fixed_unit":
      return base.map((b, i) => (b > 0 ? Math.min(b, multiplyHalfUp(voucher.amount ?? 0, Math.abs(sent[i]!.quantity))) : 0));
    default:
      return base.map(() => 0);
  }
}

function appliedVoucher(voucher: PricingVoucher, discount: Cents, settings: PricingSettings): AppliedVoucher {
  if (voucher.type !== "basket") return { voucher, discount, amountRedeemed: discount, remainder: 0 };
  const amount = voucher.amount ?? 0;
  if (settings.alwaysRedeemFullValue) return { voucher, discount, amountRedeemed: amount, remainder: 0 };
  return { voucher, discount, amountRedeemed: discount, remainder: Math.max(0, amount - discount) };
}

function summary(
  basket: PricingBasket,
  lines: readonly LineState[],
  applied: AppliedVoucher[],
  notApplied: PricingResult["notApplied"],
  itemMode: boolean,
  settings: PricingSettings,
): PricingResult {
  const basketDiscount = applied.reduce((a, v) => a + v.discount, 0);
  const basketFinalPrice = basket.totalPrice - basketDiscount;
  const priced = basket.lines === null ? null : basket.lines.map((l, i) => {
    const state = lines[i]!;
    const discount = l.price - state.left;
    return { discount, finalPrice: state.left, adjustments: state.adjustments };
  });
  let rewardableTotal = basketFinalPrice;
  if (settings.excludeRewardsOnDiscountedItems) {
    if (!itemMode) rewardableTotal = basketDiscount > 0 ? 0 : basketFinalPrice;
    else rewardableTotal -= (priced ?? []).reduce((a, l) => a + (l.discount > 0 ? l.finalPrice : 0), 0);
  }
  return { lines: priced, applied, notApplied, basketDiscount, basketFinalPrice, rewardableTotal };
}

/** The chain's pricing settings by column (db/tables/chain-settings.ts). */
export interface ChainPricingColumns {
  basketVoucherAlwaysRedeemFullValueInStore: boolean;
  basketVoucherAlwaysRedeemFullValueOnline: boolean;
  calculateBasketOnTotalValueInStore: boolean;
  calculateBasketOnTotalValueOnline: boolean;
  redeemBasketVoucherOnNegativeValueBasket: boolean;
  allowsDoubleDiscounting: boolean;
  excludeRewardsOnBasketCampaignDiscountedItems: boolean;
}

/** A basket's platform type: it picks the `_in_store` / `_online` settings. */
export type BasketPlatformType = "in_store" | "online";

/** The settings of a chain for a basket of `platform` (the `_in_store` or `_online` variants). */
export function pricingSettingsFor(chain: ChainPricingColumns, platform: BasketPlatformType): PricingSettings {
  const inStore = platform === "in_store";
  return {
    alwaysRedeemFullValue: inStore ? chain.basketVoucherAlwaysRedeemFullValueInStore : chain.basketVoucherAlwaysRedeemFullValueOnline,
    calculateOnTotalValue: inStore ? chain.calculateBasketOnTotalValueInStore : chain.calculateBasketOnTotalValueOnline,
    redeemOnNegativeValueBasket: chain.redeemBasketVoucherOnNegativeValueBasket,
    allowsDoubleDiscounting: chain.allowsDoubleDiscounting,
    excludeRewardsOnDiscountedItems: chain.excludeRewardsOnBasketCampaignDiscountedItems,
  };
}
