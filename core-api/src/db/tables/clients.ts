/**
 * Service clients and their access tokens (spec, "ServiceClient", "AccessToken").
 */
import { boolean, char, index, int, mysqlTable, varchar } from "drizzle-orm/mysql-core";
import { timestamps } from "./columns.ts";

export const serviceClients = mysqlTable(
  "service_clients",
  {
    id: int("id").autoincrement().primaryKey(),
    chainId: int("chain_id").notNull(),
    name: varchar("name", { length: 255 }).notNull(),
    emailContact: varchar("email_contact", { length: 256 }),
    enabled: boolean("enabled").notNull().default(true),
    isIdentitySource: boolean("is_identity_source").notNull().default(false),
    deleted: boolean("deleted").notNull().default(false),
    deletedBy: int("deleted_by"),
    lastUpdatedBy: int("last_updated_by"),
    ...timestamps,
  },
  (t) => [index("service_clients_by_chain").on(t.chainId, t.id)],
);

/** A bearer token of a service client; the secret is kept only as its SHA-256. */
export const accessTokens = mysqlTable(
  "access_tokens",
  {
    /** UUID */
    id: char("id", { length: 36 }).primaryKey(),
    serviceClientId: int("service_client_id").notNull(),
    /** chain of the service client, copied so every lookup filters on the chain first */
    chainId: int("chain_id").notNull(),
    /** comma-separated `key:value` scopes, fixed at creation */
    scope: varchar("scope", { length: 1024 }).notNull(),
    /** hex SHA-256 of the token secret */
    secretHash: char("secret_hash", { length: 64 }).notNull(),
    active: boolean("active").notNull().default(true),
    deleted: boolean("deleted").notNull().default(false),
    lastUpdatedBy: int("last_updated_by"),
    ...timestamps,
  },
  (t) => [
    index("access_tokens_by_chain").on(t.chainId, t.createdDate),
    index("access_tokens_by_client").on(t.serviceClientId),
  ],
);
