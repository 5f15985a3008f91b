/**
 * `npm start`: checks the configuration, waits for the database, migrates both databases, seeds
 * the demo chain on an empty database, starts core-api and the connector, and prints their URLs
 * (handbook, "Real components and how they start"). `--service core-api` or `--service
 * connector` starts one of them only (Docker). SIGTERM / SIGINT stop it gracefully.
 *
 * Only the serving forks (WEB_CONCURRENCY, default the core count; shared/src/worker-processes.ts):
 * this process checks, migrates and seeds once, then its workers run this script again and only
 * serve; with WEB_CONCURRENCY=1 it serves itself.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseCoreConfig, type CoreConfig } from "../core-api/src/config.ts";
import { openCoreDatabase } from "../core-api/src/db/client.ts";
import { migrateCoreDatabase } from "../core-api/src/db/migrate.node.ts";
import { startCoreApi } from "../core-api/src/main.node.ts";
import { parseConnectorConfig, type ConnectorConfig } from "../connector/src/config.ts";
import { openConnectorDatabase } from "../connector/src/db/client.ts";
import { migrateConnectorDatabase } from "../connector/src/db/migrate.node.ts";
import { startConnector } from "../connector/src/main.ts";
import { forkWorkers, isWorkerProcess, serveInWorker, workerCount, type WorkerService } from "@service/shared/worker-processes";
import { parseCommandLine } from "./lib/command-line.ts";
import { parseDemoSeedVariables, seedCoreDemo, seedWebshopDemo, type DemoSeedVariables } from "./lib/demo-seed.ts";
import { waitForDatabase } from "./lib/wait-for-database.ts";

const USAGE = `Usage: npm start [-- --service all|core-api|connector]

Checks every configuration variable (one line per bad one), waits for the database (up to
DATABASE_WAIT_SECONDS, default 60), migrates service_core and service_webshop, seeds the demo
chain on an empty database (generated secrets are printed once; SEED_* ones never), and serves
core-api (CORE_API_PORT, default 8080) and the connector (CONNECTOR_PORT, default 8081) with
WEB_CONCURRENCY worker processes (default: one per core).
SIGTERM or SIGINT stops both: requests in flight finish, pools close, exit status 0.

Options:
  --service <name>  all (default), core-api or connector
  -h, --help        print this text and exit; nothing is checked or started

Environment: DATABASE_URL, CORE_DB_NAME, WEBSHOP_DB_NAME, CORE_API_PORT, CONNECTOR_PORT, HOST,
TRUSTED_PROXIES, SESSION_TTL_HOURS, METRICS_TOKEN, DATABASE_WAIT_SECONDS, SERVICE_SECRET_KEY, WEB_CONCURRENCY,
SEED_ADMIN_USERNAME, SEED_ADMIN_PASSWORD, SEED_APP_HOSTNAME, SEED_SHOPPER_USERNAME,
SEED_SHOPPER_PASSWORD, SEED_INTEGRATION_TOKEN, SEED_CHAIN_ID (see README.md).`;

/** Exit status of a bad command line or configuration (nothing was started). */
const EXIT_USAGE = 2;
/** A process manager waits about 10 s after SIGTERM; give up just before. */
const SHUTDOWN_LIMIT_MS = 9_500;
const SECRET_KEY_FILE = fileURLToPath(new URL("../.secret-key", import.meta.url));
const SERVICES = ["all", "core-api", "connector"] as const;

/** What a stop must close: services served here, or the workers serving them. */
interface Stoppable {
  /** @returns false when something did not close cleanly */
  stop(signal: NodeJS.Signals): Promise<boolean>;
}

const running: Stoppable[] = [];
let stopping = false;

async function main(): Promise<void> {
  const { values } = parseCommandLine(USAGE, { service: { type: "string", default: "all" } });
  const service = values.service as (typeof SERVICES)[number];
  if (!SERVICES.includes(service)) fail(`--service must be all, core-api or connector (got ${service})`, EXIT_USAGE);

  // Every variable of every service this run starts is checked before anything happens.
  process.env.SERVICE_SECRET_KEY ||= serviceSecretKey();
  const env = process.env;
  const core = service !== "connector" ? parseCoreConfig(env) : undefined;
  const connector = service !== "core-api" ? parseConnectorConfig(env) : undefined;
  const seed = service !== "connector" ? parseDemoSeedVariables(env) : undefined;
  const problems = [core, connector, seed].flatMap((r) => (r && !r.ok ? r.problems : []));
  if (problems.length > 0) {
    for (const line of [...new Set(problems)]) console.error(line);
    process.exit(EXIT_USAGE);
  }
  const coreConfig = core?.ok ? core.config : undefined;
  const connectorConfig = connector?.ok ? connector.config : undefined;
  // A worker only serves: the primary has checked, migrated and seeded.
  if (isWorkerProcess()) return serveInWorker(() => startServices(coreConfig, connectorConfig));

  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));

  const printed: string[] = [];
  if (coreConfig && seed?.ok) printed.push(...(await prepareCore(coreConfig, seed.config)));
  if (connectorConfig) printed.push(...(await prepareConnector(connectorConfig)));
  // Both services read the one WEB_CONCURRENCY.
  const workers = workerCount((coreConfig ?? connectorConfig)?.webConcurrency);
  let urls: Array<{ name: string; url: string }>;
  if (workers === 1) {
    const services = await startServices(coreConfig, connectorConfig);
    await started({ stop: async () => (await Promise.allSettled(services.map((s) => s.close()))).every((r) => r.status === "fulfilled") });
    urls = services;
  } else {
    const forked = await forkWorkers(workers, { onReplaced: (line) => console.error(line) });
    await started(forked);
    urls = forked.services;
  }
  for (const line of printed) console.log(line);
  for (const s of urls) console.log(`${s.name.padEnd(10)} ${s.url}`);
}

