/**
 * Database client of the connector: a mysql2 pool on the customer store wrapped by drizzle.
 */
import type { MySqlDatabase } from "drizzle-orm/mysql-core";
import { drizzle, type MySql2Database } from "drizzle-orm/mysql2";
import type { MySql2PreparedQueryHKT, MySql2QueryResultHKT } from "drizzle-orm/mysql2/session";
import { deadlineAt, openDatabasePool, type DatabaseTimeouts } from "@service/shared/node";
import mysql from "mysql2/promise";
import * as schema from "./schema.ts";

/** The drizzle database; `$client` is its mysql2 pool (for the few statements that skip drizzle's row mapping). */
export type ConnectorDb = MySql2Database<typeof schema> & { $client: mysql.Pool };
/** The database or an open transaction on it: what repository functions take. */
export type ConnectorQueryable = MySqlDatabase<MySql2QueryResultHKT, MySql2PreparedQueryHKT, typeof schema>;

export interface ConnectorDatabase {
  db: ConnectorDb;
  pool: mysql.Pool;
  close(): Promise<void>;
}

/**
 * Opens a pool on `databaseName` of the server at `databaseUrl` (`mysql://user:pass@host:port`).
 * Datetimes travel as UTC and every session's time_zone is UTC (timestamp columns); DECIMAL and BIGINT come back as numbers. Every statement, connection
 * and wait for a free connection is bounded (openDatabasePool of @service/shared/node): a frozen or
 * unreachable database fails a request fast, with an error `isDatabaseUnavailable` recognises, and
 * within the request's deadline (@service/shared/node, request-deadline.ts).
 * Every session reads its writes on a Galera cluster (wsrep_sync_wait,
 * shared/src/node/database-session.ts; a `wsrep_sync_wait` parameter of `databaseUrl` changes it).
 * @param options.connectionLimit pool size (default 10)
 * @param options.timeouts overrides of DEFAULT_DATABASE_TIMEOUTS (milliseconds; 0 = none), for
 *   example no query timeout for migrations
 */
export function openConnectorDatabase(
  databaseUrl: string,
  databaseName: string,
  options: { connectionLimit?: number; timeouts?: Partial<DatabaseTimeouts> } = {},
): ConnectorDatabase {
  // Magento's timestamp columns are stored in UTC and shown in the session's zone: UTC, as the
  // driver reads and writes every date, whatever the server's own zone is.
  const pool = openDatabasePool(databaseUrl, databaseName, { ...options, deadline: deadlineAt, utcSessions: true });
  const db = drizzle(pool, { schema, mode: "default" });
  return { db, pool, close: () => pool.end() };
}
