/**
 * The basket targets of the throughput section: get-basket-price for a member with 5 claimed
 * vouchers and a 20-line basket, and add-basket redeeming 2 vouchers per sale, with their floor:
 * a bare transaction on a mysql2 pool that inserts one row and updates two (what a sale writes at
 * the least; bench/floors/bare-sale-transaction.ts). Members and vouchers are seeded straight into the bench's core database in a chain
 * of their own, emptied of stores by the run; every sale has its own two vouchers and member
 * spread (a sale locks its member's row), so no sale waits for another.
 */
import { and, eq, like } from "drizzle-orm";
import { users, vouchers } from "../core-api/src/db/schema.ts";
import type { ProductRequest } from "./product-requests.ts";
import type { BenchChain, BenchContext } from "./section.ts";

/** The chain the basket targets use. */
export const BASKETS_CHAIN_NAME = "Bench Baskets";
const MEMBERS = 200;
const LINES = 20;

/** What the basket targets need: the chain, the pricing member, and one voucher pair per sale. */
export interface BasketBench {
  chain: BenchChain;
  pricingMember: number;
  /** per sale: its member and its two voucher keys */
  sales: Array<{ userId: number; keys: [string, string] }>;
  runTag: string;
}

const key = (tag: string, n: number) => `bench${tag}${String(n).padStart(12, "0")}`.padEnd(64, "x");

/**
 * Seeds the members and vouchers of one run: `sales` sales' worth of voucher pairs.
 * @param sales how many add-basket requests the run may send at most (each needs fresh vouchers)
 */
export async function prepareBasketBench(ctx: BenchContext, sales: number): Promise<BasketBench> {
  const chain = await ctx.emptyChain(BASKETS_CHAIN_NAME);
  const runTag = Date.now().toString(36);
  const prefix = `bench-basket-${runTag}-`;
  const db = ctx.db;
  await db.insert(users).values(Array.from({ length: MEMBERS }, (_, i) => ({ chainId: chain.chainId, username: `${prefix}${i}@example.com` })));
  const members = (await db.select({ id: users.id }).from(users).where(and(eq(users.chainId, chain.chainId), like(users.username, `${prefix}%`)))).map((r) => r.id);
  const voucher = (userId: number, k: string, type: string, extra: Record<string, unknown>) =>
    ({ chainId: chain.chainId, key: k, type, status: "claimed", campaignId: 1, userId, lockedUntil: new Date(0), ...extra });
  const pricingMember = members[0]!;
  await db.insert(vouchers).values([
    voucher(pricingMember, key(`${runTag}p`, 0), "basket_fixed_unit", { amount: 0.1 }),
    voucher(pricingMember, key(`${runTag}p`, 1), "basket_pct", { discountRatio: 0.1 }),
    voucher(pricingMember, key(`${runTag}p`, 2), "basket", { amount: 2 }),
    voucher(pricingMember, key(`${runTag}p`, 3), "basket", { amount: 5, expiryDate: new Date(Date.now() + 86_400_000) }),
    voucher(pricingMember, key(`${runTag}p`, 4), "honour", { honourCode: "BENCH" }),
  ]);
  const list: BasketBench["sales"] = [];
  for (let n = 0; n < sales; n++) list.push({ userId: members[1 + (n % (members.length - 1))]!, keys: [key(`${runTag}a`, n), key(`${runTag}b`, n)] });
  for (let i = 0; i < list.length; i += 1000) {
    const rows = list.slice(i, i + 1000).flatMap((s) => [
      voucher(s.userId, s.keys[0], "basket_pct", { discountRatio: 0.1 }),
      voucher(s.userId, s.keys[1], "honour", { honourCode: "BENCH" }),
    ]);
    await db.insert(vouchers).values(rows);
  }
  return { chain, pricingMember, sales: list, runTag };
}

/** get-basket-price for the pricing member: 20 lines, every claimed voucher considered. */
export function basketPriceRequest(b: BasketBench): ProductRequest {
  const items = Array.from({ length: LINES }, (_, i) => ({ retailer_item_code: `SKU-${i}`, item_quantity: 1 + (i % 3), item_price: ((i + 1) * 1.25).toFixed(2) }));
  const total = items.reduce((a, l) => a + Number(l.item_price), 0).toFixed(2);
  const body = { chain_id: b.chain.chainId, user_id: b.pricingMember, basket_total_price: total, basket_items: items };
  return { method: "POST", path: "/internal/get-basket-price", headers: { ...b.chain.headers, "content-type": "application/json" }, body: JSON.stringify(body) };
}

/** add-basket for sale `n`: two lines, its own retailer_basket_code, its two vouchers redeemed. */
export function basketSaleRequest(b: BasketBench, n: number): ProductRequest {
  const sale = b.sales[n % b.sales.length]!;
  const body = {
    chain_id: b.chain.chainId, user_id: sale.userId, basket_total_price: "20.00", retailer_basket_code: `BB-${b.runTag}-${n}`,
    basket_items: [{ retailer_item_code: "A", item_price: "12.50" }, { retailer_item_code: "B", item_price: "7.50" }],
    basket_vouchers: sale.keys,
  };
  return { method: "POST", path: "/internal/add-basket", headers: { ...b.chain.headers, "content-type": "application/json" }, body: JSON.stringify(body) };
}
