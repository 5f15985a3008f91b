/**
 * Magento configuration values (core_config_data).
 */
import { datetime, int, mysqlTable, text, uniqueIndex, varchar } from "drizzle-orm/mysql-core";
import { unsigned } from "./columns.ts";

/**
 * Magento configuration values. Paths the connector reads (scope `default`, scope_id 0):
 * `customer/account_share/scope` (0 global, 1 per website; Magento's default 1),
 * `customer/password/lockout_failures` (default 10), `customer/password/lockout_threshold`
 * (minutes, default 10).
 */
export const coreConfigData = mysqlTable(
  "core_config_data",
  {
    configId: int("config_id", unsigned).autoincrement().primaryKey(),
    scope: varchar("scope", { length: 8 }).notNull().default("default"),
    scopeId: int("scope_id").notNull().default(0),
    path: varchar("path", { length: 255 }).notNull().default("general"),
    value: text("value"),
    updatedAt: datetime("updated_at", { mode: "date" }),
  },
  (t) => [uniqueIndex("CORE_CONFIG_DATA_SCOPE_SCOPE_ID_PATH").on(t.scope, t.scopeId, t.path)],
);
