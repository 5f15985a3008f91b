/**
 * Content pages (spec, "Content Page"): a hierarchy per chain through `parent_id`.
 */
import { sql } from "drizzle-orm";
import { boolean, index, int, mysqlTable, text, uniqueIndex, varchar } from "drizzle-orm/mysql-core";
import { timestamps } from "./columns.ts";

export const contentPages = mysqlTable(
  "content_pages",
  {
    id: int("id").autoincrement().primaryKey(),
    chainId: int("chain_id").notNull(),
    name: varchar("name", { length: 255 }).notNull(),
    /** name while the page is not deleted: names are unique among a chain's live pages */
    activeName: varchar("active_name", { length: 255 }).generatedAlwaysAs(sql`IF(deleted = 0, name, NULL)`, { mode: "stored" }),
    displayName: varchar("display_name", { length: 255 }),
    order: int("order").notNull().default(0),
    parentId: int("parent_id"),
    /** JSON array of zone objects, replaced in full on update */
    zones: text("zones"),
    deleted: boolean("deleted").notNull().default(false),
    lastUpdatedBy: int("last_updated_by"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("content_pages_unique_name_per_chain").on(t.chainId, t.activeName),
    index("content_pages_children").on(t.chainId, t.parentId),
  ],
);
