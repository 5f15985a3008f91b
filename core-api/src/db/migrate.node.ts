/**
 * The core database's migrations: the committed drizzle-kit output in ./migrations, applied by the
 * shared runner (migrations.ts of @service/shared/node) on a pool of openCoreDatabase.
 * Node only (the migrator reads the folder from disk).
 */
import { fileURLToPath } from "node:url";
import { migrateDatabase } from "@service/shared/node";
import { openCoreDatabase } from "./client.ts";

export const CORE_MIGRATIONS_FOLDER = fileURLToPath(new URL("./migrations", import.meta.url));

/**
 * Ensures the core database `name` exists and is migrated to the newest schema.
 * @param databaseUrl server URL, for example `mysql://root@127.0.0.1:3306`
 * @param name database name, for example `service_core`
 * @throws Error `invalid database name: <name>` when `name` is not `[A-Za-z0-9_]+`; Error
 *   `cannot reach MySQL at <url>: <reason>` when the server cannot be reached (the URL without its
 *   password); the driver's error of a migration that fails
 */
export function migrateCoreDatabase(databaseUrl: string, name: string): Promise<void> {
  return migrateDatabase(databaseUrl, name, CORE_MIGRATIONS_FOLDER, openCoreDatabase);
}
