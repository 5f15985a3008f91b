/**
 * Magento's store structure (websites, store groups, store views) and which websites serve which
 * service chain (our own table).
 */
import { index, int, mysqlTable, primaryKey, smallint, uniqueIndex, varchar } from "drizzle-orm/mysql-core";
import { unsigned } from "./columns.ts";

/** Magento websites; customers belong to one when account sharing is per website. */
export const storeWebsite = mysqlTable(
  "store_website",
  {
    websiteId: smallint("website_id", unsigned).autoincrement().primaryKey(),
    code: varchar("code", { length: 32 }).notNull(),
    name: varchar("name", { length: 64 }),
    sortOrder: smallint("sort_order", unsigned).notNull().default(0),
    defaultGroupId: smallint("default_group_id", unsigned).notNull().default(0),
    isDefault: smallint("is_default", unsigned).default(0),
  },
  (t) => [uniqueIndex("STORE_WEBSITE_CODE").on(t.code)],
);

/** Magento store groups ("stores" in the admin); each website has a default one. */
export const storeGroup = mysqlTable(
  "store_group",
  {
    groupId: smallint("group_id", unsigned).autoincrement().primaryKey(),
    websiteId: smallint("website_id", unsigned).notNull().default(0),
    name: varchar("name", { length: 255 }).notNull(),
    rootCategoryId: int("root_category_id", unsigned).notNull().default(0),
    defaultStoreId: smallint("default_store_id", unsigned).notNull().default(0),
    code: varchar("code", { length: 32 }),
  },
  (t) => [uniqueIndex("STORE_GROUP_CODE").on(t.code), index("STORE_GROUP_WEBSITE_ID").on(t.websiteId)],
);

/** Magento store views; `store_code` of the connector endpoints names one. */
export const store = mysqlTable(
  "store",
  {
    storeId: smallint("store_id", unsigned).autoincrement().primaryKey(),
    code: varchar("code", { length: 32 }),
    websiteId: smallint("website_id", unsigned).notNull().default(0),
    groupId: smallint("group_id", unsigned).notNull().default(0),
    name: varchar("name", { length: 255 }).notNull(),
    sortOrder: smallint("sort_order", unsigned).notNull().default(0),
    isActive: smallint("is_active", unsigned).notNull().default(0),
  },
  (t) => [
    uniqueIndex("STORE_CODE").on(t.code),
    index("STORE_WEBSITE_ID").on(t.websiteId),
    index("STORE_GROUP_ID").on(t.groupId),
  ],
);

/** Which Magento websites serve which service chain (a website serves at most one chain). */
export const serviceChainWebsite = mysqlTable(
  "service_chain_website",
  {
    serviceChainId: int("service_chain_id", unsigned).notNull(),
    websiteId: smallint("website_id", unsigned).notNull(),
  },
  (t) => [
    primaryKey({ name: "service_chain_website_pk", columns: [t.serviceChainId, t.websiteId] }),
    uniqueIndex("service_chain_website_by_website").on(t.websiteId),
  ],
);
