/**
 * The mysql2 pool both services open on their database: the same driver settings, the session
 * settings of database-session.ts (read-your-writes on a Galera cluster) and the timeouts of
 * db-timeouts.ts, so a frozen or unreachable database fails a request fast with an error
 * `isDatabaseUnavailable` recognises.
 */
import mysql from "mysql2/promise";
import { applySessionSettings, databaseSession } from "./database-session.ts";
import { DEFAULT_DATABASE_TIMEOUTS, guardPool, type DatabaseTimeouts, type DeadlineSource } from "./db-timeouts.ts";

/** Connections a service's pool opens at most unless told otherwise: one pool per process, so a service may hold this many per worker. */
export const DEFAULT_CONNECTION_LIMIT = 10;

/** How a service opens its pool. */
export interface DatabasePoolOptions {
  /** pool size (default DEFAULT_CONNECTION_LIMIT) */
  connectionLimit?: number;
  /** overrides of DEFAULT_DATABASE_TIMEOUTS (milliseconds; 0 = none), e.g. no query timeout for migrations */
  timeouts?: Partial<DatabaseTimeouts>;
  /** where the current work's deadline comes from (guardPool's `deadline`); default none */
  deadline?: DeadlineSource;
  /** every session's time_zone set to UTC (for TIMESTAMP columns shown in the session's zone) */
  utcSessions?: boolean;
}

/**
 * Opens a guarded mysql2 pool on `databaseName` of the server at `databaseUrl`
 * (`mysql://user:pass@host:port`, a `wsrep_sync_wait` parameter allowed). Datetimes travel as
 * UTC; DECIMAL and BIGINT come back as numbers; no call-site stack is captured per statement
 * (mysql2's `trace`: a failed statement's error keeps its code, message and SQL, which is what
 * the services read); at most 256 prepared statements per connection (mysql2 closes the least
 * recently used beyond it; the server caps all connections together at max_prepared_stmt_count,
 * 16382 by default, which mysql2's own default of 16000 per connection would let a varied load reach).
 * @returns the pool, guarded in place (guardPool)
 * @throws Error when `databaseUrl` is no mysql:// URL (databaseSession)
 */
export function openDatabasePool(databaseUrl: string, databaseName: string, options: DatabasePoolOptions = {}): mysql.Pool {
  const session = databaseSession(databaseUrl, databaseName);
  const timeouts = { ...DEFAULT_DATABASE_TIMEOUTS, ...options.timeouts };
  const pool = mysql.createPool({
    uri: session.uri,
    timezone: "Z",
    dateStrings: false,
    decimalNumbers: true,
    supportBigNumbers: true,
    connectionLimit: options.connectionLimit ?? DEFAULT_CONNECTION_LIMIT,
    charset: "utf8mb4_unicode_ci",
    connectTimeout: timeouts.connectTimeoutMs || undefined,
    trace: false,
    maxPreparedStatements: 256,
  });
  if (options.utcSessions) {
    pool.pool.on("connection", (conn) => {
      conn.query("SET time_zone = '+00:00'");
    });
  }
  return guardPool(applySessionSettings(pool, session), timeouts, options.deadline);
}
