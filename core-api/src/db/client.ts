/**
 * Database client of the core API: a mysql2 pool wrapped by drizzle. Runs on Node and on Deno.
 */
import { drizzle, type MySql2Database } from "drizzle-orm/mysql2";
import mysql from "mysql2/promise";
import * as schema from "./schema.ts";

export type CoreDb = MySql2Database<typeof schema>;

export interface CoreDatabase {
  db: CoreDb;
  pool: mysql.Pool;
  close(): Promise<void>;
}

/**
 * Opens a pool on `databaseName` of the server at `databaseUrl` (`mysql://user:pass@host:port`).
 * Datetimes travel as UTC; DECIMAL and BIGINT come back as numbers.
 * @param options.connectionLimit pool size (default 10)
 */
export function openCoreDatabase(
  databaseUrl: string,
  databaseName: string,
  options: { connectionLimit?: number } = {},
): CoreDatabase {
  const url = new URL(databaseUrl);
  url.pathname = `/${databaseName}`;
  const pool = mysql.createPool({
    uri: url.toString(),
    timezone: "Z",
    dateStrings: false,
    decimalNumbers: true,
    supportBigNumbers: true,
    connectionLimit: options.connectionLimit ?? 10,
    charset: "utf8mb4_unicode_ci",
  });
  const db = drizzle(pool, { schema, mode: "default" });
  return { db, pool, close: () => pool.end() };
}
