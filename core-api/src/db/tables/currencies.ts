/**
 * The currencies vouchers and chains refer to, global to every chain; migration
 * 0002_seed_currencies fills them.
 */
import { char, int, mysqlTable, uniqueIndex, varchar } from "drizzle-orm/mysql-core";

/** ISO 4217 currencies. */
export const currencies = mysqlTable(
  "currencies",
  {
    id: int("id").autoincrement().primaryKey(),
    code: char("code", { length: 3 }).notNull(),
    name: varchar("name", { length: 64 }).notNull(),
  },
  (t) => [uniqueIndex("currencies_by_code").on(t.code)],
);
