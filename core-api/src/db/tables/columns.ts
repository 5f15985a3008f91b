/**
 * Columns many tables share. Datetimes are stored as UTC (the pool runs with timezone "Z").
 */
import { sql } from "drizzle-orm";
import { datetime } from "drizzle-orm/mysql-core";

/** created_date and last_modified_date, both set by the database when a row is inserted. */
export const timestamps = {
  createdDate: datetime("created_date", { mode: "date" }).notNull().default(sql`CURRENT_TIMESTAMP`),
  lastModifiedDate: datetime("last_modified_date", { mode: "date" }).notNull().default(sql`CURRENT_TIMESTAMP`),
};
