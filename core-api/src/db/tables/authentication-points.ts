/**
 * The chain's authentication point (handbook, "Sync between the webshop and the platform"): the
 * webshop connector that holds the chain's shopper credentials and customer records. Shopper
 * logins through the chain's apps are checked by its `authenticate` (auth/login.ts) and members
 * are found or created by `authentication_point_identifier` (the webshop customer id). Which
 * service client speaks for it is the chain's identity-source client
 * (service_clients.is_identity_source).
 */
import { int, mysqlTable, uniqueIndex, varchar } from "drizzle-orm/mysql-core";
import { timestamps } from "./columns.ts";

/** One authentication point per chain. */
export const authenticationPoints = mysqlTable(
  "authentication_points",
  {
    id: int("id").autoincrement().primaryKey(),
    chainId: int("chain_id").notNull(),
    /** what kind of system it is; `webshop` (a Magento shop behind the connector) is the only one */
    kind: varchar("kind", { length: 16 }).notNull().default("webshop"),
    /** the connector's base URL, without a trailing slash (http or https) */
    baseUrl: varchar("base_url", { length: 512 }).notNull(),
    /** the connector's integration token, sealed (shared/src/secret-box.ts; never rendered) */
    integrationTokenSealed: varchar("integration_token_sealed", { length: 1024 }).notNull(),
    /** admin user id of the last change; null when set by the operator CLI or the demo seed */
    lastUpdatedBy: int("last_updated_by"),
    ...timestamps,
  },
  (t) => [uniqueIndex("authentication_points_one_per_chain").on(t.chainId)],
);
