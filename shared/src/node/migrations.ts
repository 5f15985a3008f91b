/**
 * The migrations runner both services share: creates a service's database when missing and applies
 * its committed drizzle-kit migrations (each service names its folder and opens its own pool:
 * core-api/src/db/migrate.node.ts, connector/src/db/migrate.node.ts). Node only: the migrator
 * reads the migrations folder from disk.
 */
import type { MySql2Database } from "drizzle-orm/mysql2";
import { migrate } from "drizzle-orm/mysql2/migrator";
import mysql from "mysql2/promise";
import { databaseSession } from "./database-session.ts";
import type { DatabaseTimeouts } from "./db-timeouts.ts";

/** What a database name may be: it is quoted into CREATE DATABASE, so only a safe alphabet. */
const DATABASE_NAME = /^[A-Za-z0-9_]+$/;

/**
 * Creates database `name` (utf8mb4, unicode collation) on the server at `databaseUrl` if missing.
 * @param databaseUrl server URL, for example `mysql://root@127.0.0.1:3306`
 * @param name database name, for example `service_core`
 * @throws Error `invalid database name: <name>` when `name` is not `[A-Za-z0-9_]+` (nothing is
 *   sent); Error `cannot reach MySQL at <url>: <reason>` when the server cannot be reached (the URL
 *   without its password); the driver's error when CREATE DATABASE fails
 */
export async function ensureDatabase(databaseUrl: string, name: string): Promise<void> {
  if (!DATABASE_NAME.test(name)) throw new Error(`invalid database name: ${name}`);
  const conn = await mysql.createConnection(databaseSession(databaseUrl).uri).catch((err: Error) => {
    const safe = new URL(databaseUrl);
    safe.password = safe.password ? "***" : "";
    throw new Error(`cannot reach MySQL at ${safe.toString()}: ${err.message}`);
  });
  try {
    await conn.query(`CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  } finally {
    await conn.end();
  }
}

/** How the runner opens a service's pool: one connection, the given timeouts. */
export type OpenForMigrations = (
  databaseUrl: string,
  name: string,
  options: { connectionLimit: number; timeouts: Partial<DatabaseTimeouts> },
) => { db: MySql2Database<any>; close(): Promise<void> };

/**
 * Ensures database `name` exists (ensureDatabase) and applies every migration of
 * `migrationsFolder` not applied yet, on one connection of the service's own pool (its session
 * settings included) without a statement timeout: a migration may rebuild a large table.
 * @param migrationsFolder a drizzle-kit output folder (with `meta/_journal.json`)
 * @param open the service's pool opener (openCoreDatabase, openConnectorDatabase)
 * @throws what ensureDatabase throws; the driver's error of a migration that fails (the ones
 *   before it stay applied)
 */
export async function migrateDatabase(databaseUrl: string, name: string, migrationsFolder: string, open: OpenForMigrations): Promise<void> {
  await ensureDatabase(databaseUrl, name);
  const database = open(databaseUrl, name, { connectionLimit: 1, timeouts: { queryTimeoutMs: 0 } });
  try {
    await migrate(database.db, { migrationsFolder });
  } finally {
    await database.close();
  }
}
