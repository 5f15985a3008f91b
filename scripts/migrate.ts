/**
 * `npm run migrate`: creates the two databases when missing and applies the committed migrations
 * (handbook, "Real components and how they start"). Checks the configuration first and waits for
 * the database as `npm start` does.
 */
import { parseCoreConfig } from "../core-api/src/config.ts";
import { migrateCoreDatabase } from "../core-api/src/db/migrate.node.ts";
import { parseConnectorConfig } from "../connector/src/config.ts";
import { migrateConnectorDatabase } from "../connector/src/db/migrate.node.ts";
import { parseCommandLine } from "./lib/command-line.ts";
import { waitForDatabase } from "./lib/wait-for-database.ts";

const USAGE = `Usage: npm run migrate

Creates CORE_DB_NAME (default service_core) and WEBSHOP_DB_NAME (default service_webshop) on
DATABASE_URL when missing and applies the committed migrations to both. Waits for the database
up to DATABASE_WAIT_SECONDS (default 60). npm start does the same before serving.

Options:
  -h, --help  print this text and exit; nothing is touched`;

parseCommandLine(USAGE, {});
const core = parseCoreConfig(process.env);
const connector = parseConnectorConfig(process.env);
const problems = [core, connector].flatMap((r) => (r.ok ? [] : r.problems));
if (!core.ok || !connector.ok) {
  for (const line of [...new Set(problems)]) console.error(line);
  process.exit(2);
}
try {
  await waitForDatabase(core.config.databaseUrl, { limitMs: core.config.databaseWaitMs, onWait: (line) => console.log(line) });
  await migrateCoreDatabase(core.config.databaseUrl, core.config.dbName);
  await migrateConnectorDatabase(connector.config.databaseUrl, connector.config.dbName);
} catch (err) {
  console.error((err as Error).name === "DatabaseUnavailableError" ? (err as Error).message : (err as Error).stack);
  process.exit(1);
}
console.log(`migrated ${core.config.dbName} and ${connector.config.dbName}`);
