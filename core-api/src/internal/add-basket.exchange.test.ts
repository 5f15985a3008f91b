/**
 * An exchange (a return basket that also sells new lines) under the chain setting
 * regenerated_rewards_redeem_immediately (handbook, "Baskets": returns): the returned line's
 * replacement voucher is priced with the basket, after its named vouchers, and takes from the new
 * lines at once. get-basket-price shows it (key null, nothing written); add-basket issues it
 * redeemed by the exchange for what it took, and claimed for the rest. Without the setting, or
 * with nothing new to discount, or for a return by another member, the replacement is issued
 * whole and claimed, as before.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { basketWrittenRows, seedVoucher } from "../baskets/basket-test-support.ts";
import { chains, vouchers } from "../db/schema.ts";
import { addUserAsAdmin, call, NOW, usersWorldForFile } from "../users/user-test-support.ts";

const w = usersWorldForFile(async () => {
  await setting(true);
});

const setting = (on: boolean) => w.core.db.update(chains).set({ regeneratedRewardsRedeemImmediately: on }).where(eq(chains.id, w.core.chainId));
const send = (name: string, params: Record<string, unknown>) => call(w.core, "POST", `/internal/${name}`, w.token, { chain_id: w.core.chainId, ...params } as never);
const EXPIRY = new Date("2027-03-01T00:00:00Z");
let seq = 0;

/** A member's sale of A (2 units, 20.00) and B (10.00) with a 6.00 basket voucher: A carries 4.00 (2.00 a unit), B 2.00. */
async function originalSale() {
  const user = (await addUserAsAdmin(w, { username: `exchange-${++seq}@example.com` })).body.results.user as { id: number };
  const voucher = await seedVoucher(w.core, user.id, "basket", { amount: 6, expiryDate: EXPIRY, createdDate: new Date("2026-11-01T00:00:00Z") });
  const code = `exch-orig-${seq}`;
  const sale = await send("add-basket", {
    user_id: user.id, basket_total_price: 30, retailer_basket_code: code, basket_vouchers: [voucher.key],
    basket_items: [{ retailer_item_code: "A", item_quantity: 2, item_price: 20 }, { retailer_item_code: "B", item_quantity: 1, item_price: 10 }],
  });
  expect(sale.status, JSON.stringify(sale.body)).toBe(200);
  return { user, voucher, code };
}

/** Returns `units` of A (8.00 a unit paid back) and buys C at `newPrice`. */
const exchange = (o: { user: { id: number }; code: string }, units: number, newPrice: number | null, n: number) => ({
  user_id: o.user.id, retailer_basket_code: `exch-${o.code}-${n}`, basket_total_price: -8 * units + (newPrice ?? 0),
  basket_items: [
    { retailer_item_code: "A", item_quantity: -units, item_price: -8 * units, return_item: true, original_retailer_basket_code: o.code },
    ...(newPrice === null ? [] : [{ retailer_item_code: "C", item_quantity: 1, item_price: newPrice }]),
  ],
});
const children = (parentId: number) => w.core.db.select().from(vouchers).where(eq(vouchers.parentVoucherId, parentId)).orderBy(vouchers.id);

