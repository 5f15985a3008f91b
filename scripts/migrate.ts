/**
 * `npm run migrate`: creates the two databases when missing, applies the committed migrations
 * and, on an empty database, seeds the demo chain and webshop as `npm start` does (so the Deno
 * entry, which only serves, finds them). Checks the configuration first and waits for the
 * database as `npm start` does.
 */
import { parseCoreConfig } from "../core-api/src/config.ts";
import { openCoreDatabase } from "../core-api/src/db/client.ts";
import { migrateCoreDatabase } from "../core-api/src/db/migrate.node.ts";
import { openConnectorDatabase } from "../connector/src/db/client.ts";
import { parseConnectorConfig } from "../connector/src/config.ts";
import { migrateConnectorDatabase } from "../connector/src/db/migrate.node.ts";
import { parseCommandLine } from "./lib/command-line.ts";
import { parseDemoSeedVariables, seedCoreDemo, seedWebshopDemo } from "./lib/demo-seed.ts";
import { waitForDatabase } from "./lib/wait-for-database.ts";

const USAGE = `Usage: npm run migrate

Creates CORE_DB_NAME (default service_core) and WEBSHOP_DB_NAME (default service_webshop) on
DATABASE_URL when missing, applies the committed migrations to both and, on an empty database,
seeds the demo chain (SEED_* variables; generated secrets are printed once). Waits for the
database up to DATABASE_WAIT_SECONDS (default 60). npm start does the same before serving.

Options:
  -h, --help  print this text and exit; nothing is touched`;

parseCommandLine(USAGE, {});
const core = parseCoreConfig(process.env);
const connector = parseConnectorConfig(process.env);
const seed = parseDemoSeedVariables(process.env);
const problems = [core, connector, seed].flatMap((r) => (r.ok ? [] : r.problems));
if (!core.ok || !connector.ok || !seed.ok) {
  for (const line of [...new Set(problems)]) console.error(line);
  process.exit(2);
}
try {
  await waitForDatabase(core.config.databaseUrl, { limitMs: core.config.databaseWaitMs, onWait: (line) => console.log(line) });
  await migrateCoreDatabase(core.config.databaseUrl, core.config.dbName);
  await migrateConnectorDatabase(connector.config.databaseUrl, connector.config.dbName);
  const coreDb = openCoreDatabase(core.config.databaseUrl, core.config.dbName, { connectionLimit: 1 });
  const shopDb = openConnectorDatabase(connector.config.databaseUrl, connector.config.dbName, { connectionLimit: 1 });
  try {
    const printed = [
      ...(await seedCoreDemo(coreDb.db, core.config.dbName, seed.config)),
      ...(await seedWebshopDemo(shopDb.db, connector.config.dbName, connector.config.seedChainId, connector.config.seedIntegrationToken)),
    ];
    for (const line of printed) console.log(line);
  } finally {
    await Promise.all([coreDb.close(), shopDb.close()]);
  }
} catch (err) {
  console.error((err as Error).name === "DatabaseUnavailableError" ? (err as Error).message : (err as Error).stack);
  process.exit(1);
}
console.log(`migrated ${core.config.dbName} and ${connector.config.dbName}`);
