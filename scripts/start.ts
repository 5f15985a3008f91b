/**
 * `npm start`: checks the configuration, waits for the database, migrates both databases, seeds
 * the demo chain on an empty database (wired both ways: the connector is its authentication point,
 * lib/demo-wiring.ts), starts core-api and the connector, and prints their URLs (handbook, "Real
 * components and how they start"). `--service core-api` or `--service
 * connector` starts one of them only (Docker). SIGTERM / SIGINT stop it gracefully.
 */
import { parseCoreConfig, type CoreConfig } from "../core-api/src/config.ts";
import { openCoreDatabase } from "../core-api/src/db/client.ts";
import { migrateCoreDatabase } from "../core-api/src/db/migrate.node.ts";
import { parseConnectorConfig, type ConnectorConfig } from "../connector/src/config.ts";
import { openConnectorDatabase } from "../connector/src/db/client.ts";
import { migrateConnectorDatabase } from "../connector/src/db/migrate.node.ts";
import { assertHostResolves, forkWorkers, isWorkerProcess, LISTEN_ERROR_CODES, serveInWorker, workerCount, type WorkerService } from "@service/shared/node";
import { parseCommandLine } from "./lib/command-line.ts";
import { openSecretBox } from "@service/shared/secret-box";
import { demoChainId, demoChainLines, parseDemoSeedVariables, seedCoreDemo, seedPlatformLinkDemo, seedWebshopDemo, seedWebshopShopper, type DemoSeedVariables } from "./lib/demo-seed.ts";
import { demoWiring, parseDemoWiringVariables, wireCoreDemo, withRunningUrls, type DemoWiring } from "./lib/demo-wiring.ts";
import { secretKeyFileOf, secretKeyFileOrNew } from "./lib/secret-key-file.ts";
import { waitForDatabase } from "./lib/wait-for-database.ts";

const USAGE = `Usage: npm start [-- --service all|core-api|connector]

Checks every configuration variable (one line per bad one), waits for the database (up to
DATABASE_WAIT_SECONDS, default 60), migrates service_core and service_webshop, seeds the demo
chain on an empty database and wires it both ways (the connector is its authentication point;
generated secrets are printed once; SEED_* ones never), prints the demo chain's id (CHAIN=<id>,
as the database numbered it), and serves core-api (CORE_API_PORT,
default 8080) and the connector (CONNECTOR_PORT, default 8081) with WEB_CONCURRENCY worker
processes (default: one per core).
SIGTERM or SIGINT stops both: requests in flight finish, pools close, exit status 0.
Unlike the images, npm start allows webhook targets on private addresses unless
WEBHOOK_ALLOW_PRIVATE=false (the demo's SMS receiver runs on 127.0.0.1).

Options:
  --service <name>  all (default), core-api or connector
  -h, --help        print this text and exit; nothing is checked or started

Environment: DATABASE_URL, CORE_DB_NAME, WEBSHOP_DB_NAME, CORE_API_PORT, CONNECTOR_PORT, HOST,
TRUSTED_PROXIES, SESSION_TTL_HOURS, METRICS_TOKEN, DATABASE_WAIT_SECONDS, SERVICE_SECRET_KEY, SYNC_CRON, WEB_CONCURRENCY,
SEED_ADMIN_USERNAME, SEED_ADMIN_PASSWORD, SEED_APP_HOSTNAME, SEED_SHOPPER_USERNAME,
SEED_SHOPPER_PASSWORD, SEED_INTEGRATION_TOKEN, SEED_CHAIN_ID, SEED_CONNECTOR_URL, SEED_CORE_API_URL,
SEED_IDENTITY_TOKEN, WEBSHOP_TIMEOUT_MS, WEBHOOK_ALLOW_PRIVATE, OUTBOX_POLL_MS, OUTBOX_TIMEOUT_MS
(see README.md).`;

