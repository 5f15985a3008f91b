/**
 * add-basket redeeming vouchers (handbook, "Baskets": add-basket): exactly the named vouchers,
 * once, under real concurrent HTTP on one server; idempotency by retailer_basket_code
 * (sequential and concurrent replays, other content 914); every named voucher must apply (its
 * error, nothing written); expected_discount; locks; partial redemption's child voucher.
 */
import { addBasketResponseSchema } from "@service/shared/internal/add-basket";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { basketWrittenRows, seedVoucher, voucherRow } from "../baskets/basket-test-support.ts";
import { baskets, chains, vouchers } from "../db/schema.ts";
import { addUserAsAdmin, call, usersWorldForFile } from "../users/user-test-support.ts";

const w = usersWorldForFile();

let seq = 0;
const newUser = async () => (await addUserAsAdmin(w, { username: `redeem-${++seq}@example.com` })).body.results.user as { id: number };
const sell = (params: Record<string, unknown>, headers = w.token) => call(w.core, "POST", "/internal/add-basket", headers, { chain_id: w.core.chainId, ...params } as never);
const basketsOf = (userId: number) => w.core.db.select().from(baskets).where(and(eq(baskets.chainId, w.core.chainId), eq(baskets.userId, userId)));
const LINES = [{ retailer_item_code: "A", item_quantity: 1, item_price: 20 }, { retailer_item_code: "B", item_quantity: 2, item_price: "10.00" }];

describe("add-basket redeems the vouchers it names", () => {
  it("stores the priced basket and redeems both vouchers; an unnamed claimed voucher stays claimed", async () => {
    const user = await newUser();
    const pct = await seedVoucher(w.core, user.id, "basket_pct", { discountRatio: 0.1 });
    const honour = await seedVoucher(w.core, user.id, "honour", { honourCode: "GIFT" });
    const other = await seedVoucher(w.core, user.id, "basket", { amount: 5 });
    const r = await sell({ user_id: user.id, basket_total_price: 30, basket_items: LINES, basket_vouchers: [{ key: pct.key, expected_discount: "3.00" }, honour.key] });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const results = addBasketResponseSchema.parse(r.body).results;
    expect(results).toMatchObject({ duplicate: false, basket: { basket_discount: "3.00" }, pricing: { basket_final_price: "27.00" } });
    for (const v of [pct, honour]) {
      expect(await voucherRow(w.core, v.id)).toMatchObject({ status: "redeemed", basketId: results.basket.id, redeemedDate: expect.any(Date), dbRedeemedDate: expect.any(Date) });
    }
    expect((await voucherRow(w.core, pct.id)).amountRedeemed).toBe(3);
    expect((await voucherRow(w.core, honour.id)).amountRedeemed).toBeNull();
    expect(await voucherRow(w.core, other.id)).toMatchObject({ status: "claimed", basketId: null });
  });

  it("a voucher that cannot apply fails the whole call with its code; nothing written", async () => {
    const user = await newUser();
    const ok = await seedVoucher(w.core, user.id, "basket", { amount: 1 });
    const cases: Array<[Record<string, unknown>, number, Record<string, unknown>?]> = [
      [{ status: "generated" }, 909],
      [{ status: "redeemed" }, 910],
      [{ expiryDate: new Date("2026-11-21T09:59:59Z") }, 911],
      [{ lockedUntil: new Date("2027-01-01T00:00:00Z"), lockingCode: "L" }, 912],
      [{ lockedUntil: new Date("2027-01-01T00:00:00Z"), basketOwnerCodeExclusive: "R-X" }, 912, { retailer_basket_code: "R-Y" }],
      [{ redemptionExclusiveBusinessId: w.stores[1]!.id }, 913, { branch_business_id: w.stores[0]!.id }],
      [{ amount: 1 }, 913, { basket_total_price: -5, basket_items: [{ item_price: 5 }, { item_price: -10, item_quantity: -1 }] }],
      [{ type: "basket_fixed_unit", amount: 1 }, 916, { basket_items: undefined }],
    ];
    for (const [fields, code, extra] of cases) {
      const { type = "basket", ...rest } = fields as { type?: string };
      const v = await seedVoucher(w.core, user.id, type, { amount: 2, ...rest });
      const before = await basketWrittenRows(w.core);
      const r = await sell({ user_id: user.id, basket_total_price: 30, basket_items: LINES, basket_vouchers: [ok.key, v.key], ...extra });
      expect(r.body.error?.code, JSON.stringify(fields)).toBe(code);
      expect(await basketWrittenRows(w.core), JSON.stringify(fields)).toBe(before);
    }
    const v = await seedVoucher(w.core, user.id, "basket", { amount: 2 });
    const before = await basketWrittenRows(w.core);
    expect((await sell({ user_id: user.id, basket_total_price: 30, basket_vouchers: [{ key: v.key, expected_discount: 1.5 }] })).body.error.code).toBe(915);
    expect((await sell({ user_id: user.id, basket_total_price: 30, basket_vouchers: ["f".repeat(64)] })).body.error.code).toBe(68);
    expect(await basketWrittenRows(w.core)).toBe(before);
  });

  it("a locked voucher is redeemed with its locking code, or by the basket of its exclusive code", async () => {
    const user = await newUser();
    const locked = { lockedUntil: new Date("2027-01-01T00:00:00Z") };
    const byCode = await seedVoucher(w.core, user.id, "basket", { amount: 1, ...locked, lockingCode: "L-9" });
    const exclusive = await seedVoucher(w.core, user.id, "honour", { ...locked, basketOwnerCodeExclusive: `R-${seq}` });
    const r = await sell({ user_id: user.id, basket_total_price: 30, basket_items: LINES, retailer_basket_code: `R-${seq}`, basket_vouchers: [{ key: byCode.key, locking_code: "L-9" }, exclusive.key] });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  });

  it("a partly used basket voucher leaves a claimed child voucher with the rest (regenerate_vouchers_on_partial_redemption)", async () => {
    await w.core.db.update(chains).set({ regenerateVouchersOnPartialRedemption: true }).where(eq(chains.id, w.core.chainId));
    try {
      const user = await newUser();
      const big = await seedVoucher(w.core, user.id, "basket", { amount: 50, expiryDate: new Date("2027-02-01T00:00:00Z") });
      const r = await sell({ user_id: user.id, basket_total_price: 30, basket_items: LINES, basket_vouchers: [big.key] });
      expect(r.body.results.issued_vouchers).toEqual([{ key: expect.any(String), amount: "20.00", parent_voucher_key: big.key, reason: "partial_redemption", expiry_date: "2027-02-01T00:00:00Z" }]);
      expect(await voucherRow(w.core, big.id)).toMatchObject({ status: "redeemed", amountRedeemed: 40 - 10 });
      const children = await w.core.db.select().from(vouchers).where(eq(vouchers.parentVoucherId, big.id));
      expect(children).toMatchObject([{ type: "basket", status: "claimed", userId: user.id, amount: 20, expiryDate: new Date("2027-02-01T00:00:00Z") }]);
    } finally {
      await w.core.db.update(chains).set({ regenerateVouchersOnPartialRedemption: false }).where(eq(chains.id, w.core.chainId));
    }
  });
});

