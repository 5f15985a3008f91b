/**
 * get-basket-price over HTTP (handbook, "Baskets": get-basket-price): a member's claimed vouchers
 * applied to a basket, figures as 2-place strings; the chain's settings read per platform type;
 * the caller rules (a shopper for themselves only); and nothing written, ever.
 */
import { getBasketPriceResponseSchema } from "@service/shared/internal/get-basket-price";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { basketWrittenRows, seedVoucher } from "../baskets/basket-test-support.ts";
import { chains } from "../db/schema.ts";
import { addUserAsAdmin, call, NATIVE_APP, shopperSession, usersWorldForFile } from "../users/user-test-support.ts";

const w = usersWorldForFile();

let seq = 0;
const newUser = async () => (await addUserAsAdmin(w, { username: `price-${++seq}@example.com` })).body.results.user as { id: number; member_number: string | null };
const price = (params: Record<string, unknown>, headers = w.token, encoding: "json" | "form" = "json", path = "/internal/get-basket-price") =>
  call(w.core, "POST", path, headers, { chain_id: w.core.chainId, ...params } as never, encoding);
const LINES = [
  { item_barcode: "111", retailer_item_code: "A", item_quantity: 2, item_price: 10 },
  { item_barcode: "222", retailer_item_code: "B", item_quantity: 1, item_price: "20.00" },
  { item_barcode: "333", retailer_item_code: "C", item_quantity: 1, item_price: 5, exclude_from_vouchers: true },
];

