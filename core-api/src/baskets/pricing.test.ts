/**
 * The pricing matrix (handbook, "Baskets": pricing rules), pure and table-driven: each voucher
 * type in item and total mode, each chain setting on and off, and the voucher states (expired,
 * locked, wrong business) and line kinds (excluded, return) that keep a voucher or a line out.
 */
import { describe, expect, it } from "vitest";
import { priceBasket, pricingSettingsFor, type ConsideredVoucher, type PricingBasket, type PricingLine, type PricingSettings, type PricingVoucher } from "./pricing.ts";

const NOW = new Date("2026-11-21T10:00:00Z");
const PAST = new Date("2026-11-20T10:00:00Z");
const FUTURE = new Date("2026-12-21T10:00:00Z");
const OFF: PricingSettings = { alwaysRedeemFullValue: false, calculateOnTotalValue: false, redeemOnNegativeValueBasket: false, allowsDoubleDiscounting: false, excludeRewardsOnDiscountedItems: false };

let ids = 0;
const voucher = (type: string, o: Partial<PricingVoucher> = {}): PricingVoucher => ({
  id: ++ids, key: `k${ids}`, type, status: "claimed", deleted: false, amount: null, discountRatio: null, expiryDate: null,
  lockedUntil: PAST, basketOwnerCodeExclusive: null, lockingCode: null, redemptionExclusiveBusinessId: null, honourCode: null, ...o,
});
const line = (price: number, o: Partial<PricingLine> = {}): PricingLine => ({ price, quantity: 1, excludeFromVouchers: false, returnItem: false, ...o });
const basket = (lines: PricingLine[] | null, o: Partial<PricingBasket> = {}): PricingBasket => ({
  totalPrice: (lines ?? []).reduce((a, l) => a + l.price, 0), lines, branchBusinessId: 7, retailerBasketCode: null, now: NOW, ...o,
});
const price = (b: PricingBasket, vs: Array<PricingVoucher | ConsideredVoucher>, s: Partial<PricingSettings> = {}) =>
  priceBasket(b, vs.map((v) => ("voucher" in v ? v : { voucher: v })), { ...OFF, ...s });

describe("each voucher type, item mode and total mode", () => {
  // [type, voucher fields, lines (cents), item-mode line discounts, total-mode discount]
  const cases: Array<[string, Partial<PricingVoucher>, PricingLine[], number[], number]> = [
    ["basket", { amount: 500 }, [line(1000), line(2000)], [167, 333], 500],
    ["basket", { amount: 5000 }, [line(1000), line(2000)], [1000, 2000], 3000], // capped at the base
    ["basket_pct", { discountRatio: 0.1 }, [line(1005), line(5)], [101, 1], 101], // per line half-up; total once
    ["basket_pct", { discountRatio: 0.15 }, [line(333), line(333)], [50, 50], 100],
    ["basket_fixed_unit", { amount: 150 }, [line(1000, { quantity: 3 }), line(200, { quantity: 2 }), line(300, { quantity: 1.5 })], [450, 200, 225], 0],
    ["honour", { honourCode: "FREE-COFFEE" }, [line(1000)], [0], 0],
  ];
  for (const [type, fields, lines, perLine, totalDiscount] of cases) {
    it(`${type} ${JSON.stringify(fields)} item mode: ${perLine.join(", ")}`, () => {
      const v = voucher(type, fields);
      const r = price(basket(lines), [v]);
      expect(r.lines!.map((l) => l.discount)).toEqual(perLine);
      expect(r.basketDiscount).toBe(perLine.reduce((a, b) => a + b, 0));
      expect(r.lines!.map((l) => l.finalPrice)).toEqual(lines.map((l, i) => l.price - perLine[i]!));
      expect(r.applied.map((a) => a.voucher.key)).toEqual([v.key]);
      if (type === "honour") expect(r.applied[0]).toMatchObject({ discount: 0, amountRedeemed: null });
    });
    it(`${type} ${JSON.stringify(fields)} total mode: ${totalDiscount}`, () => {
      const v = voucher(type, fields);
      const r = price(basket(lines), [v], { calculateOnTotalValue: true });
      expect(r.basketDiscount).toBe(totalDiscount);
      expect(r.lines!.map((l) => l.discount)).toEqual(lines.map(() => 0)); // lines echoed unchanged
      if (type === "basket_fixed_unit") expect(r.notApplied).toEqual([{ voucher: v, reason: "nothing_to_discount" }]);
      else expect(r.applied).toHaveLength(1);
    });
  }

  it("no items sent is total mode on basket_total_price (which may include shipping)", () => {
    const r = price(basket(null, { totalPrice: 1995 }), [voucher("basket_pct", { discountRatio: 0.5 })]);
    expect(r).toMatchObject({ lines: null, basketDiscount: 998, basketFinalPrice: 997 });
  });
});

