/**
 * Login sessions of admins and shoppers (auth/sessions.ts).
 */
import { sql } from "drizzle-orm";
import { char, datetime, index, int, mysqlTable, uniqueIndex, varchar } from "drizzle-orm/mysql-core";

/** Login sessions. Only the SHA-256 of the session key is stored. */
export const sessions = mysqlTable(
  "sessions",
  {
    id: int("id").autoincrement().primaryKey(),
    /** `admin` or `end_user` */
    kind: varchar("kind", { length: 16 }).notNull(),
    userId: int("user_id").notNull(),
    /** hex SHA-256 of the session key */
    keyHash: char("key_hash", { length: 64 }).notNull(),
    /** chain of the app an end-user logged in through; null for admins */
    chainId: int("chain_id"),
    expiresAt: datetime("expires_at", { mode: "date" }).notNull(),
    createdDate: datetime("created_date", { mode: "date" }).notNull().default(sql`CURRENT_TIMESTAMP`),
  },
  (t) => [
    uniqueIndex("sessions_by_key_hash").on(t.keyHash),
    index("sessions_by_user").on(t.userId),
    index("sessions_prune_by_expiry").on(t.expiresAt),
  ],
);
