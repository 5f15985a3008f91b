/**
 * The round trips of add-basket (baskets/sale.ts, baskets/sale-reads.ts), pinned so they cannot
 * drift back: a sale redeeming vouchers is the credentials (with the chain's settings), then a
 * transaction of one locking read of the member and the vouchers, the basket's INSERT, one UPDATE
 * of all its vouchers and the runner's marker. The basket answered is the row as stored, to the second, also when the
 * request's clock has milliseconds: a replay reads it back and answers the same.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestAdmin, type TestCore } from "../../../test/helpers/core.ts";
import { seedVoucher, voucherRow } from "../baskets/basket-test-support.ts";
import { chains, users } from "../db/schema.ts";

let core: TestCore;
let admin: TestAdmin;
beforeAll(async () => {
  core = await startCore({ clock: () => new Date("2026-11-21T10:00:00.789Z") });
  admin = await core.admin({ read: true, write: true });
}, 60_000);
afterAll(() => core.close());

let seq = 0;
async function newMember(): Promise<number> {
  const [res] = await core.db.insert(users).values({ chainId: core.chainId, username: `statements-${++seq}@example.com` });
  return Number(res.insertId);
}

const LINES = [{ retailer_item_code: "A", item_price: "12.50" }, { retailer_item_code: "B", item_price: "7.50" }];

async function sell(body: Record<string, unknown>) {
  return core.json("/internal/add-basket", { method: "POST", headers: { ...admin.headers, "content-type": "application/json" }, body: JSON.stringify({ chain_id: core.chainId, ...body }) });
}

/** The statements of `body`'s sale, sent once before (a first prepare does not count). */
async function statementsOf(body: () => Promise<Record<string, unknown>>): Promise<string[]> {
  expect((await sell(await body())).status).toBe(200);
  const next = await body();
  core.statements.reset();
  const res = await sell(next);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return core.statements.statements.map((s) => s.replace(/\s+/g, " ").slice(0, 80).toLowerCase());
}

describe("add-basket's round trips", () => {
  it("redeeming 2 vouchers: 7 statements, one UPDATE for both vouchers", async () => {
    const sent = await statementsOf(async () => {
      const member = await newMember();
      const pct = await seedVoucher(core, member, "basket_pct", { discountRatio: 0.1 });
      const honour = await seedVoucher(core, member, "honour", { honourCode: "GIFT" });
      return { user_id: member, basket_total_price: "20.00", retailer_basket_code: `st-${seq}`, basket_items: LINES, basket_vouchers: [pct.key, honour.key] };
    });
    expect(sent, sent.join("\n")).toHaveLength(7);
    expect(sent.slice(1).map((s) => s.split(" ")[0])).toEqual(["begin", "select", "insert", "update", "insert", "commit"]);
    expect(sent[2]).toContain("`users`.`id`, `users`.`member_number`");
    expect(sent[4]).toContain("update `vouchers`");
  });

  it("without vouchers, the member named by username: 6 statements (no UPDATE)", async () => {
    const sent = await statementsOf(async () => {
      await newMember();
      return { username: `statements-${seq}@example.com`, basket_total_price: "20.00", basket_items: LINES };
    });
    expect(sent, sent.join("\n")).toHaveLength(6);
  });

  it("with regenerated_rewards_redeem_immediately on, a plain sale still sends 7 statements (the setting comes with the chain head)", async () => {
    await core.db.update(chains).set({ regeneratedRewardsRedeemImmediately: true, expiredVouchersRegenerateOnReturn: true }).where(eq(chains.id, core.chainId));
    try {
      const sent = await statementsOf(async () => {
        const member = await newMember();
        const v = await seedVoucher(core, member, "basket", { amount: 2 });
        return { user_id: member, basket_total_price: "20.00", retailer_basket_code: `st-imm-${seq}`, basket_items: LINES, basket_vouchers: [v.key] };
      });
      expect(sent, sent.join("\n")).toHaveLength(7);
      expect(sent.some((s) => s.includes("from `chains`")), sent.join("\n")).toBe(false);
    } finally {
      await core.db.update(chains).set({ regeneratedRewardsRedeemImmediately: false, expiredVouchersRegenerateOnReturn: false }).where(eq(chains.id, core.chainId));
    }
  });

  it("both vouchers redeemed by the one UPDATE, each with its own amount_redeemed", async () => {
    await core.db.update(chains).set({ allowsDoubleDiscounting: true }).where(eq(chains.id, core.chainId));
    const member = await newMember();
    const pct = await seedVoucher(core, member, "basket_pct", { discountRatio: 0.1 });
    const fixed = await seedVoucher(core, member, "basket", { amount: 3 });
    const res = await sell({ user_id: member, basket_total_price: "20.00", basket_items: LINES, basket_vouchers: [pct.key, fixed.key] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const basketId = res.body.results.basket.id;
    expect(await voucherRow(core, pct.id)).toMatchObject({ status: "redeemed", basketId, amountRedeemed: 2 });
    expect(await voucherRow(core, fixed.id)).toMatchObject({ status: "redeemed", basketId, amountRedeemed: 3 });
  });

  it("answers the basket as stored (created_date to the second): a replay answers the same", async () => {
    const member = await newMember();
    const v = await seedVoucher(core, member, "basket", { amount: 2 });
    const body = { user_id: member, basket_total_price: "20.00", retailer_basket_code: `replay-${seq}`, basket_items: LINES, basket_vouchers: [v.key] };
    const first = await sell(body);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.results.basket.created_date).toBe("2026-11-21T10:00:00Z");
    const again = await sell(body);
    expect(again.status).toBe(200);
    expect(again.body.results).toEqual({ ...first.body.results, duplicate: true });
    const other = await sell({ ...body, basket_total_price: "21.00" });
    expect(other.body.error?.code).toBe(914);
  });
});
