/**
 * Failed-login counters (auth/throttle.ts): one row per account, per account and client
 * address, and per client address that has recently failed to log in. Kept in MySQL so every worker sees the same counts (handbook, "Scale
 * beyond one machine").
 */
import { char, datetime, index, int, mysqlTable, varchar } from "drizzle-orm/mysql-core";

export const loginThrottle = mysqlTable(
  "login_throttle",
  {
    /**
     * hex SHA-256 of the counter's key (`admin:<id>`, `user-name:<chain>:<name>`, `address:<ip>`...):
     * a key may hold a typed username, which is sometimes a mistyped password, so it is never stored
     */
    keyHash: char("key_hash", { length: 64 }).primaryKey(),
    /** `pair` (account and address), `address` or `account` (all addresses): which limit applies */
    scope: varchar("scope", { length: 16 }).notNull(),
    /** attempts counted in the current window (a success takes its own back) */
    failures: int("failures").notNull().default(0),
    windowStartedAt: datetime("window_started_at", { mode: "date", fsp: 3 }).notNull(),
    /** login refused until then; null when not locked */
    lockedUntil: datetime("locked_until", { mode: "date", fsp: 3 }),
  },
  (t) => [index("login_throttle_prune_by_window").on(t.windowStartedAt)],
);

/**
 * Addresses an account has logged in from lately (auth/throttle.ts): an attempt from one of them
 * is not held back by the account-wide pacing that failures from other addresses build up, so
 * strangers failing on purpose cannot keep the owner out.
 */
export const loginKnownAddress = mysqlTable(
  "login_known_address",
  {
    /** hex SHA-256 of `known:<account>|<address>` (the account key may hold a typed username) */
    keyHash: char("key_hash", { length: 64 }).primaryKey(),
    /** the address counts as the account's own until then (a later success moves it on) */
    knownUntil: datetime("known_until", { mode: "date", fsp: 3 }).notNull(),
  },
  (t) => [index("login_known_address_prune_by_expiry").on(t.knownUntil)],
);