describe("regenerated_rewards_redeem_immediately", () => {
  it("an exchange's new line takes the replacement at once: priced alike by get-basket-price (nothing written) and add-basket (issued redeemed)", async () => {
    const o = await originalSale();
    const before = await basketWrittenRows(w.core);
    const quote = await send("get-basket-price", exchange(o, 1, 15, 1));
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    expect(quote.body.results).toMatchObject({
      basket_total_price: "7.00", basket_discount: "2.00", basket_final_price: "5.00",
      vouchers_applied: [{ key: null, type: "basket", discount: "2.00", amount_redeemed: "2.00", honour_code: null, parent_voucher_key: o.voucher.key }],
      vouchers_not_applied: [],
    });
    expect(quote.body.results.basket_items[1]).toMatchObject({ discount: "2.00", final_price: "13.00", adjustments: [{ voucher_key: null, amount: "2.00", parent_voucher_key: o.voucher.key }] });
    expect(await basketWrittenRows(w.core)).toBe(before);

    const sale = await send("add-basket", exchange(o, 1, 15, 1));
    expect(sale.status, JSON.stringify(sale.body)).toBe(200);
    const { pricing, basket, issued_vouchers } = sale.body.results;
    expect({ ...pricing, vouchers_applied: undefined, basket_items: undefined }).toEqual({ ...quote.body.results, result_type: undefined, vouchers_applied: undefined, basket_items: undefined });
    const key = pricing.vouchers_applied[0].key as string;
    expect(pricing.vouchers_applied).toEqual([{ key: expect.stringMatching(/^\w{64}$/), type: "basket", discount: "2.00", amount_redeemed: "2.00", honour_code: null, parent_voucher_key: o.voucher.key }]);
    expect(pricing.basket_items[1].adjustments).toEqual([{ voucher_key: key, amount: "2.00", parent_voucher_key: o.voucher.key }]);
    expect(basket.basket_discount).toBe("2.00");
    expect(issued_vouchers).toEqual([]);
    expect(await children(o.voucher.id)).toMatchObject([{
      key, type: "basket", status: "redeemed", userId: o.user.id, amount: 2, amountRedeemed: 2, basketId: basket.id,
      generatingReturnTransactionId: basket.id, expiryDate: EXPIRY, redeemedDate: NOW,
    }]);
  });

  it("what the new lines leave stays in the wallet: the replacement is split, its amounts adding up to the refund", async () => {
    const o = await originalSale();
    // Refund 4.00; new lines C 3.00 and D 20.00 (excluded from vouchers): the basket stays positive.
    const params = exchange(o, 2, 3, 1);
    params.basket_items.push({ retailer_item_code: "D", item_quantity: 1, item_price: 20, exclude_from_vouchers: true } as never);
    const sale = await send("add-basket", { ...params, basket_total_price: 7 });
    expect(sale.status, JSON.stringify(sale.body)).toBe(200);
    const { basket, pricing, issued_vouchers } = sale.body.results;
    expect(pricing).toMatchObject({ basket_discount: "3.00", basket_final_price: "4.00" });
    expect(issued_vouchers).toEqual([{ key: expect.any(String), amount: "1.00", parent_voucher_key: o.voucher.key, reason: "return", expiry_date: "2027-03-01T00:00:00Z" }]);
    const rows = await children(o.voucher.id);
    expect(rows.map((v) => [v.status, v.amount, v.basketId, v.generatingReturnTransactionId])).toEqual([["redeemed", 3, basket.id, basket.id], ["claimed", 1, null, basket.id]]);
    expect(rows[0]!.key).toBe(pricing.vouchers_applied[0].key);
    expect(rows[1]!.key).toBe(issued_vouchers[0].key);
  });

  it("without the setting, with nothing new to discount, or for another member's return: issued whole and claimed", async () => {
    const wholeClaimed = async (o: Awaited<ReturnType<typeof originalSale>>, params: Record<string, unknown>) => {
      const sale = await send("add-basket", params);
      expect(sale.status, JSON.stringify(sale.body)).toBe(200);
      expect(sale.body.results.pricing).toMatchObject({ basket_discount: "0.00", vouchers_applied: [], vouchers_not_applied: [] });
      expect((await children(o.voucher.id)).map((v) => [v.status, v.amount, v.userId])).toEqual([["claimed", 2, o.user.id]]);
    };
    const returnOnly = await originalSale();
    await wholeClaimed(returnOnly, exchange(returnOnly, 1, null, 1));
    const someoneElse = await originalSale();
    const other = (await addUserAsAdmin(w, { username: `exchange-other-${++seq}@example.com` })).body.results.user as { id: number };
    await wholeClaimed(someoneElse, { ...exchange(someoneElse, 1, 15, 1), user_id: other.id });
    await setting(false);
    try {
      const off = await originalSale();
      const quote = await send("get-basket-price", exchange(off, 1, 15, 1));
      expect(quote.body.results).toMatchObject({ basket_discount: "0.00", vouchers_applied: [] });
      await wholeClaimed(off, exchange(off, 1, 15, 1));
    } finally {
      await setting(true);
    }
  });
});