describe("exactly once", () => {
  it("sales racing for one voucher: one 200, the others 910; one basket, redeemed once (several rounds)", async () => {
    for (let round = 0; round < 5; round++) {
      const user = await newUser();
      const v = await seedVoucher(w.core, user.id, "basket", { amount: 5 });
      const answers = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => sell({ user_id: user.id, basket_total_price: 10 + i, retailer_basket_code: `race-${round}-${i}-${seq}`, basket_vouchers: [v.key] })));
      const winners = answers.filter((a) => a.status === 200);
      expect(winners, JSON.stringify(answers.map((a) => a.body))).toHaveLength(1);
      expect(answers.filter((a) => a.status !== 200).map((a) => a.body.error?.code)).toEqual([910, 910, 910, 910, 910]);
      const stored = await basketsOf(user.id);
      expect(stored.map((s) => s.id)).toEqual([winners[0]!.body.results.basket.id]);
      expect(await voucherRow(w.core, v.id)).toMatchObject({ status: "redeemed", basketId: winners[0]!.body.results.basket.id });
    }
  });

  it("the same retailer_basket_code again answers the stored basket (sequential and concurrent); other content 914", async () => {
    const user = await newUser();
    const v1 = await seedVoucher(w.core, user.id, "basket", { amount: 5 });
    const params = { user_id: user.id, basket_total_price: 30, basket_items: LINES, retailer_basket_code: `idem-${seq}`, basket_vouchers: [v1.key] };
    const first = await sell(params);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const again = await sell(params);
    expect(again.status).toBe(200);
    expect(again.body.results).toEqual({ ...first.body.results, duplicate: true });
    const before = await basketWrittenRows(w.core);
    const changed = await sell({ ...params, basket_total_price: 31 });
    expect(changed.body.error?.code).toBe(914);
    expect(await basketWrittenRows(w.core)).toBe(before);

    const v2 = await seedVoucher(w.core, user.id, "basket", { amount: 5 });
    const both = await Promise.all([0, 1].map(() => sell({ ...params, retailer_basket_code: `idem-c-${seq}`, basket_vouchers: [v2.key] })));
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(both.map((r) => r.body.results.duplicate).sort()).toEqual([false, true]);
    expect(both[0]!.body.results.basket).toEqual(both[1]!.body.results.basket);
    expect((await basketsOf(user.id)).filter((b) => b.retailerBasketCode === `idem-c-${seq}`)).toHaveLength(1);
    expect(await voucherRow(w.core, v2.id)).toMatchObject({ status: "redeemed", basketId: both[0]!.body.results.basket.id });
  });
});
