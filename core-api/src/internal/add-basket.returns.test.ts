/**
 * Returns through add-basket (handbook, "Baskets": returns): a return basket's lines name the
 * original basket and line; the original and its redeemed vouchers stay as they are; a returned
 * line's voucher discount comes back as a claimed replacement voucher, in proportion to the
 * quantity returned; an expired original is replaced only with
 * expired_vouchers_regenerate_on_return; a line returned beyond its quantity is 419, nothing
 * written; a line matching nothing is a warning. Two returns of one line sent at once: the one
 * that waits for the original basket's lock then sees the other's return: 419, nothing of it
 * written.
 */
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { basketWrittenRows, seedVoucher, voucherRow } from "../baskets/basket-test-support.ts";
import { basketReturns, baskets, chains, vouchers } from "../db/schema.ts";
import { addUserAsAdmin, call, NOW, usersWorldForFile } from "../users/user-test-support.ts";

const w = usersWorldForFile();

let seq = 0;
const sell = (params: Record<string, unknown>) => call(w.core, "POST", "/internal/add-basket", w.token, { chain_id: w.core.chainId, ...params } as never);
const EXPIRY = new Date("2027-03-01T00:00:00Z");

/** A member's sale of A (2 units, 20.00) and B (10.00) with a 6.00 basket voucher: A carries 4.00, B 2.00. */
async function originalSale() {
  const user = (await addUserAsAdmin(w, { username: `returns-${++seq}@example.com` })).body.results.user as { id: number };
  const voucher = await seedVoucher(w.core, user.id, "basket", { amount: 6, expiryDate: EXPIRY, createdDate: new Date("2026-11-01T00:00:00Z") });
  const code = `orig-${seq}`;
  const sale = await sell({
    user_id: user.id, basket_total_price: 30, retailer_basket_code: code, basket_vouchers: [voucher.key],
    basket_items: [{ retailer_item_code: "A", item_quantity: 2, item_price: 20 }, { retailer_item_code: "B", item_quantity: 1, item_price: 10 }],
  });
  expect(sale.body.results.pricing.basket_items.map((l: { discount: string }) => l.discount)).toEqual(["4.00", "2.00"]);
  return { user, voucher, code, basketId: sale.body.results.basket.id as number };
}
const returnOf = (code: string, item: string, quantity: number, price: number, n: number, extra: Record<string, unknown> = {}) => ({
  user_id: undefined, basket_total_price: -price, retailer_basket_code: `ret-${code}-${n}`,
  basket_items: [{ retailer_item_code: item, item_quantity: -quantity, item_price: -price, return_item: true, original_retailer_basket_code: code }], ...extra,
});

