/**
 * Our own tables for the sync with the platform (handbook, "Sync between the webshop and the
 * platform"): how to reach the core API per chain, and the lease that lets one connector instance
 * at a time run the reconcile.
 */
import { char, datetime, int, mysqlTable, text, varchar } from "drizzle-orm/mysql-core";
import { unsigned } from "./columns.ts";

/**
 * Per chain, the core API the connector sends webshop changes to (sync/platform-link.ts). A chain
 * without a row is not synced.
 */
export const servicePlatformLink = mysqlTable("service_platform_link", {
  serviceChainId: int("service_chain_id", unsigned).primaryKey(),
  /** base URL of the core API, e.g. `https://api.example.com` (no trailing slash) */
  coreApiUrl: varchar("core_api_url", { length: 2048 }).notNull(),
  /**
   * privileged bearer token `<access token id>:<secret>` of the chain's identity-source service
   * client, sealed with the secret box under SERVICE_SECRET_KEY (purpose ACCESS_TOKEN_PURPOSE)
   */
  accessTokenSealed: text("access_token_sealed").notNull(),
  /** hostname of the chain's webshop app: X-Service-App-Hostname of add-user */
  appHostname: varchar("app_hostname", { length: 255 }).notNull(),
  /**
   * when the chain was first linked: customers created before then and never synced are sent by
   * `npm run sync -- --full` only; later registrations by every pass
   */
  linkedAt: datetime("linked_at", { mode: "date", fsp: 3 }).notNull(),
  updatedAt: datetime("updated_at", { mode: "date", fsp: 3 }).notNull(),
});

/**
 * Leases on jobs that must run on one connector instance at a time (sync/sync-lease.ts): a row per
 * job, held by `owner` until `expires_at` (database time). A holder that dies stops renewing, so
 * its lease lapses by itself: nothing waits on a lost connection, as a session lock would.
 */
export const serviceJobLease = mysqlTable("service_job_lease", {
  /** the job, e.g. `reconcile` */
  name: varchar("name", { length: 64 }).primaryKey(),
  /** random id of the run holding it; null when free */
  owner: char("owner", { length: 36 }),
  /** the lease lapses at this moment (database clock, UTC); null when free */
  expiresAt: datetime("expires_at", { mode: "date", fsp: 3 }),
  /** when the current holder took it */
  acquiredAt: datetime("acquired_at", { mode: "date", fsp: 3 }),
});
