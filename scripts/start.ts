/**
 * `npm start`: checks the configuration, waits for the database, migrates both databases, seeds
 * the demo chain on an empty database, starts core-api and the connector, and prints their URLs
 * (handbook, "Real components and how they start"). `--service core-api` or `--service
 * connector` starts one of them only (Docker). SIGTERM / SIGINT stop it gracefully.
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
import { parseCommandLine } from "./lib/command-line.ts";
import { parseDemoSeedVariables, seedCoreDemo, seedPlatformLinkDemo, seedWebshopDemo, type DemoSeedVariables } from "./lib/demo-seed.ts";
import { waitForDatabase } from "./lib/wait-for-database.ts";

const USAGE = `Usage: npm start [-- --service all|core-api|connector]

Checks every configuration variable (one line per bad one), waits for the database (up to
DATABASE_WAIT_SECONDS, default 60), migrates service_core and service_webshop, seeds the demo
chain on an empty database (generated secrets are printed once; SEED_* ones never), and serves
core-api (CORE_API_PORT, default 8080) and the connector (CONNECTOR_PORT, default 8081).
SIGTERM or SIGINT stops both: requests in flight finish, pools close, exit status 0.

Options:
  --service <name>  all (default), core-api or connector
  -h, --help        print this text and exit; nothing is checked or started

Environment: DATABASE_URL, CORE_DB_NAME, WEBSHOP_DB_NAME, CORE_API_PORT, CONNECTOR_PORT, HOST,
TRUSTED_PROXIES, SESSION_TTL_HOURS, METRICS_TOKEN, DATABASE_WAIT_SECONDS, SERVICE_SECRET_KEY, SYNC_CRON,
SEED_ADMIN_USERNAME, SEED_ADMIN_PASSWORD, SEED_APP_HOSTNAME, SEED_SHOPPER_USERNAME,
SEED_SHOPPER_PASSWORD, SEED_INTEGRATION_TOKEN, SEED_CHAIN_ID, SEED_CORE_API_URL,
SEED_CORE_ACCESS_TOKEN (see README.md).`;

/** Exit status of a bad command line or configuration (nothing was started). */
const EXIT_USAGE = 2;
/** A process manager waits about 10 s after SIGTERM; give up just before. */
const SHUTDOWN_LIMIT_MS = 9_500;
const SECRET_KEY_FILE = fileURLToPath(new URL("../.secret-key", import.meta.url));
const SERVICES = ["all", "core-api", "connector"] as const;

interface Running {
  name: string;
  url: string;
  close(): Promise<void>;
}

const running: Running[] = [];
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

  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));

  const printed: string[] = [];
  if (core?.ok && seed?.ok) printed.push(...(await runCore(core.config, seed.config)));
  if (connector?.ok) printed.push(...(await runConnector(connector.config)));
  for (const line of printed) console.log(line);
  for (const s of running) console.log(`${s.name.padEnd(10)} ${s.url}`);
}

async function runCore(config: CoreConfig, seed: DemoSeedVariables): Promise<string[]> {
  await waitForDatabase(config.databaseUrl, { limitMs: config.databaseWaitMs, onWait: (line) => console.log(line) });
  await migrateCoreDatabase(config.databaseUrl, config.dbName);
  const database = openCoreDatabase(config.databaseUrl, config.dbName, { connectionLimit: 1 });
  let printed: string[];
  try {
    printed = await seedCoreDemo(database.db, config.dbName, seed);
  } finally {
    await database.close();
  }
  await started({ name: "core-api", ...(await startCoreApi(config)) });
  return printed;
}

/** The demo chain gets id 1 on an empty database (handbook); SEED_CHAIN_ID says otherwise. */
async function runConnector(config: ConnectorConfig): Promise<string[]> {
  await waitForDatabase(config.databaseUrl, { limitMs: config.databaseWaitMs, onWait: (line) => console.log(line) });
  await migrateConnectorDatabase(config.databaseUrl, config.dbName);
  const database = openConnectorDatabase(config.databaseUrl, config.dbName, { connectionLimit: 1 });
  let printed: string[];
  try {
    printed = await seedWebshopDemo(database.db, config.dbName, config.seedChainId, config.seedIntegrationToken);
    if (config.seedPlatform && config.secretKey) {
      printed.push(...await seedPlatformLinkDemo(database.db, config.seedChainId, config.seedPlatform, config.secretKey));
    }
  } finally {
    await database.close();
  }
  await started({
    name: "connector",
    ...(await startConnector({
      databaseUrl: config.databaseUrl, dbName: config.dbName, port: config.port, host: config.host, metricsToken: config.metricsToken,
      logLevel: config.logLevel, trustedProxies: config.trustedProxies, syncCron: config.syncCron, secretKey: config.secretKey,
    })),
  });
  return printed;
}

/** Keeps a started service for shutdown; closes it at once when a signal came during start-up. */
async function started(service: Running): Promise<void> {
  running.push(service);
  if (stopping) await service.close();
}

/** Graceful stop: no new connections, in-flight requests finish, pools close; exit 0. */
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping (requests in flight finish first)`);
  setTimeout(() => fail(`shutdown took longer than ${SHUTDOWN_LIMIT_MS / 1000} s: exiting`, 1), SHUTDOWN_LIMIT_MS).unref();
  const results = await Promise.allSettled(running.map((s) => s.close()));
  const failed = results.flatMap((r) => (r.status === "rejected" ? [String((r.reason as Error)?.message ?? r.reason)] : []));
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
  await Promise.allSettled(running.map((s) => s.close()));
  process.exit(1);
});
