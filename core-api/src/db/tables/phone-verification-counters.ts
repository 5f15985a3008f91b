/**
 * Phone verification counters (users/phone-verification-limits.ts): per chain, how many codes were
 * sent to a user, to a number and by the chain, and how many wrong codes a user and a number
 * had, in the current window. Kept in the database so every core-api process counts alike, and
 * written under the row's lock in the transaction that sends or checks a code.
 */
import { datetime, index, int, mysqlTable, primaryKey, varchar } from "drizzle-orm/mysql-core";

export const phoneVerificationCounters = mysqlTable(
  "phone_verification_counters",
  {
    chainId: int("chain_id").notNull(),
    /** what is counted: `send_user`, `send_number`, `send_chain`, `try_user` or `try_number` */
    scope: varchar("scope", { length: 16 }).notNull(),
    /** whose count: the user id, the E.164 number, or empty for the chain */
    subject: varchar("subject", { length: 32 }).notNull(),
    /** events counted in the window that started at window_started_at */
    count: int("count").notNull().default(0),
    windowStartedAt: datetime("window_started_at", { mode: "date", fsp: 3 }).notNull(),
    /** the last event counted (a number's codes are spaced by the chain's send interval) */
    lastCountedAt: datetime("last_counted_at", { mode: "date", fsp: 3 }),
  },
  (t) => [
    primaryKey({ name: "phone_verification_counters_key", columns: [t.chainId, t.scope, t.subject] }),
    index("phone_verification_counters_prune").on(t.chainId, t.windowStartedAt),
  ],
);
