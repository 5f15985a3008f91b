/**
 * Baskets (transactions) of users (`POST /internal/add-basket`; baskets/). A basket is never
 * edited once stored; a return is a new basket whose lines name the original's
 * retailer_basket_code.
 */
import { sql } from "drizzle-orm";
import { char, datetime, decimal, double, index, int, mysqlTable, text, uniqueIndex, varchar } from "drizzle-orm/mysql-core";

/** One recorded basket of a user at a branch business (or none, online). */
export const baskets = mysqlTable(
  "baskets",
  {
    id: int("id").autoincrement().primaryKey(),
    chainId: int("chain_id").notNull(),
    userId: int("user_id").notNull(),
    /** businesses.id; null when the basket names no branch business */
    branchBusinessId: int("branch_business_id"),
    basketTotalPrice: decimal("basket_total_price", { precision: 12, scale: 2, mode: "number" }).notNull(),
    /** JSON array of items as sent; null without items */
    items: text("items"),
    /** the shop's code of the basket: unique per chain, the key of add-basket's idempotency; null: none */
    retailerBasketCode: varchar("retailer_basket_code", { length: 255 }),
    /** in_store | online; null for baskets stored before pricing */
    basketPlatformType: varchar("basket_platform_type", { length: 16 }),
    /** the sum of the vouchers' discounts */
    basketDiscount: decimal("basket_discount", { precision: 12, scale: 2, mode: "number" }).notNull().default(0),
    /** JSON of the basket's pricing (add-basket's `pricing`), answered again to a replay */
    pricing: text("pricing"),
    /** SHA-256 (hex) of the canonical request: a replay with the same code and other content is refused */
    requestHash: char("request_hash", { length: 64 }),
    createdDate: datetime("created_date", { mode: "date" }).notNull().default(sql`CURRENT_TIMESTAMP`),
  },
  (t) => [
    index("baskets_by_user").on(t.chainId, t.userId, t.id),
    uniqueIndex("baskets_by_retailer_code").on(t.chainId, t.retailerBasketCode),
  ],
);

/**
 * Quantities returned of a line of a stored basket: one row per return basket and returned
 * line, so a line is never returned beyond its original quantity. The original basket itself is
 * never edited.
 *
 * `line_return_number` counts the returns of one original line (1, 2, ...) and is unique with
 * it: two returns of one line racing on two Galera nodes (where a locking read of the original
 * basket locks nothing on the other node) both write number n, so the later commit fails
 * certification and its re-run sees the first (baskets/returns.ts).
 */
export const basketReturns = mysqlTable(
  "basket_returns",
  {
    id: int("id").autoincrement().primaryKey(),
    chainId: int("chain_id").notNull(),
    originalBasketId: int("original_basket_id").notNull(),
    retailerItemCode: varchar("retailer_item_code", { length: 64 }).notNull(),
    returnBasketId: int("return_basket_id").notNull(),
    /** the quantity returned (positive) */
    quantity: double("quantity").notNull(),
    /** 1 for the line's first return row, then 2, ... (see the table's comment) */
    lineReturnNumber: int("line_return_number").notNull(),
  },
  (t) => [uniqueIndex("basket_returns_of_line").on(t.originalBasketId, t.retailerItemCode, t.lineReturnNumber)],
);
