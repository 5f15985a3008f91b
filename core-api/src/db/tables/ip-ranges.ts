/**
 * The allowed IP ranges for admin login to a chain (spec, "AllowedIpRange"; ip-ranges/).
 */
import { sql } from "drizzle-orm";
import { boolean, int, mysqlTable, uniqueIndex, varchar } from "drizzle-orm/mysql-core";
import { timestamps } from "./columns.ts";

/** A permitted CIDR range of a chain; soft-deleted. */
export const allowedIpRanges = mysqlTable(
  "allowed_ip_ranges",
  {
    id: int("id").autoincrement().primaryKey(),
    chainId: int("chain_id").notNull(),
    /** normalised CIDR (ipaddr.js), for example `192.0.2.0/24` or `2001:db8::/32` */
    cidr: varchar("cidr", { length: 255 }).notNull(),
    /** cidr while the range is not deleted: one live entry per range and chain */
    activeCidr: varchar("active_cidr", { length: 255 }).generatedAlwaysAs(sql`IF(deleted = 0, cidr, NULL)`, { mode: "stored" }),
    notes: varchar("notes", { length: 255 }),
    deleted: boolean("deleted").notNull().default(false),
    lastUpdatedBy: int("last_updated_by"),
    ...timestamps,
  },
  (t) => [uniqueIndex("allowed_ip_ranges_unique_cidr_per_chain").on(t.chainId, t.activeCidr)],
);
