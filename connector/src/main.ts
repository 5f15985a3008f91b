/**
 * Connector server entry. `startConnector` is what scripts and tests call; run directly
 * (`tsx connector/src/main.ts`) it reads the environment (config.ts), migrates and seeds the
 * store, and serves until SIGINT / SIGTERM.
 */
import { closeServer, configOrExit, isEntryScript, listenHttp, nodeMetricsExposition, runsSingletonJobs, serveEntry, withSecretKeyFile } from "@service/shared/node";
import { openSecretBox } from "@service/shared/secret-box";
import { createApp } from "./app.ts";
import { BODY_LIMIT_BYTES, parseConnectorConfig, type ConnectorConfig } from "./config.ts";
import { openConnectorDatabase, type ConnectorDb } from "./db/client.ts";
import { migrateConnectorDatabase } from "./db/migrate.node.ts";
import { seedConnector } from "./db/seed.ts";
import { defaultLogger, type Logger, type LogLevel } from "./logger.ts";
import { startSyncCron, type SyncCron } from "./sync/sync-cron.ts";

export interface StartConnectorOptions {
  /** MySQL server, e.g. `mysql://root@127.0.0.1:3306` */
  databaseUrl: string;
  /** the customer store database, e.g. `service_webshop` (must exist and be migrated) */
  dbName: string;
  /** listening port; 0 picks a free one */
  port: number;
  /** listening address, e.g. `127.0.0.1` */
  host: string;
  /** bearer token GET /metrics requires (METRICS_TOKEN); open when undefined */
  metricsToken?: string;
  /** the current time (tests) */
  clock?: () => Date;
  /** the lowest log level written (LOG_LEVEL); default `info` */
  logLevel?: LogLevel;
  /** CIDRs of our own proxies (TRUSTED_PROXIES): their X-Forwarded-For and X-Request-Id are believed; default none */
  trustedProxies?: string[];
  /**
   * SYNC_CRON: when the reconcile (sync/reconcile.ts) runs, a cron expression; none (default):
   * no schedule. Needs `secretKey` (the chains' access tokens are sealed under it).
   */
  syncCron?: string | null;
  /** SERVICE_SECRET_KEY */
  secretKey?: string;
  /** the log of the schedule (default pino at logLevel) */
  logger?: Logger;
}

export interface RunningConnector {
  /** base URL, e.g. `http://127.0.0.1:8081` */
  url: string;
  db: ConnectorDb;
  /** the reconcile schedule, when one was asked for */
  syncCron: SyncCron | null;
  /**
   * At once both stops the reconcile schedule (a pass under way stops after its calls in flight,
   * without waiting for an unavailable database to free its lease) and stops accepting
   * connections, letting in-flight requests finish (up to DRAIN_LIMIT_MS of @service/shared/node,
   * then cuts them: closeServer); then
   * closes the database pool.
   */
  close(): Promise<void>;
}

/**
 * Opens the database, starts the HTTP server and, with `syncCron`, the reconcile schedule. Does
 * not migrate or seed: call migrateConnectorDatabase / seedConnector first.
 * @throws Error when `syncCron` is given without `secretKey`, or is no cron expression; a
 *   ListenError (listen-error.ts of @service/shared/node) when the port cannot be bound, its
 *   message one line such as `connector cannot listen on 127.0.0.1:8081: the port is in use
 *   (CONNECTOR_PORT)`, its `code` EADDRINUSE, EACCES, EADDRNOTAVAIL, ENOTFOUND or ELISTEN
 */
export async function startConnector(options: StartConnectorOptions): Promise<RunningConnector> {
  if (options.syncCron && !options.secretKey) throw new Error("the reconcile schedule needs SERVICE_SECRET_KEY");
  const box = options.syncCron ? await openSecretBox(options.secretKey!) : null;
  const database = openConnectorDatabase(options.databaseUrl, options.dbName);
  const app = createApp({
    db: database.db,
    clock: options.clock,
    config: { bodyLimitBytes: BODY_LIMIT_BYTES, trustedProxies: options.trustedProxies, logLevel: options.logLevel, metricsToken: options.metricsToken },
    // the default Node metrics, and with worker processes the sum over all of them
    metricsExposition: (registry) => nodeMetricsExposition("connector", registry),
  });
  const target = { service: "connector", portVariable: "CONNECTOR_PORT", host: options.host, port: options.port };
  const { server, url } = await listenHttp(target, (onListening) => app.listen(options.port, options.host, onListening)).catch(async (err: unknown) => {
    await database.close();
    throw err;
  });
  const syncCron = box && options.syncCron
    ? startSyncCron({ db: database.db, box, clock: options.clock, logger: options.logger ?? defaultLogger(options.logLevel ?? "info") }, options.syncCron)
    : null;
  return {
    url,
    db: database.db,
    syncCron,
    close: async () => {
      // Together: a pass waiting for an unavailable database must not keep the port accepting.
      await Promise.all([closeServer(server), syncCron?.stop()]);
      await database.close();
    },
  };
}

/**
 * What `config` starts the connector with in this process: the reconcile schedule only where the
 * once-per-service jobs run (runsSingletonJobs: alone, or the worker in slot 0).
 */
export function startOptionsOf(config: ConnectorConfig): StartConnectorOptions {
  return {
    databaseUrl: config.databaseUrl, dbName: config.dbName, port: config.port, host: config.host,
    logLevel: config.logLevel, trustedProxies: config.trustedProxies, metricsToken: config.metricsToken,
    syncCron: runsSingletonJobs() ? config.syncCron : null, secretKey: config.secretKey,
  };
}

/**
 * Direct run: configuration problems and start-up failures are one line each, without a stack.
 * Migrates and seeds once, then serves with WEB_CONCURRENCY worker processes
 * (worker-processes.ts of @service/shared/node; default one per core), which run this script
 * again and only serve; the reconcile schedule runs in one of them.
 */
if (isEntryScript(import.meta.url)) {
  // The secret-key file npm start keeps, when SERVICE_SECRET_KEY is not set (secret-key-file.ts of @service/shared/node).
  const config = configOrExit(parseConnectorConfig(withSecretKeyFile(process.env)));
  await serveEntry({
    name: "connector",
    prepare: () => prepareStore(config),
    start: () => startConnector(startOptionsOf(config)),
  }, config.webConcurrency);
}

/** Migrates the customer store and seeds it (once, before any worker serves). */
async function prepareStore(config: ConnectorConfig): Promise<void> {
  await migrateConnectorDatabase(config.databaseUrl, config.dbName);
  const seedDb = openConnectorDatabase(config.databaseUrl, config.dbName, { connectionLimit: 1 });
  try {
    await seedConnector(seedDb.db, { chainId: config.seedChainId, integrationToken: config.seedIntegrationToken });
    if (config.seedChainId === undefined) {
      console.log("SEED_CHAIN_ID unset: the shop's website serves no chain yet (set it to the demo chain's id core-api printed, or npm run admin -- map-website)");
    }
  } finally {
    await seedDb.close();
  }
}
