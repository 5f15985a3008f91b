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
import { startCoreApi } from "../core-api/src/main.node.ts";
import { parseConnectorConfig, type ConnectorConfig } from "../connector/src/config.ts";
import { openConnectorDatabase } from "../connector/src/db/client.ts";
import { migrateConnectorDatabase } from "../connector/src/db/migrate.node.ts";
import { startConnector } from "../connector/src/main.ts";
import { parseCommandLine } from "./lib/command-line.ts";
import { openSecretBox } from "@service/shared/secret-box";
import { parseDemoSeedVariables, seedCoreDemo, seedPlatformLinkDemo, seedWebshopDemo, seedWebshopShopper, type DemoSeedVariables } from "./lib/demo-seed.ts";
import { demoWiring, parseDemoWiringVariables, wireCoreDemo, withRunningUrls, type DemoWiring } from "./lib/demo-wiring.ts";
import { secretKeyFileOrNew } from "./lib/secret-key-file.ts";
import { waitForDatabase } from "./lib/wait-for-database.ts";

const USAGE = `Usage: npm start [-- --service all|core-api|connector]

Checks every configuration variable (one line per bad one), waits for the database (up to
DATABASE_WAIT_SECONDS, default 60), migrates service_core and service_webshop, seeds the demo
chain on an empty database and wires it both ways (the connector is its authentication point;
generated secrets are printed once; SEED_* ones never), and serves core-api (CORE_API_PORT,
default 8080) and the connector (CONNECTOR_PORT, default 8081).
SIGTERM or SIGINT stops both: requests in flight finish, pools close, exit status 0.
Unlike the images, npm start allows webhook targets on private addresses unless
WEBHOOK_ALLOW_PRIVATE=false (the demo's SMS receiver runs on 127.0.0.1).

Options:
  --service <name>  all (default), core-api or connector
  -h, --help        print this text and exit; nothing is checked or started

Environment: DATABASE_URL, CORE_DB_NAME, WEBSHOP_DB_NAME, CORE_API_PORT, CONNECTOR_PORT, HOST,
TRUSTED_PROXIES, SESSION_TTL_HOURS, METRICS_TOKEN, DATABASE_WAIT_SECONDS, SERVICE_SECRET_KEY, SYNC_CRON,
SEED_ADMIN_USERNAME, SEED_ADMIN_PASSWORD, SEED_APP_HOSTNAME, SEED_SHOPPER_USERNAME,
SEED_SHOPPER_PASSWORD, SEED_INTEGRATION_TOKEN, SEED_CHAIN_ID, SEED_CONNECTOR_URL, SEED_CORE_API_URL,
SEED_IDENTITY_TOKEN, WEBSHOP_TIMEOUT_MS, WEBHOOK_ALLOW_PRIVATE, OUTBOX_POLL_MS, OUTBOX_TIMEOUT_MS
(see README.md).`;

