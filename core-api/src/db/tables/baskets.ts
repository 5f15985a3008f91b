/**
 * Baskets (transactions) of users (`POST /internal/add-basket`; baskets/).
 */
import { sql } from "drizzle-orm";
import { datetime, decimal, index, int, mysqlTable, text } from "drizzle-orm/mysql-core";

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
    createdDate: datetime("created_date", { mode: "date" }).notNull().default(sql`CURRENT_TIMESTAMP`),
  },
  (t) => [index("baskets_by_user").on(t.chainId, t.userId, t.id)],
);
