/**
 * Demo step 6: the webshop and the platform in sync (handbook, "Sync between the webshop and the
 * platform"), against the RUNNING services of `npm start`:
 *   a. a few shop customers registered the way Magento registers them: a `customer_entity` row
 *      (password hashed in Magento's format), then its `customer_address_entity` row made the
 *      default billing and shipping address, written straight into the webshop's own tables (the
 *      one thing the demo does in a database: it is the shop's side; everything else is HTTP);
 *   b. one reconcile pass, the one `npm run sync` and the connector's SYNC_CRON run
 *      (connector/src/sync/reconcile.ts runReconcile), which sends them to the platform's add-user
 *      (the chain's generated member-number range made sure of first, as step 4 does, so they get
 *      member numbers whichever step runs first: `npm run demo -- --steps 6` on a fresh start);
 *   c. each read back as a member through the core API (get-user by
 *      authentication_point_identifier = the webshop customer id, admin session);
 *   d. one member changed through the core API (alter-user), and its Magento row read until the
 *      outbox has delivered the change to the connector's update (polled, at most 15 s);
 *   e. a shopper login with the webshop credentials through the demo app (`POST /auth/login` with
 *      X-Service-App-Hostname of the chain's webshop app), and a wrong password refused.
 * Rerunnable: customers that exist already (by email in the chain's websites) are kept, and a
 * second pass finds nothing to send for them.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { runTransaction } from "@service/shared/node";
import type { SecretBox } from "@service/shared/secret-box";
import type { ConnectorDatabase } from "../../connector/src/db/client.ts";
import { customerEntity } from "../../connector/src/db/schema.ts";
import { hashMagentoPassword } from "../../connector/src/customers/magento-password.ts";
import { readPlatformLinks } from "../../connector/src/sync/platform-link.ts";
import { runReconcile, type ChainReport, type ReconcileReport } from "../../connector/src/sync/reconcile.ts";
import { fetchJson, type CoreApiClient } from "../lib/http-client.ts";
import { ensureMemberNumberRange, type DemoRange } from "./members.ts";

/** The customers the demo registers in the shop (their password: {@link SHOP_PASSWORD}). */
export const SHOP_CUSTOMERS = [
  {
    email: "femke.jansen@example.com", firstname: "Femke", lastname: "Jansen", dob: "1988-03-14", gender: 2,
    address: { street: "Oudegracht\n112", city: "Utrecht", postcode: "3511 AX", countryId: "NL", telephone: "+31302345678" },
  },
  {
    email: "jeroen.bakker@example.com", firstname: "Jeroen", lastname: "Bakker", dob: "1979-11-02", gender: 1,
    address: { street: "Grote Markt\n7\nA", city: "Groningen", postcode: "9711 LV", countryId: "NL", telephone: "+31501234567" },
  },
  {
    email: "lotte.maes@example.com", firstname: "Lotte", lastname: "Maes", dob: "1995-06-30", gender: 2,
    address: { street: "Meir\n50", city: "Antwerpen", postcode: "2000", countryId: "BE", telephone: "+3232345678" },
  },
] as const;

/** The shop password of every demo customer. */
export const SHOP_PASSWORD = "Shop-Demo-2026!";

/** How long the demo waits for the outbox to bring an app-side change to the shop. */
const DELIVERY_WAIT_MS = 15_000;
/** How long it waits for a reconcile lease another run (the connector's SYNC_CRON) holds. */
const LEASE_WAIT_MS = 30_000;

/** The webshop's side the demo works on: its database and the secret box of SERVICE_SECRET_KEY. */
export interface ShopAccess {
  database: ConnectorDatabase;
  box: SecretBox;
}

export interface WebshopSyncDemo {
  /** the chain's platform link as the connector holds it (null: the chain's webshop is not linked) */
  link: { coreApiUrl: string; appHostname: string } | null;
  /** the chain's generated member-number range the new members are numbered from */
  range: DemoRange | null;
  customers: Array<{ email: string; customerId: number; registered: boolean; userId: number | null; memberNumber: string | null; signupChannel: string | null }>;
  /** the chain's line of the reconcile pass, and of a second pass after the app-side change */
  firstPass: ChainReport | null;
  secondPass: ChainReport | null;
  /** the demo's customers each pass sent to the platform (webshop customer ids) */
  sentFirst: number[];
  sentSecond: number[];
  /** the app-side change: which member, the value, and when the shop had it */
  change: { email: string; field: "lastname"; from: string; to: string; arrivedMs: number | null } | null;
  login: { status: number; userId: number | null; wrongPasswordStatus: number } | null;
  problems: string[];
}

/**
 * Runs the step for chain `chainId` (see the module comment).
 * @param core logged in as the chain's super-user admin
 * @param shop the webshop database (WEBSHOP_DB_NAME) and the secret box that opens the chain's
 *   platform link (SERVICE_SECRET_KEY, as npm start keeps it)
 * @returns what happened, with one line per failed check in `problems` (nothing throws for a
 *   failed check; an unreachable service or database does throw)
 */
