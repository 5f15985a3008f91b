/**
 * Connector server entry. `startConnector` is what scripts and tests call; run directly
 * (`tsx connector/src/main.ts`) it reads the environment (config.ts), migrates and seeds the
 * store, and serves until SIGINT / SIGTERM.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { createApp } from "./app.ts";
import { BODY_LIMIT_BYTES, parseConnectorConfig } from "./config.ts";
import { SECRET_KEY_MISSING } from "@service/shared/service-env";
import { listenError as sharedListenError } from "@service/shared/listen-error";
import { withSecretKeyFile } from "@service/shared/secret-key-file";
import { forkWorkers, isWorkerProcess, runsSingletonJobs, serveInWorker, workerCount } from "@service/shared/worker-processes";
import { openConnectorDatabase, type ConnectorDb } from "./db/client.ts";
import { migrateConnectorDatabase } from "./db/migrate.node.ts";
import { seedConnector } from "./db/seed.ts";
import { openSecretBox } from "@service/shared/secret-box";
import { nodeMetricsExposition } from "@service/shared/cluster-metrics";
import { defaultLogger, type Logger, type LogLevel } from "./logger.ts";
import { startSyncCron, type SyncCron } from "./sync/sync-cron.ts";

/** How long close() lets in-flight requests finish before cutting their connections. */
export const DRAIN_LIMIT_MS = 8_000;
/** How often close() drops connections that went idle (keep-alive) while draining. */
const IDLE_SWEEP_MS = 50;

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
   * connections, letting in-flight requests finish (up to DRAIN_LIMIT_MS, then cuts them); then
   * closes the database pool.
   */
  close(): Promise<void>;
}

/**
 * Opens the database, starts the HTTP server and, with `syncCron`, the reconcile schedule. Does
 * not migrate or seed: call migrateConnectorDatabase / seedConnector first.
 * @throws Error when `syncCron` is given without `secretKey`, or is no cron expression; Error with a one-line message when the port cannot be bound, for example
 *   `connector cannot listen on 127.0.0.1:8081: the port is in use (CONNECTOR_PORT)`; its `code`
 *   is Node's (`EADDRINUSE`, `EACCES`)
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
  let server: Server;
  try {
    server = await new Promise<Server>((resolve, reject) => {
      const s = app.listen(options.port, options.host, (err?: Error) => (err ? reject(err) : resolve(s)));
      s.once("error", reject);
    });
  } catch (err) {
    await database.close();
    throw listenError(options.host, options.port, err);
  }
  const { port } = server.address() as AddressInfo;
  const syncCron = box && options.syncCron
    ? startSyncCron({ db: database.db, box, clock: options.clock, logger: options.logger ?? defaultLogger(options.logLevel ?? "info") }, options.syncCron)
    : null;
  return {
    url: `http://${urlHost(options.host)}:${port}`,
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
 * Closes `server` gracefully: no new connections; requests in flight finish and their keep-alive
 * connections are dropped as soon as they go idle (Node would otherwise wait out the keep-alive
 * timeout); after DRAIN_LIMIT_MS whatever is left is cut.
 */
function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    const cut = setTimeout(() => server.closeAllConnections(), DRAIN_LIMIT_MS);
    server.close((err) => {
      clearInterval(sweep);
      clearTimeout(cut);
      if (err && (err as NodeJS.ErrnoException).code !== "ERR_SERVER_NOT_RUNNING") reject(err);
      else resolve();
    });
    server.closeIdleConnections();
  });
}

/** The one-line error for an address that cannot be bound (shared/src/listen-error.ts). */
function listenError(host: string, port: number, err: unknown): Error {
  return sharedListenError("connector", "CONNECTOR_PORT", host, port, err);
}

function urlHost(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}

/**
 * Direct run: configuration problems and start-up failures are one line each, without a stack.
 * Migrates and seeds once, then serves with WEB_CONCURRENCY worker processes
 * (shared/src/worker-processes.ts; default one per core), which run this script again and only serve.
 */
async function runFromEnvironment(): Promise<void> {
  // The secret-key file npm start keeps, when SERVICE_SECRET_KEY is not set (shared/src/secret-key-file.ts).
  const parsed = parseConnectorConfig(withSecretKeyFile(process.env));
  if (!parsed.ok) {
    for (const line of parsed.problems) console.error(line);
    process.exit(2);
  }
  const config = parsed.config;
  const secretKey = config.secretKey;
  if (!secretKey) {
    console.error(SECRET_KEY_MISSING);
    process.exit(2);
  }
  const serve = async () => [{
    name: "connector",
    ...(await startConnector({
      databaseUrl: config.databaseUrl, dbName: config.dbName, port: config.port, host: config.host,
      logLevel: config.logLevel, trustedProxies: config.trustedProxies, metricsToken: config.metricsToken,
      syncCron: runsSingletonJobs() ? config.syncCron : null, secretKey: config.secretKey,
    })),
  }];
  if (isWorkerProcess()) return serveInWorker(serve);
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
  const workers = workerCount(config.webConcurrency);
  if (workers === 1) {
    const [running] = await serve();
    console.log(`connector listening on ${running!.url}`);
    const stop = () => void running!.close().then(() => process.exit(0), () => process.exit(1));
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    return;
  }
  const forked = await forkWorkers(workers, { onReplaced: (line) => console.error(line) });
  console.log(`connector listening on ${forked.services[0]!.url} (${workers} workers)`);
  const stop = (signal: NodeJS.Signals) => void forked.stop(signal).then((clean) => process.exit(clean ? 0 : 1));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runFromEnvironment().catch((err: Error) => {
    console.error(err.message);
    process.exit(1);
  });
}
