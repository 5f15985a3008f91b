/**
 * `npm run migrate`: creates the two databases when missing, applies the committed migrations
 * and, on an empty database, seeds the demo chain and webshop and wires them both ways as `npm
 * start` does (so the Deno entry, which only serves, finds them). Checks the configuration first and waits for the
 * database as `npm start` does.
 */
import { parseCoreConfig } from "../core-api/src/config.ts";
import { openCoreDatabase } from "../core-api/src/db/client.ts";
import { migrateCoreDatabase } from "../core-api/src/db/migrate.node.ts";
import { openConnectorDatabase } from "../connector/src/db/client.ts";
import { parseConnectorConfig } from "../connector/src/config.ts";
import { migrateConnectorDatabase } from "../connector/src/db/migrate.node.ts";
import { parseCommandLine } from "./lib/command-line.ts";
import { openSecretBox } from "@service/shared/secret-box";
import { demoChainId, demoChainLines, parseDemoSeedVariables, seedCoreDemo, seedPlatformLinkDemo, seedWebshopDemo, seedWebshopShopper } from "./lib/demo-seed.ts";
import { demoWiring, parseDemoWiringVariables, wireCoreDemo } from "./lib/demo-wiring.ts";
import { secretKeyFileOf, secretKeyFileOrNew } from "./lib/secret-key-file.ts";
import { waitForDatabase } from "./lib/wait-for-database.ts";

const USAGE = `Usage: npm run migrate

Creates CORE_DB_NAME (default service_core) and WEBSHOP_DB_NAME (default service_webshop) on
DATABASE_URL when missing, applies the committed migrations to both and, on an empty database,
seeds the demo chain and wires it to the webshop (SEED_* variables; generated secrets are printed
once), and prints the demo chain's id (CHAIN=<id>, as the database numbered it). Waits for the database up to DATABASE_WAIT_SECONDS (default 60). npm start does the same
before serving. SERVICE_SECRET_KEY defaults to the .secret-key npm start keeps (made when missing).

Options:
  -h, --help  print this text and exit; nothing is touched`;

parseCommandLine(USAGE, {});
// The demo wiring seals the integration token: the same key npm start uses.
process.env.SERVICE_SECRET_KEY ||= secretKeyFileOrNew(secretKeyFileOf(process.env));
const core = parseCoreConfig(process.env);
const connector = parseConnectorConfig(process.env);
const seed = parseDemoSeedVariables(process.env);
const wiringVariables = parseDemoWiringVariables(process.env);
const problems = [core, connector, seed, wiringVariables].flatMap((r) => (r.ok ? [] : r.problems));
if (!core.ok || !connector.ok || !seed.ok || !wiringVariables.ok) {
  for (const line of [...new Set(problems)]) console.error(line);
  process.exit(2);
}
const wiring = demoWiring(wiringVariables.config, {
  secretKey: process.env.SERVICE_SECRET_KEY,
  integrationToken: seed.config.SEED_INTEGRATION_TOKEN,
  appHostname: seed.config.SEED_APP_HOSTNAME,
  shopperUsername: seed.config.SEED_SHOPPER_USERNAME,
  shopperPassword: seed.config.SEED_SHOPPER_PASSWORD,
  host: core.config.host,
  corePort: core.config.port,
  connectorPort: connector.config.port,
});
try {
  await waitForDatabase(core.config.databaseUrl, { limitMs: core.config.databaseWaitMs, onWait: (line) => console.log(line) });
  await migrateCoreDatabase(core.config.databaseUrl, core.config.dbName);
  await migrateConnectorDatabase(connector.config.databaseUrl, connector.config.dbName);
  const coreDb = openCoreDatabase(core.config.databaseUrl, core.config.dbName, { connectionLimit: 1 });
  const shopDb = openConnectorDatabase(connector.config.databaseUrl, connector.config.dbName, { connectionLimit: 1 });
  try {
    const box = await openSecretBox(process.env.SERVICE_SECRET_KEY);
    const token = wiring.integrationToken;
    let seededChainId: number | undefined;
    const printed = await seedCoreDemo(coreDb.db, core.config.dbName, seed.config, undefined, {
      onSeeded: (chainId) => {
        seededChainId = chainId;
        return wireCoreDemo(coreDb.db, box, chainId, wiring);
      },
      ...(wiring.shopper.password.from === "derived" ? { derivedShopperPassword: wiring.shopper.password.value } : {}),
    });
    // The demo chain as the core database numbered it (on a Galera node or with
    // auto_increment_offset, not 1); SEED_CHAIN_ID maps the webshop to another chain.
    const demoChain = seededChainId ?? (await demoChainId(coreDb.db, seed.config));
    const shopChainId = connector.config.seedChainId ?? demoChain;
    printed.push(...(await seedWebshopDemo(shopDb.db, connector.config.dbName, shopChainId, token.from === "derived" ? { derived: token.value } : token.value)));
    if (shopChainId !== undefined) {
      printed.push(...(await seedWebshopShopper(shopDb.db, shopChainId, { username: wiring.shopper.username, password: wiring.shopper.password.value })));
      // The connector's side of the demo wiring, as npm start does once both services listen.
      const identity = wiring.identityToken.value;
      printed.push(...(await seedPlatformLinkDemo(shopDb.db, shopChainId,
        { coreApiUrl: wiring.coreApiUrl, accessToken: `${identity.id}:${identity.secret}`, appHostname: wiring.appHostname }, process.env.SERVICE_SECRET_KEY)));
    }
    if (demoChain !== undefined) printed.push(...demoChainLines(demoChain));
    for (const line of printed) console.log(line);
  } finally {
    await Promise.all([coreDb.close(), shopDb.close()]);
  }
} catch (err) {
  console.error((err as Error).name === "DatabaseUnavailableError" ? (err as Error).message : (err as Error).stack);
  process.exit(1);
}
console.log(`migrated ${core.config.dbName} and ${connector.config.dbName}`);
