/**
 * Authenticate counters per client address (customers/address-throttle.ts): one row per address
 * that has recently tried to authenticate a customer. Our own table; kept in MySQL so every
 * connector instance sees the same counts (handbook, "Scale beyond one machine").
 */
import { char, datetime, index, int, mysqlTable } from "drizzle-orm/mysql-core";
import { unsigned } from "./columns.ts";

export const serviceAuthenticateThrottle = mysqlTable(
  "service_authenticate_throttle",
  {
    /** hex SHA-256 of the client address: the table holds no address in clear */
    addressHash: char("address_hash", { length: 64 }).primaryKey(),
    /** failed attempts in the current window */
    failures: int("failures", unsigned).notNull().default(0),
    /** attempts counted and not answered yet (a burst is bounded by failures + pending) */
    pending: int("pending", unsigned).notNull().default(0),
    windowStartedAt: datetime("window_started_at", { mode: "date", fsp: 3 }).notNull(),
    /** authenticate refused from this address until then; null when not locked */
    lockedUntil: datetime("locked_until", { mode: "date", fsp: 3 }),
  },
  (t) => [index("service_authenticate_throttle_prune_by_window").on(t.windowStartedAt)],
);