describe("in store and online pick their own settings", () => {
  const chain = {
    basketVoucherAlwaysRedeemFullValueInStore: true, basketVoucherAlwaysRedeemFullValueOnline: false,
    calculateBasketOnTotalValueInStore: false, calculateBasketOnTotalValueOnline: true,
    redeemBasketVoucherOnNegativeValueBasket: true, allowsDoubleDiscounting: false, excludeRewardsOnBasketCampaignDiscountedItems: true,
  };
  it.each([
    ["in_store", { alwaysRedeemFullValue: true, calculateOnTotalValue: false }],
    ["online", { alwaysRedeemFullValue: false, calculateOnTotalValue: true }],
  ] as const)("%s", (platform, expected) => {
    expect(pricingSettingsFor(chain, platform)).toEqual({ ...expected, redeemOnNegativeValueBasket: true, allowsDoubleDiscounting: false, excludeRewardsOnDiscountedItems: true });
  });
});

describe("basket_voucher_always_redeem_full_value", () => {
  it.each([
    [true, 2000, 0],
    [false, 1200, 800],
  ])("%s: amount_redeemed %s, remainder %s", (on, redeemed, remainder) => {
    const r = price(basket([line(1200)]), [voucher("basket", { amount: 2000 })], { alwaysRedeemFullValue: on });
    expect(r.applied[0]).toMatchObject({ discount: 1200, amountRedeemed: redeemed, remainder });
  });
  it("does not touch percentage vouchers", () => {
    const r = price(basket([line(1000)]), [voucher("basket_pct", { discountRatio: 0.2 })], { alwaysRedeemFullValue: true });
    expect(r.applied[0]).toMatchObject({ discount: 200, amountRedeemed: 200, remainder: 0 });
  });
});

describe("redeem_basket_voucher_on_negative_value_basket", () => {
  const lines = () => [line(1000), line(-3000, { quantity: -1, returnItem: true })];
  it("off: basket-type vouchers stay out of a negative basket; honour still applies", () => {
    const b = voucher("basket", { amount: 500 });
    const h = voucher("honour");
    const r = price(basket(lines()), [b, h]);
    expect(r.notApplied).toEqual([{ voucher: b, reason: "negative_value_basket" }]);
    expect(r.applied.map((a) => a.voucher)).toEqual([h]);
    expect(r.basketFinalPrice).toBe(-2000);
  });
  it("on: they apply to the positive eligible lines only, never the return line", () => {
    const r = price(basket(lines()), [voucher("basket", { amount: 500 })], { redeemOnNegativeValueBasket: true });
    expect(r.lines!.map((l) => l.discount)).toEqual([500, 0]);
    expect(r.basketFinalPrice).toBe(-2500);
  });
});

