/**
 * `npm run migrate`: creates the two databases when missing and applies the committed migrations
 * (handbook, "Real components and how they start").
 */
import { loadCoreConfig } from "../core-api/src/config.ts";
import { migrateCoreDatabase } from "../core-api/src/db/migrate.node.ts";
import { loadConnectorConfig } from "../connector/src/config.ts";
import { migrateConnectorDatabase } from "../connector/src/db/migrate.node.ts";

const core = loadCoreConfig(process.env);
const connector = loadConnectorConfig(process.env);
await migrateCoreDatabase(core.databaseUrl, core.dbName);
await migrateConnectorDatabase(connector.databaseUrl, connector.dbName);
console.log(`migrated ${core.dbName} and ${connector.dbName}`);
