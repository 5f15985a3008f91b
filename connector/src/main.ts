/**
 * Connector server entry. `startConnector` is what scripts and tests call; run directly
 * (`tsx connector/src/main.ts`) it reads the environment (config.ts), migrates and seeds the
 * store, and serves until SIGINT / SIGTERM.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { createApp } from "./app.ts";
import { BODY_LIMIT_BYTES, loadConnectorConfig } from "./config.ts";
import { openConnectorDatabase, type ConnectorDb } from "./db/client.ts";
import { migrateConnectorDatabase } from "./db/migrate.node.ts";
import { seedConnector } from "./db/seed.ts";
import type { LogLevel } from "./logger.ts";

export interface StartConnectorOptions {
  /** MySQL server, e.g. `mysql://root@127.0.0.1:3306` */
  databaseUrl: string;
  /** the customer store database, e.g. `service_webshop` (must exist and be migrated) */
  dbName: string;
  /** listening port; 0 picks a free one */
  port: number;
  /** listening address, e.g. `127.0.0.1` */
  host: string;
  /** the current time (tests) */
  clock?: () => Date;
  /** the lowest log level written (LOG_LEVEL); default `info` */
  logLevel?: LogLevel;
  /** CIDRs of our own proxies (TRUSTED_PROXIES): their X-Forwarded-For and X-Request-Id are believed; default none */
  trustedProxies?: string[];
}

export interface RunningConnector {
  /** base URL, e.g. `http://127.0.0.1:8081` */
  url: string;
  db: ConnectorDb;
  /** stops listening and closes the database pool */
  close(): Promise<void>;
}

/**
 * Opens the database and starts the HTTP server. Does not migrate or seed: call
 * migrateConnectorDatabase / seedConnector first.
 * @throws when the port cannot be bound
 */
export async function startConnector(options: StartConnectorOptions): Promise<RunningConnector> {
  const database = openConnectorDatabase(options.databaseUrl, options.dbName);
  const app = createApp({
    db: database.db,
    clock: options.clock,
    config: { bodyLimitBytes: BODY_LIMIT_BYTES, trustedProxies: options.trustedProxies, logLevel: options.logLevel },
  });
  let server: Server;
  try {
    server = await new Promise<Server>((resolve, reject) => {
      const s = app.listen(options.port, options.host, (err?: Error) => (err ? reject(err) : resolve(s)));
      s.once("error", reject);
    });
  } catch (err) {
    await database.close();
    throw err;
  }
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}`,
    db: database.db,
    close: async () => {
      await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
      await database.close();
    },
  };
}

async function runFromEnvironment(): Promise<void> {
  const config = loadConnectorConfig();
  await migrateConnectorDatabase(config.databaseUrl, config.dbName);
  const seedDb = openConnectorDatabase(config.databaseUrl, config.dbName, { connectionLimit: 1 });
  try {
    await seedConnector(seedDb.db, { chainId: config.seedChainId, integrationToken: config.seedIntegrationToken });
  } finally {
    await seedDb.close();
  }
  const running = await startConnector({
    databaseUrl: config.databaseUrl, dbName: config.dbName, port: config.port, host: config.host,
    logLevel: config.logLevel, trustedProxies: config.trustedProxies,
  });
  console.log(`connector listening on ${running.url}`);
  const stop = () => void running.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runFromEnvironment().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
