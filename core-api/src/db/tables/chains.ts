/**
 * Chains (spec, "Chain (singular resource)"), the top-level organisation every other row belongs
 * to, and the apps whose hostname (`X-Service-App-Hostname`) names a chain for its shoppers.
 */
import { boolean, index, int, mysqlTable, uniqueIndex, varchar } from "drizzle-orm/mysql-core";
import { chainSettings } from "./chain-settings.ts";
import { timestamps } from "./columns.ts";

/** A chain: the top-level retail organisation every other object belongs to. */
export const chains = mysqlTable("chains", {
  id: int("id").autoincrement().primaryKey(),
  name: varchar("name", { length: 255 }).notNull(),
  deleted: boolean("deleted").notNull().default(false),
  ...chainSettings,
  lastUpdatedBy: int("last_updated_by"),
  /**
   * Counts the writes of the chain's member-number ranges (users/range-write-lock.ts): every such
   * write bumps it first, so two writes on different Galera nodes touch this row and the later
   * one fails certification and is run again, as a row lock alone would not make them.
   */
  memberNumberRangesVersion: int("member_number_ranges_version").notNull().default(0),
  ...timestamps,
});

/** Apps map a hostname (`X-Service-App-Hostname`) to the chain whose shoppers use it. */
export const apps = mysqlTable(
  "apps",
  {
    id: int("id").autoincrement().primaryKey(),
    chainId: int("chain_id").notNull(),
    hostname: varchar("hostname", { length: 255 }).notNull(),
    name: varchar("name", { length: 255 }),
    /** `native_app`, `mobile_web` or `webshop`: the signup channel of a user added through it (users/signup-channel.ts) */
    kind: varchar("kind", { length: 16 }).notNull().default("native_app"),
    ...timestamps,
  },
  (t) => [uniqueIndex("apps_by_hostname").on(t.hostname), index("apps_by_chain").on(t.chainId)],
);