/** Exit status of a bad command line or configuration (nothing was started). */
const EXIT_USAGE = 2;
/** A process manager waits about 10 s after SIGTERM; give up just before. */
const SHUTDOWN_LIMIT_MS = 9_500;
const SERVICES = ["all", "core-api", "connector"] as const;

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
  const { coreConfig, connectorConfig, seed, wiringVariables, wiring, allowPrivateDefaulted } = readConfiguration(service);
  // A worker only serves: the primary has checked, migrated, seeded and wired.
  if (isWorkerProcess()) return serveInWorker(() => startServices(coreConfig, connectorConfig));

  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));

  // A HOST that resolves to nothing ends the start now, not after the database work.
  if (coreConfig) await assertHostResolves("core-api", "CORE_API_PORT", coreConfig.host, coreConfig.port);
  else if (connectorConfig) await assertHostResolves("connector", "CONNECTOR_PORT", connectorConfig.host, connectorConfig.port);
  const printed: string[] = [];
  const seeded = coreConfig ? await prepareCore(coreConfig, seed, wiring) : undefined;
  if (seeded) printed.push(...seeded.printed);
  // The webshop serves SEED_CHAIN_ID, else the demo chain as the core database numbered it.
  const shopChainId = connectorConfig?.seedChainId ?? seeded?.demoChainId;
  if (connectorConfig) printed.push(...(await prepareConnector(connectorConfig, wiring, shopChainId)));
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
  // Wired once both listen: a port of 0 is known only now. A URL given by SEED_* wins.
  const urlOf = (name: string) => urls.find((s) => s.name === name)?.url;
  const wired = withRunningUrls(wiring, wiringVariables, { coreApiUrl: urlOf("core-api"), connectorUrl: urlOf("connector") });
  if (coreConfig && seeded?.chainId !== undefined) printed.push(...(await wireCore(coreConfig, seeded.chainId, wired)));
  if (connectorConfig?.secretKey && shopChainId !== undefined) printed.push(...(await wireConnector(connectorConfig, shopChainId, wired)));
  const demoChain = seeded ? seeded.demoChainId : shopChainId;
  if (demoChain !== undefined) printed.push(...demoChainLines(demoChain));
  for (const line of printed) console.log(line);
  if (coreConfig && allowPrivateDefaulted) console.log("webhook targets on private addresses allowed (npm start's default; WEBHOOK_ALLOW_PRIVATE=false refuses them)");
  for (const s of urls) console.log(`${s.name.padEnd(10)} ${s.url}`);
}

/**
 * Every variable of every service this run starts, checked before anything happens (one line per
 * bad one on stderr, exit 2), and the demo wiring they give.
 */
function readConfiguration(service: (typeof SERVICES)[number]) {
  process.env.SERVICE_SECRET_KEY ||= secretKeyFileOrNew(secretKeyFileOf(process.env));
  // A local run: webhook receivers on this machine (npm run demo's SMS receiver) are allowed
  // unless the operator says otherwise; the images (docker/) keep the safe default, false.
  const allowPrivateDefaulted = !process.env.WEBHOOK_ALLOW_PRIVATE;
  process.env.WEBHOOK_ALLOW_PRIVATE ||= "true";
  const env = process.env;
  const core = service !== "connector" ? parseCoreConfig(env) : undefined;
  const connector = service !== "core-api" ? parseConnectorConfig(env) : undefined;
  // Both sides of the demo wiring read the seed's app hostname and the wiring variables.
  const seed = parseDemoSeedVariables(env);
  const wiringVariables = parseDemoWiringVariables(env);
  const problems = [core, connector, seed, wiringVariables].flatMap((r) => (r && !r.ok ? r.problems : []));
  if (problems.length > 0 || !seed.ok || !wiringVariables.ok) {
    for (const line of [...new Set(problems)]) console.error(line);
    process.exit(EXIT_USAGE);
  }
  const wiring = demoWiring(wiringVariables.config, {
    secretKey: env.SERVICE_SECRET_KEY!,
    integrationToken: seed.config.SEED_INTEGRATION_TOKEN,
    appHostname: seed.config.SEED_APP_HOSTNAME,
    shopperUsername: seed.config.SEED_SHOPPER_USERNAME,
    shopperPassword: seed.config.SEED_SHOPPER_PASSWORD,
    host: core?.ok ? core.config.host : connector?.ok ? connector.config.host : "127.0.0.1",
    // A service started alone: the other's URL is SEED_CONNECTOR_URL / SEED_CORE_API_URL, or its
    // port (CORE_API_PORT / CONNECTOR_PORT) on this host.
    corePort: wiringVariables.config.CORE_API_PORT,
    connectorPort: wiringVariables.config.CONNECTOR_PORT,
  });
  const coreConfig = core?.ok ? core.config : undefined;
  const connectorConfig = connector?.ok ? connector.config : undefined;
  return { coreConfig, connectorConfig, seed: seed.config, wiringVariables: wiringVariables.config, wiring, allowPrivateDefaulted };
}

/**
 * The connector's side of the demo wiring: the core API it sends shop changes to, with the
 * identity-source client's token (printed by wireCore when derived) and the webshop app.
 */