export async function demoWebshopSync(core: CoreApiClient, shop: ShopAccess, chainId: number): Promise<WebshopSyncDemo> {
  const out: WebshopSyncDemo = { link: null, range: null, customers: [], firstPass: null, secondPass: null, sentFirst: [], sentSecond: [], change: null, login: null, problems: [] };
  const [link] = await readPlatformLinks(shop.database.db, shop.box, [chainId]);
  if (!link) {
    out.problems.push(`the webshop of chain ${chainId} is not linked to the platform (npm start links the demo chain; else npm run admin -- link-platform)`);
    return out;
  }
  out.link = { coreApiUrl: link.coreApiUrl, appHostname: link.appHostname };
  if (link.websiteIds.length === 0) {
    out.problems.push(`chain ${chainId} has no website in the shop`);
    return out;
  }
  await registerShopCustomers(shop, link.websiteIds, out);

  // b. One reconcile pass: the new customers go to add-user (numbered from the chain's range).
  out.range = await ensureMemberNumberRange(core);
  const ours = new Set(out.customers.map((c) => c.customerId));
  const first = await reconcileChain(shop, chainId);
  out.firstPass = first.report.chains[0] ?? null;
  out.sentFirst = first.sent.filter((id) => ours.has(id));
  for (const f of first.report.failures) out.problems.push(`reconcile: customer ${f.customerId} (${f.email}): ${f.message}`);
  if (out.firstPass?.stopped) out.problems.push(`reconcile stopped: ${out.firstPass.stopped}`);

  await readMembers(core, chainId, out);
  await changeReachesShop(core, shop, out);

  // A second pass: the delivered change set last_hash, so nothing of the demo's echoes back.
  const second = await reconcileChain(shop, chainId);
  out.secondPass = second.report.chains[0] ?? null;
  out.sentSecond = second.sent.filter((id) => ours.has(id));
  if (out.sentSecond.length > 0) out.problems.push(`a second pass sent customer(s) ${out.sentSecond.join(", ")} again`);

  await shopperLogin(core, link.appHostname, out);
  return out;
}

/** a. SHOP_CUSTOMERS registered as Magento does it in the first of `websiteIds` (kept when one of them has the email); into `out.customers`. */
async function registerShopCustomers(shop: ShopAccess, websiteIds: number[], out: WebshopSyncDemo): Promise<void> {
  for (const c of SHOP_CUSTOMERS) {
    const [existing] = await shop.database.db.select({ id: customerEntity.entityId }).from(customerEntity)
      .where(and(eq(customerEntity.email, c.email), inArray(customerEntity.websiteId, websiteIds)));
    const customerId = existing?.id ?? await registerCustomer(shop.database, websiteIds[0]!, c);
    out.customers.push({ email: c.email, customerId, registered: !existing, userId: null, memberNumber: null, signupChannel: null });
  }
}

/** c. Each customer read back as a member through get-user; fills their ids and numbers, a problem per difference. */
async function readMembers(core: CoreApiClient, chainId: number, out: WebshopSyncDemo): Promise<void> {
  for (const c of out.customers) {
    const member = await core.get("/internal/get-user", { chain_id: chainId, authentication_point_identifier: c.customerId })
      .then((r) => r.user as Record<string, any>, () => null);
    if (!member) {
      out.problems.push(`${c.email}: no member with authentication_point_identifier ${c.customerId} after the pass`);
      continue;
    }
    Object.assign(c, { userId: member.id, memberNumber: member.member_number, signupChannel: member.signup_channel });
    const given = SHOP_CUSTOMERS.find((s) => s.email === c.email)!;
    if (member.username !== c.email) out.problems.push(`${c.email}: the member's username is ${member.username}`);
    if (member.first_name !== given.firstname) out.problems.push(`${c.email}: the member's first_name is ${member.first_name}`);
    if (member.birthday !== given.dob) out.problems.push(`${c.email}: the member's birthday is ${member.birthday}`);
    if (member.address_towncity !== given.address.city) out.problems.push(`${c.email}: the member's town is ${member.address_towncity}`);
    if (!member.member_number) out.problems.push(`${c.email}: the member has no member number`);
  }
}

