/**
 * End-users (shoppers) of a chain.
 */
import { boolean, index, int, mysqlTable, uniqueIndex, varchar } from "drizzle-orm/mysql-core";
import { timestamps } from "./columns.ts";

/** A shopper of a chain. Usernames are unique within a chain (an admin may share one). */
export const users = mysqlTable(
  "users",
  {
    id: int("id").autoincrement().primaryKey(),
    chainId: int("chain_id").notNull(),
    username: varchar("username", { length: 255 }).notNull(),
    /** argon2id PHC string; null for a user who cannot log in with a password */
    passwordHash: varchar("password_hash", { length: 255 }),
    firstName: varchar("first_name", { length: 255 }),
    lastName: varchar("last_name", { length: 255 }),
    memberNumber: varchar("member_number", { length: 64 }),
    active: boolean("active").notNull().default(true),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("users_unique_username_per_chain").on(t.chainId, t.username),
    index("users_by_member_number").on(t.chainId, t.memberNumber),
  ],
);