async function wireConnector(config: ConnectorConfig, chainId: number, wired: DemoWiring): Promise<string[]> {
  const shop = openConnectorDatabase(config.databaseUrl, config.dbName, { connectionLimit: 1 });
  try {
    const token = wired.identityToken.value;
    const link = { coreApiUrl: wired.coreApiUrl, accessToken: `${token.id}:${token.secret}`, appHostname: wired.appHostname };
    return await seedPlatformLinkDemo(shop.db, chainId, link, config.secretKey!);
  } finally {
    await shop.close();
  }
}

/**
 * Migrates and seeds the core database (not served yet).
 * @returns the lines to print, the demo chain's id when it was seeded now (to be wired), and the
 *   demo chain's id however it came (now or on an earlier start; undefined when there is none)
 */
async function prepareCore(
  config: CoreConfig, seed: DemoSeedVariables, wiring: DemoWiring,
): Promise<{ printed: string[]; chainId?: number; demoChainId: number | undefined }> {
  await waitForDatabase(config.databaseUrl, { limitMs: config.databaseWaitMs, onWait: (line) => console.log(line) });
  await migrateCoreDatabase(config.databaseUrl, config.dbName);
  const database = openCoreDatabase(config.databaseUrl, config.dbName, { connectionLimit: 1 });
  let chainId: number | undefined;
  try {
    const printed = await seedCoreDemo(database.db, config.dbName, seed, undefined, {
      onSeeded: async (id) => {
        chainId = id;
        return [];
      },
      ...(wiring.shopper.password.from === "derived" ? { derivedShopperPassword: wiring.shopper.password.value } : {}),
    });
    return { printed, ...(chainId === undefined ? {} : { chainId }), demoChainId: chainId ?? (await demoChainId(database.db, seed)) };
  } finally {
    await database.close();
  }
}

/** The core side of the demo wiring (lib/demo-wiring.ts wireCoreDemo) for the chain seeded now. */
async function wireCore(config: CoreConfig, chainId: number, wiring: DemoWiring): Promise<string[]> {
  const database = openCoreDatabase(config.databaseUrl, config.dbName, { connectionLimit: 1 });
  try {
    return await wireCoreDemo(database.db, await openSecretBox(config.secretKey!), chainId, wiring);
  } finally {
    await database.close();
  }
}

/**
 * Migrates and seeds the webshop database; its website serves chain `chainId` (SEED_CHAIN_ID, or
 * the demo chain as the core database numbered it; undefined: no chain yet, the skeleton and
 * token only).
 */
async function prepareConnector(config: ConnectorConfig, wiring: DemoWiring, chainId: number | undefined): Promise<string[]> {
  await waitForDatabase(config.databaseUrl, { limitMs: config.databaseWaitMs, onWait: (line) => console.log(line) });
  await migrateConnectorDatabase(config.databaseUrl, config.dbName);
  const database = openConnectorDatabase(config.databaseUrl, config.dbName, { connectionLimit: 1 });
  try {
    // The token the core API's side stores as the authentication point's (lib/demo-wiring.ts).
    const token = wiring.integrationToken;
    const printed = await seedWebshopDemo(database.db, config.dbName, chainId, token.from === "derived" ? { derived: token.value } : token.value);
    if (chainId !== undefined) {
      printed.push(...(await seedWebshopShopper(database.db, chainId, { username: wiring.shopper.username, password: wiring.shopper.password.value })));
    }
    return printed;
  } finally {
    await database.close();
  }
}

/**
 * Starts the services this run serves, in this process (a worker, or the one process with
 * WEB_CONCURRENCY=1); when the second cannot start, the first is closed again. Each service's
 * server modules are loaded here, only when it is served: a connector worker does not carry the
 * core API's (about 30 MB of its RSS) and the other way round.
 */
async function startServices(core: CoreConfig | undefined, connector: ConnectorConfig | undefined): Promise<WorkerService[]> {
  const services: WorkerService[] = [];
  try {
    if (core) {
      const { startCoreApi } = await import("../core-api/src/main.node.ts");
      services.push({ name: "core-api", ...(await startCoreApi(core)) });
    }
    if (connector) {
      const { startConnector, startOptionsOf } = await import("../connector/src/main.ts");
      services.push({ name: "connector", ...(await startConnector(startOptionsOf(connector))) });
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

main().catch(async (err: Error & { code?: string }) => {
  // Start-up failures the operator can act on are one line; anything else is a bug: keep its stack.
  const known = err.name === "DatabaseUnavailableError" || LISTEN_ERROR_CODES.includes(err.code ?? "");
  console.error(known ? err.message : err.stack ?? String(err));
  await Promise.allSettled(running.map((s) => s.stop("SIGTERM")));
  process.exit(1);
});