describe("returns", () => {
  it("a returned line's discount comes back as a claimed replacement voucher; the original stays", async () => {
    const o = await originalSale();
    const originalRow = await w.core.db.select().from(baskets).where(eq(baskets.id, o.basketId));
    const r = await sell({ ...returnOf(o.code, "A", 1, 10, 1), user_id: o.user.id });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.results.issued_vouchers).toEqual([{ key: expect.any(String), amount: "2.00", parent_voucher_key: o.voucher.key, reason: "return", expiry_date: "2027-03-01T00:00:00Z" }]);
    const [replacement] = await w.core.db.select().from(vouchers).where(eq(vouchers.key, r.body.results.issued_vouchers[0].key));
    expect(replacement).toMatchObject({ type: "basket", status: "claimed", userId: o.user.id, amount: 2, parentVoucherId: o.voucher.id, generatingReturnTransactionId: r.body.results.basket.id, expiryDate: EXPIRY });
    expect(await voucherRow(w.core, o.voucher.id)).toMatchObject({ status: "redeemed", basketId: o.basketId });
    expect(await w.core.db.select().from(baskets).where(eq(baskets.id, o.basketId))).toEqual(originalRow);

    // The second unit too; a third is beyond the original quantity: 419, nothing written.
    expect((await sell({ ...returnOf(o.code, "A", 1, 10, 2), user_id: o.user.id })).body.results.issued_vouchers).toMatchObject([{ amount: "2.00" }]);
    const before = await basketWrittenRows(w.core);
    const third = await sell({ ...returnOf(o.code, "A", 1, 10, 3), user_id: o.user.id });
    expect(third.body.error?.code).toBe(419);
    expect(await basketWrittenRows(w.core)).toBe(before);
  });

  it("a line that matches no original line stays a negative line with a warning", async () => {
    const o = await originalSale();
    const r = await sell({ ...returnOf(o.code, "Z", 1, 5, 1), user_id: o.user.id });
    expect(r.status).toBe(200);
    expect(r.body.results).toMatchObject({ issued_vouchers: [], pricing: { warnings: ["original_basket_item_not_found"], basket_final_price: "-5.00" } });
    const priced = await call(w.core, "POST", "/internal/get-basket-price", w.token, { chain_id: w.core.chainId, ...returnOf(o.code, "Z", 1, 5, 9), user_id: o.user.id } as never);
    expect(priced.body.results.warnings).toEqual(["original_basket_item_not_found"]);
  });

  it("an expired original: no replacement, unless expired_vouchers_regenerate_on_return (then valid for the original's length from now)", async () => {
    const o = await originalSale();
    const lapsed = new Date("2026-11-11T00:00:00Z"); // 10 days after its creation, before NOW
    await w.core.db.update(vouchers).set({ expiryDate: lapsed }).where(eq(vouchers.id, o.voucher.id));
    const without = await sell({ ...returnOf(o.code, "B", 1, 10, 1), user_id: o.user.id });
    expect(without.body.results.issued_vouchers).toEqual([]);
    await w.core.db.update(chains).set({ expiredVouchersRegenerateOnReturn: true }).where(eq(chains.id, w.core.chainId));
    try {
      const o2 = await originalSale();
      await w.core.db.update(vouchers).set({ expiryDate: lapsed }).where(eq(vouchers.id, o2.voucher.id));
      const withSetting = await sell({ ...returnOf(o2.code, "B", 1, 10, 1), user_id: o2.user.id });
      const tenDays = new Date(NOW.getTime() + 10 * 86_400_000).toISOString().replace(".000Z", "Z");
      expect(withSetting.body.results.issued_vouchers).toMatchObject([{ amount: "2.00", expiry_date: tenDays }]);
    } finally {
      await w.core.db.update(chains).set({ expiredVouchersRegenerateOnReturn: false }).where(eq(chains.id, w.core.chainId));
    }
  });

  it("two returns of one line at once: one 200, one 419; one return row, one replacement, the loser's basket not stored", async () => {
    for (let round = 0; round < 6; round++) {
      const o = await originalSale();
      // Even rounds: both returns by the member (their row lock orders them); odd rounds: the
      // second by another member, so only the original basket's lock orders them.
      const other = round % 2 === 0 ? o.user : ((await addUserAsAdmin(w, { username: `returns-other-${++seq}@example.com` })).body.results.user as { id: number });
      const answers = await Promise.all([o.user.id, other.id].map((userId, n) => sell({ ...returnOf(o.code, "A", 2, 20, 10 + n), user_id: userId })));
      expect(answers.map((a) => a.status).sort(), JSON.stringify(answers.map((a) => a.body))).toEqual([200, 400]);
      const winner = answers.find((a) => a.status === 200)!;
      expect(answers.find((a) => a.status === 400)!.body.error.code).toBe(419);
      const rows = await w.core.db.select().from(basketReturns).where(and(eq(basketReturns.originalBasketId, o.basketId), eq(basketReturns.retailerItemCode, "A")));
      expect(rows).toMatchObject([{ returnBasketId: winner.body.results.basket.id, quantity: 2, lineReturnNumber: 1 }]);
      const replacements = await w.core.db.select().from(vouchers).where(eq(vouchers.parentVoucherId, o.voucher.id));
      expect(replacements.map((v) => [v.amount, v.generatingReturnTransactionId])).toEqual([[4, winner.body.results.basket.id]]);
      const loserCode = answers.find((a) => a.status === 400) === answers[0] ? `ret-${o.code}-10` : `ret-${o.code}-11`;
      expect(await w.core.db.select().from(baskets).where(eq(baskets.retailerBasketCode, loserCode))).toEqual([]);
    }
  });
});
