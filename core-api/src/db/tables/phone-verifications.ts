/**
 * Phone-number verification codes (spec, "Events": `phone_number_verification`; handbook,
 * "Events"): one pending code per user.
 */
import { char, datetime, int, mysqlTable, primaryKey, tinyint, varchar } from "drizzle-orm/mysql-core";

/**
 * The code last sent to a user's phone number: a new one replaces it (the primary key is the
 * user). Only its keyed hash is kept. Valid until `expires_at` for `MAX_ATTEMPTS` tries;
 * `verified_date` is set when the right code came (a repeat of it is answered the same).
 */
export const phoneVerifications = mysqlTable(
  "phone_verifications",
  {
    userId: int("user_id").notNull(),
    chainId: int("chain_id").notNull(),
    /** the E.164 number the code was sent to */
    phoneNumber: varchar("phone_number", { length: 32 }).notNull(),
    /** hex HMAC-SHA256 of the code under a key derived from SERVICE_SECRET_KEY (users/phone-verification.ts) */
    codeHash: char("code_hash", { length: 64 }).notNull(),
    /** wrong codes tried so far */
    attempts: tinyint("attempts").notNull().default(0),
    expiresAt: datetime("expires_at", { mode: "date" }).notNull(),
    verifiedDate: datetime("verified_date", { mode: "date" }),
    createdDate: datetime("created_date", { mode: "date" }).notNull(),
  },
  (t) => [primaryKey({ name: "phone_verifications_user", columns: [t.userId] })],
);
