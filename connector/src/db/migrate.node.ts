/**
 * Creates the connector's customer store when missing and applies the committed drizzle-kit
 * migrations. Node only (reads the migrations folder from disk).
 */
import { fileURLToPath } from "node:url";
import { migrate } from "drizzle-orm/mysql2/migrator";
import { databaseSession } from "@service/shared/database-session";
import mysql from "mysql2/promise";
import { openConnectorDatabase } from "./client.ts";

export const CONNECTOR_MIGRATIONS_FOLDER = fileURLToPath(new URL("./migrations", import.meta.url));

/**
 * Creates database `name` (utf8mb4, unicode collation) on the server at `databaseUrl` if missing.
 * @throws when the name is not `[A-Za-z0-9_]+`, or the server cannot be reached (the message
 *   names the URL without its password)
 */
export async function ensureConnectorDatabase(databaseUrl: string, name: string): Promise<void> {
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`invalid database name: ${name}`);
  const conn = await mysql.createConnection(databaseSession(databaseUrl).uri).catch((err: Error) => {
    const safe = new URL(databaseUrl);
    safe.password = safe.password ? "***" : "";
    throw new Error(`cannot reach MySQL at ${safe.toString()}: ${err.message}`);
  });
  try {
    await conn.query(
      `CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    );
  } finally {
    await conn.end();
  }
}

/**
 * Ensures the connector database `name` exists and is migrated to the newest schema.
 * @param databaseUrl server URL, e.g. `mysql://root@127.0.0.1:3306`
 * @param name database name, e.g. `service_webshop`
 */
export async function migrateConnectorDatabase(databaseUrl: string, name: string): Promise<void> {
  await ensureConnectorDatabase(databaseUrl, name);
  // Migrations may rebuild large tables: no statement timeout.
  const database = openConnectorDatabase(databaseUrl, name, { connectionLimit: 1, timeouts: { queryTimeoutMs: 0 } });
  try {
    await migrate(database.db, { migrationsFolder: CONNECTOR_MIGRATIONS_FOLDER });
  } finally {
    await database.close();
  }
}