describe("allows_double_discounting", () => {
  const vs = () => [voucher("basket_pct", { discountRatio: 0.1 }), voucher("basket", { amount: 300 })];
  it("off, item mode: a line takes one voucher; the second finds nothing left", () => {
    const [pct, amt] = vs();
    const r = price(basket([line(1000), line(1000, { excludeFromVouchers: true })]), [amt!, pct!]);
    expect(r.applied.map((a) => a.voucher)).toEqual([pct]); // basket_pct applies first
    expect(r.notApplied).toEqual([{ voucher: amt, reason: "double_discounting" }]);
  });
  it("fixed unit is capped at the line price; a zero-priced line takes nothing", () => {
    const fixed = voucher("basket_fixed_unit", { amount: 600 });
    const r = price(basket([line(1000, { quantity: 2 }), line(0), line(1000, { quantity: 0.5 })]), [fixed]);
    expect(r.lines!.map((l) => l.discount)).toEqual([1000, 0, 300]);
    expect(r.lines!.map((l) => l.adjustments)).toEqual([[{ voucherKey: fixed.key, amount: 1000 }], [], [{ voucherKey: fixed.key, amount: 300 }]]);
  });
  it("on, item mode: each voucher works on what the earlier ones left", () => {
    const [pct, amt] = vs();
    const r = price(basket([line(1000), line(1000)]), [pct!, amt!], { allowsDoubleDiscounting: true });
    expect(r.lines!.map((l) => l.adjustments.map((a) => a.amount))).toEqual([[100, 150], [100, 150]]);
    expect(r.basketDiscount).toBe(500);
  });
  it("off, total mode: one basket voucher only; on: both", () => {
    const [pct, amt] = vs();
    expect(price(basket([line(2000)]), [pct!, amt!], { calculateOnTotalValue: true }).notApplied).toEqual([{ voucher: amt, reason: "double_discounting" }]);
    expect(price(basket([line(2000)]), [pct!, amt!], { calculateOnTotalValue: true, allowsDoubleDiscounting: true }).basketDiscount).toBe(200 + 300);
  });
});

describe("exclude_rewards_on_basket_campaign_discounted_items", () => {
  it.each([
    [false, false, 2500],
    [true, false, 2000], // the discounted line adds nothing, the excluded one its 20.00
    [false, true, 2500],
    [true, true, 0], // total mode: any discount makes it 0
  ])("setting %s, total mode %s: rewardable %s", (on, total, rewardable) => {
    const r = price(basket([line(1000), line(2000, { excludeFromVouchers: true })]), [voucher("basket", { amount: 500 })], { excludeRewardsOnDiscountedItems: on, calculateOnTotalValue: total });
    expect(r.rewardableTotal).toBe(rewardable);
  });
});

describe("voucher states and lines", () => {
  const b = (o: Partial<PricingBasket> = {}) => basket([line(1000)], o);
  it.each([
    ["expired", voucher("basket", { amount: 100, expiryDate: NOW }), b(), "expired"],
    ["not yet expired", voucher("basket", { amount: 100, expiryDate: FUTURE }), b(), null],
    ["locked, no codes", voucher("basket", { amount: 100, lockedUntil: FUTURE }), b(), "locked"],
    ["locked, exclusive code matches", voucher("basket", { amount: 100, lockedUntil: FUTURE, basketOwnerCodeExclusive: "R-1" }), b({ retailerBasketCode: "R-1" }), null],
    ["locked, exclusive code differs", voucher("basket", { amount: 100, lockedUntil: FUTURE, basketOwnerCodeExclusive: "R-1" }), b({ retailerBasketCode: "R-2" }), "locked"],
    ["locked, locking code matches", { voucher: voucher("basket", { amount: 100, lockedUntil: FUTURE, lockingCode: "L" }), lockingCode: "L" }, b(), null],
    ["locked, locking code differs", { voucher: voucher("basket", { amount: 100, lockedUntil: FUTURE, lockingCode: "L" }), lockingCode: "M" }, b(), "locked"],
    ["lapsed lock", voucher("basket", { amount: 100, lockedUntil: NOW, basketOwnerCodeExclusive: "R-1" }), b(), null],
    ["wrong business", voucher("basket", { amount: 100, redemptionExclusiveBusinessId: 8 }), b(), "wrong_business"],
    ["right business", voucher("basket", { amount: 100, redemptionExclusiveBusinessId: 7 }), b(), null],
    ["no business", voucher("basket", { amount: 100, redemptionExclusiveBusinessId: 7 }), b({ branchBusinessId: null }), "wrong_business"],
    ["generated", voucher("basket", { amount: 100, status: "generated" }), b(), "not_claimed"],
    ["redeemed", voucher("basket", { amount: 100, status: "redeemed" }), b(), "already_redeemed"],
    ["excluded line", voucher("basket", { amount: 100 }), basket([line(1000, { excludeFromVouchers: true })]), "nothing_to_discount"],
    ["return line", voucher("basket", { amount: 100 }), basket([line(1000, { returnItem: true })]), "nothing_to_discount"],
  ] as const)("%s", (_name, v, bk, reason) => {
    const r = price(bk, [v as PricingVoucher | ConsideredVoucher]);
    if (reason === null) expect(r.applied).toHaveLength(1);
    else expect(r.notApplied.map((n) => n.reason)).toEqual([reason]);
  });
});

