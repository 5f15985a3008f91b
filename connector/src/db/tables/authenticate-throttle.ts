/**
 * Authenticate counters per client address (customers/address-throttle.ts): one row per address
 * that has recently tried to authenticate a customer. Our own table; kept in MySQL so every
 * connector instance sees the same counts (handbook, "Scale beyond one machine").
 */
import { char, datetime, index, int, mysqlTable, primaryKey } from "drizzle-orm/mysql-core";
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

/**
 * The webshop's own lockout, counted per customer and client address
 * (customers/customer-throttle.ts): Magento's rule (customer/password/lockout_failures failures
 * within lockout_threshold minutes lock for lockout_threshold minutes), but only the address that
 * failed is locked out of that account. Our own table.
 */
export const serviceAuthenticateLockout = mysqlTable(
  "service_authenticate_lockout",
  {
    /** customer_entity.entity_id (no foreign key: a counter outlives nothing it protects) */
    customerId: int("customer_id", unsigned).notNull(),
    /** hex SHA-256 of the client address */
    addressHash: char("address_hash", { length: 64 }).notNull(),
    /** attempts counted in the current window (counted before the password is checked; a success resets it to 0 and ends the window) */
    failures: int("failures", unsigned).notNull().default(0),
    windowStartedAt: datetime("window_started_at", { mode: "date", fsp: 3 }).notNull(),
    /** this address may not authenticate this customer until then; null when not locked */
    lockedUntil: datetime("locked_until", { mode: "date", fsp: 3 }),
  },
  (t) => [
    primaryKey({ name: "service_authenticate_lockout_pk", columns: [t.customerId, t.addressHash] }),
    index("service_authenticate_lockout_prune_by_window").on(t.windowStartedAt),
  ],
);
