/**
 * Database client of the core API: a mysql2 pool wrapped by drizzle. Runs on Node and on Deno.
 */
import { drizzle, type MySql2Database } from "drizzle-orm/mysql2";
import { applySessionSettings, databaseSession } from "@service/shared/database-session";
import { DEFAULT_DATABASE_TIMEOUTS, guardPool, type DatabaseTimeouts } from "@service/shared/node";
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
 * mysql2's own interpolation of `?` values into a text statement (`format`, with the
 * connection's stringifyObjects and time zone, as mysql2 calls it), skipped for a statement
 * without values: mysql2 scans the whole text for placeholders even then (the search's statements,
 * a few kilobytes each, carry their values as literals, businesses/query.ts).
 */
function formatQuery(this: { config: { stringifyObjects?: boolean } }, sql: string, values: unknown, timezone: string): string {
  if (values === undefined || values === null || (Array.isArray(values) && values.length === 0)) return sql;
  return interpolate(sql, values, this.config.stringifyObjects, timezone);
}

/** mysql2's `format` with the parameters it takes beyond its typings (sql-escaper's positional API). */
const interpolate = mysql.format as unknown as (sql: string, values: unknown, stringifyObjects: boolean | undefined, timezone: string) => string;

/**
 * Opens a pool on `databaseName` of the server at `databaseUrl` (`mysql://user:pass@host:port`).
 * Datetimes travel as UTC; DECIMAL and BIGINT come back as numbers. Every statement, connection
 * and wait for a free connection is bounded (db-timeouts.ts of @service/shared): a frozen or
 * unreachable database fails a request fast, with an error `isDatabaseUnavailable` recognises, and
 * within the request's deadline on the request's handle of the database (db/request-database.ts).
 * Every session reads its writes on a Galera cluster (wsrep_sync_wait, shared/src/database-session.ts;
 * a `wsrep_sync_wait` parameter of `databaseUrl` changes it).
 * @param options.connectionLimit pool size (default 10)
 * @param options.timeouts overrides of DEFAULT_DATABASE_TIMEOUTS (milliseconds; 0 = none), for
 *   example no query timeout for migrations
 */
export function openCoreDatabase(
  databaseUrl: string,
  databaseName: string,
  options: { connectionLimit?: number; timeouts?: Partial<DatabaseTimeouts> } = {},
): CoreDatabase {
  const session = databaseSession(databaseUrl, databaseName);
  const timeouts = { ...DEFAULT_DATABASE_TIMEOUTS, ...options.timeouts };
  const settings = {
    uri: session.uri,
    timezone: "Z",
    dateStrings: false,
    decimalNumbers: true,
    supportBigNumbers: true,
    connectionLimit: options.connectionLimit ?? 10,
    charset: "utf8mb4_unicode_ci",
    connectTimeout: timeouts.connectTimeoutMs || undefined,
    // No call-site stack captured per statement (mysql2's "long stack traces": an
    // Error.captureStackTrace for every query); a failed statement's error keeps its code, message
    // and SQL, which is what the service reads (http/database-unavailable.ts).
    trace: false,
    // typed by mysql2 as returning nothing and without its `this` (the connection)
    queryFormat: formatQuery as unknown as (query: string, values: unknown) => void,
  } as const;
  const pool = guardPool(applySessionSettings(mysql.createPool(settings), session), timeouts);
  const db = drizzle(pool) as CoreDb;
  return { db, pool, close: () => pool.end() };
}