describe("order and rounding", () => {
  it("fixed unit, then percentage, then amount; soonest expiry, then lowest id inside a type", () => {
    const late = voucher("basket", { amount: 100, expiryDate: FUTURE });
    const soon = voucher("basket", { amount: 100, expiryDate: new Date("2026-11-30T00:00:00Z") });
    const none = voucher("basket", { amount: 100 });
    const pct = voucher("basket_pct", { discountRatio: 0.1 });
    const fixed = voucher("basket_fixed_unit", { amount: 10 });
    const r = price(basket([line(10_000)]), [none, late, pct, soon, fixed], { allowsDoubleDiscounting: true });
    expect(r.applied.map((a) => a.voucher)).toEqual([fixed, pct, soon, late, none]);
    expect(r.applied.map((a) => a.discount)).toEqual([10, 999, 100, 100, 100]); // 10% of 99.90 = 9.99
  });
  it("the sum of line discounts equals basket_discount, lines never below 0", () => {
    const lines = [line(1), line(3), line(5), line(7), line(11), line(13)];
    for (let amount = 1; amount <= 45; amount++) {
      const r = price(basket(lines), [voucher("basket", { amount })]);
      expect(r.lines!.reduce((a, l) => a + l.discount, 0)).toBe(r.basketDiscount);
      expect(r.lines!.every((l) => l.finalPrice >= 0)).toBe(true);
      expect(r.basketDiscount).toBe(Math.min(amount, 40));
    }
  });
});

describe("a return's replacement applied at once (regenerated_rewards_redeem_immediately)", () => {
  const replacement = (amount: number): ConsideredVoucher => ({ voucher: voucher("basket", { id: -1, amount, lockedUntil: NOW }), replacement: { parentKey: "orig", issued: true } });
  // An exchange: a returned line (-10.00) and a new one (15.00).
  const exchange = () => basket([line(-1000, { returnItem: true, quantity: -1 }), line(1500)]);

  it("comes after the named vouchers, whatever their type and expiry, and takes what they left", () => {
    const r = replacement(800);
    const named = voucher("basket", { amount: 1000, expiryDate: FUTURE });
    const out = price(exchange(), [r, named], { allowsDoubleDiscounting: true });
    expect(out.applied.map((a) => [a.voucher.key, a.discount])).toEqual([[named.key, 1000], [r.voucher.key, 500]]);
    expect(out.lines![1]!.adjustments).toEqual([{ voucherKey: named.key, amount: 1000 }, { voucherKey: r.voucher.key, amount: 500, replacement: r.replacement }]);
    expect(out.applied[1]).toMatchObject({ amountRedeemed: 500, remainder: 300, replacement: r.replacement });
  });

  it("redeems only what it takes even with always-full-value (the rest stays the member's)", () => {
    const out = price(exchange(), [replacement(2000)], { alwaysRedeemFullValue: true });
    expect(out.applied[0]).toMatchObject({ discount: 1500, amountRedeemed: 1500, remainder: 500 });
    expect(out.basketDiscount).toBe(1500);
  });

  it("is left out, not listed as not applied, when it cannot apply: nothing new to discount, a negative basket, double discounting", () => {
    const returnOnly = basket([line(-1000, { returnItem: true, quantity: -1 })]);
    for (const [b, named, s] of [
      [returnOnly, [], {}],
      [basket([line(-3000, { returnItem: true }), line(1000)]), [], {}],
      [exchange(), [voucher("basket", { amount: 100 })], {}],
    ] as Array<[PricingBasket, PricingVoucher[], Partial<PricingSettings>]>) {
      const out = price(b, [...named, replacement(500)], s);
      expect(out.applied.filter((a) => a.replacement)).toEqual([]);
      expect(out.notApplied).toEqual([]);
    }
    // With redeem_basket_voucher_on_negative_value_basket it applies to the new lines of a negative basket.
    const negative = price(basket([line(-3000, { returnItem: true }), line(1000)]), [replacement(500)], { redeemOnNegativeValueBasket: true });
    expect(negative).toMatchObject({ basketDiscount: 500, basketFinalPrice: -2500 });
  });
});