async function prepareCore(config: CoreConfig, seed: DemoSeedVariables): Promise<string[]> {
  await waitForDatabase(config.databaseUrl, { limitMs: config.databaseWaitMs, onWait: (line) => console.log(line) });
  await migrateCoreDatabase(config.databaseUrl, config.dbName);
  const database = openCoreDatabase(config.databaseUrl, config.dbName, { connectionLimit: 1 });
  try {
    return await seedCoreDemo(database.db, config.dbName, seed);
  } finally {
    await database.close();
  }
}

/** The demo chain gets id 1 on an empty database (handbook); SEED_CHAIN_ID says otherwise. */
async function prepareConnector(config: ConnectorConfig): Promise<string[]> {
  await waitForDatabase(config.databaseUrl, { limitMs: config.databaseWaitMs, onWait: (line) => console.log(line) });
  await migrateConnectorDatabase(config.databaseUrl, config.dbName);
  const database = openConnectorDatabase(config.databaseUrl, config.dbName, { connectionLimit: 1 });
  try {
    return await seedWebshopDemo(database.db, config.dbName, config.seedChainId, config.seedIntegrationToken);
  } finally {
    await database.close();
  }
}

/**
 * Starts the services this run serves, in this process (a worker, or the one process with
 * WEB_CONCURRENCY=1); when the second cannot start, the first is closed again.
 */
async function startServices(core: CoreConfig | undefined, connector: ConnectorConfig | undefined): Promise<WorkerService[]> {
  const services: WorkerService[] = [];
  try {
    if (core) services.push({ name: "core-api", ...(await startCoreApi(core)) });
    if (connector) {
      services.push({
        name: "connector",
        ...(await startConnector({
          databaseUrl: connector.databaseUrl, dbName: connector.dbName, port: connector.port, host: connector.host, metricsToken: connector.metricsToken,
          logLevel: connector.logLevel, trustedProxies: connector.trustedProxies,
        })),
      });
    }
    return services;
  } catch (err) {
    await Promise.allSettled(services.map((s) => s.close()));
    throw err;
  }
}

/** Keeps what serves for shutdown; stops it at once when a signal came during start-up. */
async function started(serving: Stoppable): Promise<void> {
  running.push(serving);
  if (stopping) await serving.stop("SIGTERM");
}

/** Graceful stop: no new connections, in-flight requests finish, pools close; exit 0. */
async function stop(signal: NodeJS.Signals): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping (requests in flight finish first)`);
  setTimeout(() => fail(`shutdown took longer than ${SHUTDOWN_LIMIT_MS / 1000} s: exiting`, 1), SHUTDOWN_LIMIT_MS).unref();
  const results = await Promise.allSettled(running.map((s) => s.stop(signal)));
  const failed = results.flatMap((r) => (r.status === "rejected" ? [String((r.reason as Error)?.message ?? r.reason)] : r.value ? [] : ["a service did not close cleanly"]));
  for (const line of failed) console.error(`shutdown: ${line}`);
  console.log("stopped");
  process.exit(failed.length > 0 ? 1 : 0);
}

/** Prints one line and exits with `status`. */
function fail(line: string, status: number): never {
  console.error(line);
  process.exit(status);
}

/** SERVICE_SECRET_KEY from .secret-key, generated there (mode 600) on first start. */
function serviceSecretKey(): string {
  if (existsSync(SECRET_KEY_FILE)) return readFileSync(SECRET_KEY_FILE, "utf8").trim();
  const key = randomBytes(32).toString("base64");
  writeFileSync(SECRET_KEY_FILE, `${key}\n`, { mode: 0o600 });
  return key;
}

main().catch(async (err: Error & { code?: string }) => {
  // Start-up failures the operator can act on are one line; anything else is a bug: keep its stack.
  const known = err.name === "DatabaseUnavailableError" || ["EADDRINUSE", "EACCES", "EADDRNOTAVAIL"].includes(err.code ?? "");
  console.error(known ? err.message : err.stack ?? String(err));
  await Promise.allSettled(running.map((s) => s.stop("SIGTERM")));
  process.exit(1);
});