/** Exit status of a bad command line or configuration (nothing was started). */
const EXIT_USAGE = 2;
/** A process manager waits about 10 s after SIGTERM; give up just before. */
const SHUTDOWN_LIMIT_MS = 9_500;
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
  process.env.SERVICE_SECRET_KEY ||= secretKeyFileOrNew();
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
    // A service started alone (Docker) is told the other's URL (SEED_CONNECTOR_URL / SEED_CORE_API_URL).
    corePort: core?.ok ? core.config.port : 8080,
    connectorPort: connector?.ok ? connector.config.port : 8081,
  });

  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));

  const printed: string[] = [];
  const seeded = core?.ok ? await runCore(core.config, seed.config, wiring) : undefined;
  if (seeded) printed.push(...seeded.printed);
  if (connector?.ok) printed.push(...(await runConnector(connector.config, wiring)));
  // Wired once both listen: a port of 0 is known only now. A URL given by SEED_* wins.
  const urlOf = (name: string) => running.find((s) => s.name === name)?.url;
  const wired = withRunningUrls(wiring, wiringVariables.config, { coreApiUrl: urlOf("core-api"), connectorUrl: urlOf("connector") });
  if (core?.ok && seeded?.chainId !== undefined) printed.push(...(await wireCore(core.config, seeded.chainId, wired)));
  if (connector?.ok && connector.config.secretKey) {
    // The connector's side of the wiring: the core API it sends shop changes to, with the
    // identity-source client's token (printed by wireCore when derived) and the webshop app.
    const shop = openConnectorDatabase(connector.config.databaseUrl, connector.config.dbName, { connectionLimit: 1 });
    try {
      const token = wired.identityToken.value;
      const link = { coreApiUrl: wired.coreApiUrl, accessToken: `${token.id}:${token.secret}`, appHostname: wired.appHostname };
      printed.push(...(await seedPlatformLinkDemo(shop.db, connector.config.seedChainId, link, connector.config.secretKey)));
    } finally {
      await shop.close();
    }
  }
  for (const line of printed) console.log(line);
  if (core?.ok && allowPrivateDefaulted) console.log("webhook targets on private addresses allowed (npm start's default; WEBHOOK_ALLOW_PRIVATE=false refuses them)");
  for (const s of running) console.log(`${s.name.padEnd(10)} ${s.url}`);
}

/**
 * Migrates and seeds the core database, then serves it.
 * @returns the lines to print, and the demo chain's id when it was seeded now (to be wired)
 */
async function runCore(config: CoreConfig, seed: DemoSeedVariables, wiring: DemoWiring): Promise<{ printed: string[]; chainId?: number }> {
  await waitForDatabase(config.databaseUrl, { limitMs: config.databaseWaitMs, onWait: (line) => console.log(line) });
  await migrateCoreDatabase(config.databaseUrl, config.dbName);
  const database = openCoreDatabase(config.databaseUrl, config.dbName, { connectionLimit: 1 });
  let printed: string[];
  let chainId: number | undefined;
  try {
    printed = await seedCoreDemo(database.db, config.dbName, seed, undefined, {
      onSeeded: async (id) => {
        chainId = id;
        return [];
      },
      ...(wiring.shopper.password.from === "derived" ? { derivedShopperPassword: wiring.shopper.password.value } : {}),
    });
  } finally {
    await database.close();
  }
  await started({ name: "core-api", ...(await startCoreApi(config)) });
  return { printed, ...(chainId === undefined ? {} : { chainId }) };
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

/** The demo chain gets id 1 on an empty database (handbook); SEED_CHAIN_ID says otherwise. */
async function runConnector(config: ConnectorConfig, wiring: DemoWiring): Promise<string[]> {
  await waitForDatabase(config.databaseUrl, { limitMs: config.databaseWaitMs, onWait: (line) => console.log(line) });
  await migrateConnectorDatabase(config.databaseUrl, config.dbName);
  const database = openConnectorDatabase(config.databaseUrl, config.dbName, { connectionLimit: 1 });
  let printed: string[];
  try {
    // The token the core API's side stores as the authentication point's (lib/demo-wiring.ts).
    const token = wiring.integrationToken;
    printed = await seedWebshopDemo(database.db, config.dbName, config.seedChainId, token.from === "derived" ? { derived: token.value } : token.value);
    printed.push(...(await seedWebshopShopper(database.db, config.seedChainId, { username: wiring.shopper.username, password: wiring.shopper.password.value })));
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

main().catch(async (err: Error & { code?: string }) => {
  // Start-up failures the operator can act on are one line; anything else is a bug: keep its stack.
  const known = err.name === "DatabaseUnavailableError" || ["EADDRINUSE", "EACCES", "EADDRNOTAVAIL"].includes(err.code ?? "");
  console.error(known ? err.message : err.stack ?? String(err));
  await Promise.allSettled(running.map((s) => s.close()));
  process.exit(1);
});