/** d. The first customer's last name changed through alter-user, its Magento row polled until the outbox delivered it; into `out.change`. */
async function changeReachesShop(core: CoreApiClient, shop: ShopAccess, out: WebshopSyncDemo): Promise<void> {
  const changed = out.customers[0]!;
  if (changed.userId === null) return;
  const lastname = async () => (await shop.database.db.select({ lastname: customerEntity.lastname }).from(customerEntity)
    .where(eq(customerEntity.entityId, changed.customerId)))[0]?.lastname;
  const from = (await lastname()) ?? "";
  const base = SHOP_CUSTOMERS[0].lastname;
  // alternates between runs, so every run makes a real change
  const to = from === base ? `${base}-de Boer` : base;
  const started = performance.now();
  await core.sendForm("PUT", "/internal/alter-user", { user_id: changed.userId, last_name: to });
  let arrivedMs: number | null = null;
  while (performance.now() - started < DELIVERY_WAIT_MS) {
    if ((await lastname()) === to) {
      arrivedMs = performance.now() - started;
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  out.change = { email: changed.email, field: "lastname", from, to, arrivedMs };
  if (arrivedMs === null) out.problems.push(`${changed.email}: the shop still has lastname "${from}" ${DELIVERY_WAIT_MS / 1000} s after alter-user`);
}

/** e. The second customer logs in with the webshop password through the webshop app `appHostname`; a wrong password is refused; into `out.login`. */
async function shopperLogin(core: CoreApiClient, appHostname: string, out: WebshopSyncDemo): Promise<void> {
  const shopper = out.customers[1]!;
  const login = (password: string) => fetchJson(`${core.baseUrl}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", "X-Service-App-Hostname": appHostname },
    body: JSON.stringify({ username: shopper.email, password }),
  });
  const right = await login(SHOP_PASSWORD);
  const wrong = await login(`${SHOP_PASSWORD}-wrong`);
  const sessionUserId = right.body?.results?.session_info?.session_user_id;
  out.login = { status: right.status, userId: sessionUserId === undefined ? null : Number(sessionUserId), wrongPasswordStatus: wrong.status };
  if (right.status !== 200) out.problems.push(`shopper login ${shopper.email}: HTTP ${right.status} ${JSON.stringify(right.body?.error ?? right.body)}`);
  else if (out.login.userId !== shopper.userId) out.problems.push(`shopper login opened a session for user ${out.login.userId}, the member is ${shopper.userId}`);
  if (wrong.status !== 401) out.problems.push(`a wrong webshop password answered HTTP ${wrong.status}, expected 401`);
}

/**
 * Writes one customer as Magento's registration does: `customer_entity`, its address, then the
 * address as default billing and shipping.
 * @returns the new entity_id
 */
async function registerCustomer(database: ConnectorDatabase, websiteId: number, c: (typeof SHOP_CUSTOMERS)[number]): Promise<number> {
  const passwordHash = await hashMagentoPassword(SHOP_PASSWORD);
  return runTransaction(database.db, async (tx) => {
    // the website's default store view, as Magento's registration records it
    const [[store]] = await tx.execute(sql`
      SELECT s.store_id, s.name FROM store_website w JOIN store_group g ON g.group_id = w.default_group_id JOIN store s ON s.store_id = g.default_store_id
      WHERE w.website_id = ${websiteId}`) as unknown as [[{ store_id: number; name: string } | undefined]];
    const [res] = await tx.execute(sql`
      INSERT INTO customer_entity (website_id, email, group_id, store_id, created_in, firstname, lastname, dob, gender, password_hash, is_active)
      VALUES (${websiteId}, ${c.email}, 1, ${store?.store_id ?? null}, ${store?.name ?? null}, ${c.firstname}, ${c.lastname}, ${c.dob}, ${c.gender}, ${passwordHash}, 1)`);
    const id = (res as unknown as { insertId: number }).insertId;
    const a = c.address;
    const [addr] = await tx.execute(sql`
      INSERT INTO customer_address_entity (parent_id, city, country_id, firstname, lastname, postcode, street, telephone)
      VALUES (${id}, ${a.city}, ${a.countryId}, ${c.firstname}, ${c.lastname}, ${a.postcode}, ${a.street}, ${a.telephone})`);
    const addressId = (addr as unknown as { insertId: number }).insertId;
    await tx.execute(sql`UPDATE customer_entity SET default_billing = ${addressId}, default_shipping = ${addressId} WHERE entity_id = ${id}`);
    return id;
  });
}

/**
 * One reconcile pass for the chain, waiting while another run (the connector's SYNC_CRON) holds
 * the lease.
 * @returns the run's report and the webshop customer ids the platform accepted
 * @throws Error when the lease stays taken longer than LEASE_WAIT_MS
 */
async function reconcileChain(shop: ShopAccess, chainId: number): Promise<{ report: ReconcileReport; sent: number[] }> {
  const until = Date.now() + LEASE_WAIT_MS;
  for (;;) {
    const sent: number[] = [];
    const report = await runReconcile({ db: shop.database.db, box: shop.box }, { chainIds: [chainId], onSent: (item) => sent.push(item.customerId) });
    if (report.status !== "lease_held") return { report, sent };
    if (Date.now() > until) throw new Error(`another reconcile run still holds the lease after ${LEASE_WAIT_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 500));
  }
}
