/**
 * `npm start`: migrates both databases, seeds the demo chain on an empty database, starts
 * core-api and the connector, and prints their URLs (handbook, "Real components and how they
 * start"). `--service core-api` or `--service connector` starts one of them only (Docker).
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { loadCoreConfig } from "../core-api/src/config.ts";
import { openCoreDatabase } from "../core-api/src/db/client.ts";
import { migrateCoreDatabase } from "../core-api/src/db/migrate.node.ts";
import { seedDemoChain } from "../core-api/src/db/seed.ts";
import { startCoreApi } from "../core-api/src/main.node.ts";
import { loadConnectorConfig } from "../connector/src/config.ts";
import { openConnectorDatabase } from "../connector/src/db/client.ts";
import { migrateConnectorDatabase } from "../connector/src/db/migrate.node.ts";
import { seedConnector } from "../connector/src/db/seed.ts";
import { startConnector } from "../connector/src/main.ts";

/** The demo chain gets id 1 on an empty database (handbook). */
const DEMO_CHAIN_ID = 1;
const SECRET_KEY_FILE = fileURLToPath(new URL("../.secret-key", import.meta.url));

const { values } = parseArgs({ options: { service: { type: "string", default: "all" } } });
const service = values.service;
if (!["all", "core-api", "connector"].includes(service)) {
  console.error(`--service must be core-api, connector or all (got ${service})`);
  process.exit(2);
}

// Empty variables (as compose passes them) mean "not set".
const env: Record<string, string | undefined> = Object.fromEntries(
  Object.entries(process.env).filter(([, v]) => v !== undefined && v !== ""),
);
env.SERVICE_SECRET_KEY ??= serviceSecretKey();

const generated = (bytes: number) => randomBytes(bytes).toString("base64url");
const printed: string[] = [];
const running: Array<{ name: string; url: string; close(): Promise<void> }> = [];

if (service !== "connector") {
  const config = loadCoreConfig(env);
  await migrateCoreDatabase(config.databaseUrl, config.dbName);
  const database = openCoreDatabase(config.databaseUrl, config.dbName, { connectionLimit: 1 });
  try {
    const seeded = await seedDemoChain(database.db, {
      adminUsername: env.SEED_ADMIN_USERNAME ?? "admin@demo.example",
      adminPassword: env.SEED_ADMIN_PASSWORD ?? generated(18),
      appHostname: env.SEED_APP_HOSTNAME ?? "shop.localhost",
      shopperUsername: env.SEED_SHOPPER_USERNAME ?? "shopper@demo.example",
      shopperPassword: env.SEED_SHOPPER_PASSWORD ?? generated(18),
    });
    if (seeded) {
      printed.push(
        `demo chain ${seeded.chainId} seeded in ${config.dbName}:`,
        `  admin username  ${seeded.adminUsername}`,
        `  admin password  ${seeded.adminPassword}${env.SEED_ADMIN_PASSWORD ? " (from SEED_ADMIN_PASSWORD)" : "  (generated: shown only now)"}`,
        `  app hostname    ${seeded.appHostname}`,
        `  shopper username  ${seeded.shopperUsername}  (log in with X-Service-App-Hostname: ${seeded.appHostname})`,
        `  shopper password  ${seeded.shopperPassword}${env.SEED_SHOPPER_PASSWORD ? " (from SEED_SHOPPER_PASSWORD)" : "  (generated: shown only now)"}`,
      );
    }
  } finally {
    await database.close();
  }
  running.push({ name: "core-api", ...(await startCoreApi(config)) });
}

if (service !== "core-api") {
  const config = loadConnectorConfig(env);
  await migrateConnectorDatabase(config.databaseUrl, config.dbName);
  const database = openConnectorDatabase(config.databaseUrl, config.dbName);
  try {
    // A generated token is made (and printed) only when the store has no active token yet.
    let token = env.SEED_INTEGRATION_TOKEN;
    const seeded = await seedConnector(database.db, {
      chainId: DEMO_CHAIN_ID,
      integrationToken: token ?? (() => (token = generated(24))),
    });
    if (seeded?.storedToken) {
      printed.push(
        `webshop store seeded in ${config.dbName} for chain ${DEMO_CHAIN_ID}:`,
        `  integration token  ${token}${env.SEED_INTEGRATION_TOKEN ? " (from SEED_INTEGRATION_TOKEN)" : "  (generated: shown only now)"}`,
      );
    }
  } finally {
    await database.close();
  }
  running.push({ name: "connector", ...(await startConnector(config)) });
}

for (const line of printed) console.log(line);
for (const s of running) console.log(`${s.name.padEnd(10)} ${s.url}`);

const stop = async () => {
  await Promise.allSettled(running.map((s) => s.close()));
  process.exit(0);
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);

/** SERVICE_SECRET_KEY from .secret-key, generated there (mode 600) on first start. */
function serviceSecretKey(): string {
  if (existsSync(SECRET_KEY_FILE)) return readFileSync(SECRET_KEY_FILE, "utf8").trim();
  const key = randomBytes(32).toString("base64");
  writeFileSync(SECRET_KEY_FILE, `${key}\n`, { mode: 0o600 });
  return key;
}
