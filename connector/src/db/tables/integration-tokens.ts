/**
 * The integration tokens the connector's endpoints accept (our own table).
 */
import { boolean, char, datetime, int, mysqlTable, uniqueIndex, varchar } from "drizzle-orm/mysql-core";
import { unsigned } from "./columns.ts";

/** Integration tokens the connector accepts; only the SHA-256 hex of each token is stored. */
export const serviceIntegrationToken = mysqlTable(
  "service_integration_token",
  {
    id: int("id", unsigned).autoincrement().primaryKey(),
    /** lowercase hex SHA-256 of the bearer token */
    tokenHash: char("token_hash", { length: 64 }).notNull(),
    name: varchar("name", { length: 255 }),
    /** revocation is setting this to false (seen by the very next request) */
    isActive: boolean("is_active").notNull().default(true),
    createdAt: datetime("created_at", { mode: "date" }).notNull(),
  },
  (t) => [uniqueIndex("service_integration_token_by_hash").on(t.tokenHash)],
);
