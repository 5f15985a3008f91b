/**
 * Database client of the core API: a mysql2 pool wrapped by drizzle. Runs on Node and on Deno.
 */
import { drizzle, type MySql2Database } from "drizzle-orm/mysql2";
import { openDatabasePool, type DatabaseTimeouts } from "@service/shared/node";
import mysql from "mysql2/promise";

/**
 * The drizzle client of the core database. `$client` is its mysql2 pool (db/compiled-select.ts
 * runs on it). Its connections take one statement per text: a transaction is never sent as one
 * text (@service/shared/node, transaction-runner.ts). No relational queries (`db.query`): a
 * request's handle of the database is a drizzle client made per request
 * (db/request-database.ts), and drizzle builds one query builder per table for them.
 */
export type CoreDb = MySql2Database & { $client: mysql.Pool };

export interface CoreDatabase {
  db: CoreDb;
  pool: mysql.Pool;
  close(): Promise<void>;
}

/**
 * Opens a pool on `databaseName` of the server at `databaseUrl` (`mysql://user:pass@host:port`).
 * Datetimes travel as UTC; DECIMAL and BIGINT come back as numbers. Every statement, connection
 * and wait for a free connection is bounded (openDatabasePool of @service/shared/node): a frozen or
 * unreachable database fails a request fast, with an error `isDatabaseUnavailable` recognises, and
 * within the request's deadline on the request's handle of the database (db/request-database.ts).
 * Every session reads its writes on a Galera cluster (wsrep_sync_wait,
 * shared/src/node/database-session.ts; a `wsrep_sync_wait` parameter of `databaseUrl` changes it).
 * @param options.connectionLimit pool size (default 10)
 * @param options.timeouts overrides of DEFAULT_DATABASE_TIMEOUTS (milliseconds; 0 = none), for
 *   example no query timeout for migrations
 */
export function openCoreDatabase(
  databaseUrl: string,
  databaseName: string,
  options: { connectionLimit?: number; timeouts?: Partial<DatabaseTimeouts> } = {},
): CoreDatabase {
  const pool = openDatabasePool(databaseUrl, databaseName, options);
  const db = drizzle(pool) as CoreDb;
  return { db, pool, close: () => pool.end() };
}
