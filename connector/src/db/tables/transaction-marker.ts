/**
 * Markers of committed transactions (the transaction runner of @service/shared/node): every
 * transaction that writes inserts one row with a key of its own as its last statement, so that
 * when the connection is lost during its COMMIT, a fresh connection can tell whether it committed
 * (the row is there) or rolled back (it is not). Keys start with the time they were made (hex
 * milliseconds), so rows arrive in key order and the runner's sweep deletes the old ones by a
 * range of the primary key; `created_at` says when a row was written.
 */
import { char, datetime, mysqlTable } from "drizzle-orm/mysql-core";
import { sql } from "drizzle-orm";

export const transactionMarker = mysqlTable("transaction_marker", {
  /** 32 hex digits: 12 of the creation time in milliseconds, 20 random */
  id: char("id", { length: 32 }).primaryKey(),
  createdAt: datetime("created_at", { mode: "date" }).notNull().default(sql`CURRENT_TIMESTAMP`),
});
