/**
 * Database client of the core API: a mysql2 pool wrapped by drizzle. Runs on Node and on Deno.
 */
import { drizzle, type MySql2Database } from "drizzle-orm/mysql2";
import { applySessionSettings, databaseSession } from "@service/shared/database-session";
import { DEFAULT_DATABASE_TIMEOUTS, guardPool, type DatabaseTimeouts } from "@service/shared/node";
import { remainingMs } from "@service/shared/node";
import mysql from "mysql2/promise";
import * as schema from "./schema.ts";

/**
 * The drizzle client of the core database. `$client` is its mysql2 pool (db/compiled-select.ts
 * runs on it). Its connections take one statement per text: a transaction is never sent as one
 * text (@service/shared/node, transaction-runner.ts).
 */
export type CoreDb = MySql2Database<typeof schema> & { $client: mysql.Pool };

export interface CoreDatabase {
  db: CoreDb;
  pool: mysql.Pool;
  close(): Promise<void>;
}

/**
 * Opens a pool on `databaseName` of the server at `databaseUrl` (`mysql://user:pass@host:port`).
 * Datetimes travel as UTC; DECIMAL and BIGINT come back as numbers. Every statement, connection
 * and wait for a free connection is bounded (db-timeouts.ts of @service/shared): a frozen or
 * unreachable database fails a request fast, with an error `isDatabaseUnavailable` recognises, and
 * within the request's deadline (@service/shared/node, request-deadline.ts).
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
  } as const;
  const pool = guardPool(applySessionSettings(mysql.createPool(settings), session), timeouts, remainingMs);
  const db = drizzle(pool, { schema, mode: "default" }) as CoreDb;
  return { db, pool, close: () => pool.end() };
}
