/**
 * Admin users and their access levels per chain (spec, "Authentication": admin access levels).
 */
import { boolean, int, mysqlTable, primaryKey, uniqueIndex, varchar } from "drizzle-orm/mysql-core";
import { timestamps } from "./columns.ts";

/** Admin users log in with a globally unique username; their rights are per chain. */
export const adminUsers = mysqlTable(
  "admin_users",
  {
    id: int("id").autoincrement().primaryKey(),
    username: varchar("username", { length: 255 }).notNull(),
    /** argon2id PHC string */
    passwordHash: varchar("password_hash", { length: 255 }).notNull(),
    firstname: varchar("firstname", { length: 255 }),
    lastname: varchar("lastname", { length: 255 }),
    active: boolean("active").notNull().default(true),
    ...timestamps,
  },
  (t) => [uniqueIndex("admin_users_by_username").on(t.username)],
);

/** Access levels of one admin on one chain (spec, "Authentication": admin access levels). */
export const adminChainPermissions = mysqlTable(
  "admin_chain_permissions",
  {
    adminUserId: int("admin_user_id").notNull(),
    chainId: int("chain_id").notNull(),
    read: boolean("read").notNull().default(false),
    write: boolean("write").notNull().default(false),
    delete: boolean("delete").notNull().default(false),
    assign: boolean("assign").notNull().default(false),
    superUser: boolean("super_user").notNull().default(false),
    campaign: boolean("campaign").notNull().default(false),
    campaignEnable: boolean("campaign_enable").notNull().default(false),
    analytics: boolean("analytics").notNull().default(false),
    export: boolean("export").notNull().default(false),
    segmentQuery: boolean("segment_query").notNull().default(false),
  },
  (t) => [primaryKey({ name: "admin_chain_permissions_pk", columns: [t.adminUserId, t.chainId] })],
);
