/**
 * Vouchers (spec, "Voucher"): digital entitlements of a user, created by a campaign.
 */
import { sql } from "drizzle-orm";
import { bigint, boolean, char, datetime, double, index, int, mysqlTable, uniqueIndex, varchar } from "drizzle-orm/mysql-core";
import { timestamps } from "./columns.ts";

const ref = (name: string) => int(name);

export const vouchers = mysqlTable(
  "vouchers",
  {
    id: int("id").autoincrement().primaryKey(),
    chainId: int("chain_id").notNull(),
    /** 64 unguessable characters */
    key: char("key", { length: 64 }).notNull(),
    /** basket | basket_pct | honour | basket_fixed_unit */
    type: varchar("type", { length: 255 }).notNull(),
    /** generated | claimed | redeemed */
    status: varchar("status", { length: 16 }).notNull(),
    campaignId: ref("campaign_id").notNull(),
    userId: ref("user_id").notNull(),
    creatingUserId: ref("creating_user_id"),
    currencyId: ref("currency_id"),
    basketId: ref("basket_id"),
    generatingReturnTransactionId: ref("generating_return_transaction_id"),
    parentVoucherId: ref("parent_voucher_id"),
    redemptionExclusiveBusinessId: ref("redemption_exclusive_business_id"),
    taskId: ref("task_id"),
    amount: double("amount"),
    amountRedeemed: double("amount_redeemed"),
    discountRatio: double("discount_ratio"),
    basketOwnerCodeExclusive: varchar("basket_owner_code_exclusive", { length: 255 }),
    description: varchar("description", { length: 4096 }),
    notes: varchar("notes", { length: 4096 }),
    imageUrl: varchar("image_url", { length: 4096 }),
    honourCode: varchar("honour_code", { length: 255 }),
    lockingCode: varchar("locking_code", { length: 255 }),
    text: varchar("text", { length: 255 }),
    title: varchar("title", { length: 255 }),
    platformDiscountCode: varchar("platform_discount_code", { length: 128 }),
    platformDiscountCodeId: varchar("platform_discount_code_id", { length: 128 }),
    platformPriceRuleId: bigint("platform_price_rule_id", { mode: "number" }),
    thirdPartyId: bigint("third_party_id", { mode: "number" }),
    expiryDate: datetime("expiry_date", { mode: "date" }),
    lockedUntil: datetime("locked_until", { mode: "date" }).notNull().default(sql`CURRENT_TIMESTAMP`),
    redeemedDate: datetime("redeemed_date", { mode: "date" }),
    dbRedeemedDate: datetime("db_redeemed_date", { mode: "date" }),
    deleted: boolean("deleted").notNull().default(false),
    lastUpdatedBy: int("last_updated_by"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("vouchers_by_key").on(t.key),
    index("vouchers_of_user").on(t.chainId, t.userId, t.status),
    index("vouchers_of_campaign").on(t.chainId, t.campaignId),
    index("vouchers_list_by_created").on(t.chainId, t.createdDate),
  ],
);