describe("get-basket-price", () => {
  for (const encoding of ["json", "form"] as const) {
    it(`applies the member's claimed vouchers and answers 2-place figures (${encoding})`, async () => {
      const user = await newUser();
      const pct = await seedVoucher(w.core, user.id, "basket_pct", { discountRatio: 0.1 });
      const amt = await seedVoucher(w.core, user.id, "basket", { amount: 3 });
      await seedVoucher(w.core, user.id, "basket", { amount: 50, status: "generated" }); // not claimed: not considered
      const before = await basketWrittenRows(w.core);
      const { status, body } = await price({ user_id: user.id, basket_total_price: 35, basket_items: encoding === "json" ? LINES : JSON.stringify(LINES) }, w.token, encoding);
      expect(status, JSON.stringify(body)).toBe(200);
      const r = getBasketPriceResponseSchema.parse(body).results;
      expect(r).toMatchObject({
        user: { id: user.id }, basket_platform_type: "online", basket_total_price: "35.00",
        basket_discount: "3.00", basket_final_price: "32.00", rewardable_total: "32.00",
        vouchers_applied: [{ key: pct.key, type: "basket_pct", discount: "3.00", amount_redeemed: "3.00", honour_code: null }],
        vouchers_not_applied: [{ key: amt.key, reason: "double_discounting" }],
      });
      expect(r.basket_items!.map((l) => [l.retailer_item_code, l.discount, l.final_price])).toEqual([["A", "1.00", "9.00"], ["B", "2.00", "18.00"], ["C", "0.00", "5.00"]]);
      expect(r.basket_items![0]!.adjustments).toEqual([{ voucher_key: pct.key, amount: "1.00" }]);
      expect(await basketWrittenRows(w.core)).toBe(before);
    });
  }

  it("reads the chain's settings of the basket's platform type (total mode in store, double discounting)", async () => {
    const user = await newUser();
    await seedVoucher(w.core, user.id, "basket_pct", { discountRatio: 0.1 });
    await seedVoucher(w.core, user.id, "basket", { amount: 3 });
    await w.core.db.update(chains).set({ calculateBasketOnTotalValueInStore: true, allowsDoubleDiscounting: true }).where(eq(chains.id, w.core.chainId));
    try {
      const inStore = await price({ user_id: user.id, basket_total_price: 40, basket_items: LINES, branch_business_id: w.stores[0]!.id });
      expect(inStore.body.results).toMatchObject({ basket_platform_type: "in_store", basket_discount: "7.00", basket_final_price: "33.00" }); // 4.00 + 3.00 on the total
      const online = await price({ user_id: user.id, basket_total_price: 40, basket_items: LINES, branch_business_id: w.stores[0]!.id, basket_platform_type: "online" });
      expect(online.body.results).toMatchObject({ basket_platform_type: "online", basket_discount: "6.00" }); // 3.00 on the lines, then 3.00 more
    } finally {
      await w.core.db.update(chains).set({ calculateBasketOnTotalValueInStore: false, allowsDoubleDiscounting: false }).where(eq(chains.id, w.core.chainId));
    }
  });

  it("basket_vouchers names the vouchers considered; their state is reported, never refused", async () => {
    const user = await newUser();
    expect(user).toBeTruthy();
    const expired = await seedVoucher(w.core, user.id, "basket", { amount: 1, expiryDate: new Date("2026-11-01T00:00:00Z") });
    const locked = await seedVoucher(w.core, user.id, "basket", { amount: 1, lockedUntil: new Date("2027-01-01T00:00:00Z"), lockingCode: "L-1" });
    const honour = await seedVoucher(w.core, user.id, "honour", { honourCode: "COFFEE" });
    await seedVoucher(w.core, user.id, "basket", { amount: 2 }); // not named
    const r = await price({ username: `price-${seq}@example.com`, basket_total_price: 12, basket_vouchers: [expired.key, { key: locked.key, locking_code: "L-1" }, { key: honour.key }] });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.results).toMatchObject({
      basket_items: null, basket_discount: "1.00", basket_final_price: "11.00",
      vouchers_applied: [{ key: locked.key, discount: "1.00" }, { key: honour.key, type: "honour", discount: "0.00", amount_redeemed: null, honour_code: "COFFEE" }],
      vouchers_not_applied: [{ key: expired.key, reason: "expired" }],
    });
  });

  it("an anonymous basket is priced without vouchers; admins too; both prefixes and .json", async () => {
    for (const path of ["/internal/get-basket-price", "/auth/get-basket-price", "/auth/get-basket-price.json"]) {
      const r = await price({ basket_total_price: "9.99", items: [{ sku: "X", quantity: 1, price: 9.99 }] }, w.adminHeaders, "json", path);
      expect(r.status, path).toBe(200);
      expect(r.body.results).toMatchObject({ user: null, basket_final_price: "9.99", basket_items: [{ item_barcode: "X", final_price: "9.99" }] });
    }
  });

  it("costs two statements: the credentials, then the chain's settings, the member and their vouchers in one", async () => {
    const user = await newUser();
    for (let i = 0; i < 5; i++) await seedVoucher(w.core, user.id, "basket", { amount: 1 + i });
    const params = { user_id: user.id, basket_total_price: 40, basket_items: LINES };
    await price(params);
    w.core.statements.reset();
    const r = await price(params);
    expect(r.body.results.vouchers_applied.length + r.body.results.vouchers_not_applied.length).toBe(5);
    expect(w.core.statements.count, w.core.statements.statements.join("\n")).toBe(2);
  });

  it("a token without chain_id prices in the chain it was issued in; an admin without chain_id is 3", async () => {
    const body = { basket_total_price: "5.00" };
    const viaToken = await call(w.core, "POST", "/internal/get-basket-price", w.token, body as never);
    expect(viaToken.status, JSON.stringify(viaToken.body)).toBe(200);
    expect((await call(w.core, "POST", "/internal/get-basket-price", w.adminHeaders, body as never)).body.error?.code).toBe(3);
  });

  it("a shopper prices their own basket; naming another member or chain is 68", async () => {
    const me = await shopperSession(w.core, NATIVE_APP, `shopper-price-${++seq}@example.com`);
    const other = await newUser();
    const mine = await seedVoucher(w.core, me.id, "basket", { amount: 2 });
    const theirs = await seedVoucher(w.core, other.id, "basket", { amount: 2 });
    const own = await price({ basket_total_price: 10 }, me.headers);
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(own.body.results).toMatchObject({ user: { id: me.id }, vouchers_applied: [{ key: mine.key }] });
    expect((await price({ user_id: me.id, basket_total_price: 10 }, me.headers)).status).toBe(200);
    const before = await basketWrittenRows(w.core);
    for (const params of [{ user_id: other.id }, { basket_vouchers: [theirs.key] }, { chain_id: w.otherChainId }]) {
      const r = await price({ basket_total_price: 10, ...params }, me.headers);
      expect(r.body.error?.code, JSON.stringify(params)).toBe(68);
    }
    expect(await basketWrittenRows(w.core)).toBe(before);
  });
});
