/**
 * Platform -> webshop through the outbox (handbook, "Sync between the webshop and the platform"),
 * with both services for real: add-user and alter-user on a chain whose authentication point is a
 * real connector write an outbox row in their transaction; the outbox worker (driven by tick())
 * sends the user info to the connector's `update` over HTTP; the connector stores it and its
 * last_hash. Changes made by the webshop itself (its identity-source client) are not sent back.
 * One member's deliveries go one at a time in the order the changes committed: many quick changes
 * while the connector's database is away (database-proxy.ts) end with the shop holding the last
 * one, its password included.
 */
import { openSecretBox, type SecretBox } from "@service/shared/secret-box";
import { userInfoHash } from "@service/shared/node";
import { IDEMPOTENCY_HEADER } from "@service/shared/webhook-signature";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { setAuthenticationPoint } from "../core-api/src/authentication-points/authentication-point-repository.ts";
import { ensureIdentitySourceClient } from "../core-api/src/authentication-points/identity-source-client.ts";
import { AUTHENTICATION_POINT_KIND, USER_CHANGED_EVENT, userOrderingKey } from "../core-api/src/authentication-points/webshop-sync.ts";
import { createAppHostname } from "../core-api/src/db/seed.ts";
import { apps, chains, memberNumberRanges, outbox, phoneVerifications, users } from "../core-api/src/db/schema.ts";
import { OutboxWorker } from "../core-api/src/outbox/outbox-worker.ts";
import { hashVerificationCode } from "../core-api/src/users/phone-verification.ts";
import { verifyMagentoPassword } from "../connector/src/customers/magento-password.ts";
import { userInfoObject } from "../connector/src/customers/mapping.ts";
import { loadCustomerBundle } from "../connector/src/customers/repository.ts";
import { startCore, TEST_SECRET_KEY, type TestAdmin, type TestCore } from "./helpers/core.ts";
import { startDatabaseProxy, type DatabaseProxy } from "./helpers/database-proxy.ts";
import { closedPort } from "./helpers/processes.ts";
import { until } from "./helpers/sync-world.ts";
import { startWebshop, type TestWebshop } from "./helpers/webshop.ts";

const HOST = "webshop.sync.example.test";
let core: TestCore;
/** the connector reaches its database through this proxy (down() takes the database away) */
let shopDatabase: DatabaseProxy;
let shop: TestWebshop;
let box: SecretBox;
let admin: TestAdmin;
let identity: Record<string, string>;
let worker: OutboxWorker;
/** times a request woke the outbox worker */
let wakes = 0;

beforeAll(async () => {
  core = await startCore({ outboxWake: () => void wakes++ });
  shopDatabase = await startDatabaseProxy();
  shop = await startWebshop(core.chainId, { databaseUrl: shopDatabase.url });
  box = await openSecretBox(TEST_SECRET_KEY);
  const app = await createAppHostname(core.db, core.chainId, HOST);
  await core.db.update(apps).set({ kind: "webshop" }).where(eq(apps.id, app));
  await core.db.insert(memberNumberRanges).values({ chainId: core.chainId, kind: "generated", first: 5000n, last: 5999n, nextNumber: 5000n });
  await setAuthenticationPoint(core.db, box, { chainId: core.chainId, baseUrl: shop.url, integrationToken: shop.token, actor: null }, new Date());
  const token = (await ensureIdentitySourceClient(core.db, core.chainId, new Date())).token!;
  identity = { Authorization: `Bearer ${token.id}:${token.secret}`, "X-Service-App-Hostname": HOST };
  admin = await core.admin({ super_user: true });
  worker = new OutboxWorker({ db: core.db, secretBox: box });
});
afterAll(async () => {
  await shop?.close();
  await shopDatabase?.close();
  await core?.close();
});
beforeEach(async () => {
  // every test starts from an empty outbox
  await core.db.delete(outbox);
});

function call(method: string, path: string, headers: Record<string, string>, body: Record<string, unknown>) {
  return core.json(path, { method, headers: { "content-type": "application/json", "X-Service-API-version": "1.6.8", ...headers }, body: JSON.stringify(body) });
}
/** The admin's session headers without X-Service-Chain-ID (add-user takes chain_id). */
const asAdmin = () => {
  const { "X-Service-Chain-ID": _c, ...headers } = admin.headers;
  return headers;
};

const rowsOf = () => core.db.select().from(outbox).orderBy(outbox.id);
const customerByEmail = async (email: string) => (await shop.rows(
  "SELECT c.entity_id, c.email, c.firstname, c.lastname, d.user_id, d.member_number, d.last_hash FROM customer_entity c LEFT JOIN service_customer_data d ON d.customer_id = c.entity_id WHERE c.email = ?",
  [email],
))[0];

describe("platform -> webshop", () => {
  it("add-user writes one outbox row in its transaction; the worker sends the user info to the connector, which stores it with user_id, member_number and last_hash", async () => {
    const added = await call("POST", "/internal/add-user", asAdmin(), {
      chain_id: core.chainId, username: "nina@example.com", password: "Nina-pass-2026", first_name: "Nina", last_name: "Bakker",
      country_code: "NL", phone_number: "0612345670",
    });
    expect(added.status).toBe(200);
    const user = added.body.results.user;
    const rows = await rowsOf();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      chainId: core.chainId, kind: AUTHENTICATION_POINT_KIND, targetId: user.id, eventType: USER_CHANGED_EVENT, status: "pending",
      orderingKey: `authentication_point:${core.chainId}:user:${user.id}`,
    });
    // the password travels sealed, never in clear
    expect(rows[0]!.payload).not.toContain("Nina-pass-2026");

    expect(await worker.tick()).toBe(1);
    expect(await rowsOf()).toEqual([]); // delivered: the row is gone
    const customer = await customerByEmail("nina@example.com");
    expect(customer).toMatchObject({ firstname: "Nina", lastname: "Bakker", user_id: user.id, member_number: user.member_number });
    expect(customer.last_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(user.member_number).toMatch(/^5\d{3}$/);

    // The password went along: the shopper logs in through the app, checked by the webshop, and
    // the platform member is linked to the customer.
    const login = await core.json("/auth/login", {
      method: "POST", headers: { "content-type": "application/json", "X-Service-App-Hostname": HOST },
      body: JSON.stringify({ username: "nina@example.com", password: "Nina-pass-2026" }),
    });
    expect(login.status).toBe(200);
    expect(login.body.results.session_info.session_user_id).toBe(user.id);
    const [member] = await core.db.select().from(users).where(eq(users.id, user.id));
    expect(member!.authenticationPointIdentifier).toBe(String(customer.entity_id));
  });

  it("alter-user sends the change; a delivery sent again changes nothing; two changes go one after the other, the latest last", async () => {
    const added = await call("POST", "/internal/add-user", asAdmin(), { chain_id: core.chainId, username: "otto@example.com", first_name: "Otto" });
    const userId = added.body.results.user.id;
    await worker.tick();
    const before = await customerByEmail("otto@example.com");

    const altered = await call("PUT", "/internal/alter-user", admin.headers, { user_id: userId, first_name: "Otto-Jan", last_name: "Smit" });
    expect(altered.status).toBe(200);
    expect(await rowsOf()).toHaveLength(1);
    await worker.tick();
    const after = await customerByEmail("otto@example.com");
    expect(after).toMatchObject({ entity_id: before.entity_id, firstname: "Otto-Jan", lastname: "Smit", user_id: userId });
    expect(after.last_hash).not.toBe(before.last_hash);

    // The same delivery again (its answer lost): the same state, the same hash, no second customer.
    await core.db.insert(outbox).values({
      deliveryId: crypto.randomUUID(), chainId: core.chainId, kind: AUTHENTICATION_POINT_KIND, targetId: userId, eventType: USER_CHANGED_EVENT,
      payload: await box.seal("{}", "outbox.payload"), status: "pending", attempts: 0, nextAttemptAt: new Date(Date.now() - 1000),
    });
    await worker.tick();
    expect(await customerByEmail("otto@example.com")).toEqual(after);
    expect(await shop.rows("SELECT COUNT(*) AS n FROM customer_entity WHERE email = 'otto@example.com'")).toEqual([{ n: 1 }]);

    // Two changes: their rows share the member's ordering key, so a round sends only the first;
    // the second goes once the first was delivered, and the shop ends on the latest.
    await call("PUT", "/internal/alter-user", admin.headers, { user_id: userId, last_name: "First" });
    await call("PUT", "/internal/alter-user", admin.headers, { user_id: userId, last_name: "Latest" });
    const [first, second] = await rowsOf();
    expect([first!.orderingKey, second!.orderingKey]).toEqual([userOrderingKey(core.chainId, userId), userOrderingKey(core.chainId, userId)]);
    expect(await worker.tick()).toBe(1);
    expect((await rowsOf()).map((r) => r.id)).toEqual([second!.id]);
    expect(await worker.tick()).toBe(1);
    expect(await rowsOf()).toEqual([]);
    expect((await customerByEmail("otto@example.com")).lastname).toBe("Latest");
  });

  it("many quick changes of one member while the connector's database is away arrive one at a time, in order: the shop ends on the last, its password and last_hash included", async () => {
    const added = await call("POST", "/internal/add-user", asAdmin(), { chain_id: core.chainId, username: "olga@example.com", password: "Olga-pass-0000", last_name: "Start" });
    const userId: number = added.body.results.user.id;
    await worker.tick();
    const customerId: number = (await customerByEmail("olga@example.com")).entity_id;

    /** every answer the connector gave, in order: the delivery (Idempotency-Key) and the status */
    const answers: Array<{ deliveryId: string; status: number }> = [];
    const recording: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      answers.push({ deliveryId: new Headers(init?.headers).get(IDEMPOTENCY_HEADER)!, status: res.status });
      return res;
    };
    const background = new OutboxWorker({
      db: core.db, secretBox: box, fetch: recording, pollMs: 10, retry: { baseMs: 20, capMs: 200, maxAttempts: 1_000 },
    });
    const CHANGES = 6;
    await shopDatabase.down();
    try {
      background.start();
      for (let i = 1; i <= CHANGES; i++) {
        const altered = await call("PUT", "/internal/alter-user", admin.headers, { user_id: userId, last_name: `Step ${i}`, password: `Olga-pass-${i}${i}${i}${i}` });
        expect(altered.status).toBe(200);
      }
      const rows = await rowsOf();
      expect(rows).toHaveLength(CHANGES);
      // The first delivery fails again and again; the later ones wait for it, never tried.
      await until(async () => (await rowsOf())[0]!.attempts >= 3, 10);
      const waiting = await rowsOf();
      expect(waiting.slice(1).map((r) => r.attempts)).toEqual(Array(CHANGES - 1).fill(0));
      expect(answers.length).toBeGreaterThanOrEqual(2);
      expect(answers.every((a) => a.deliveryId === rows[0]!.deliveryId && a.status >= 500)).toBe(true);

      shopDatabase.up();
      await until(async () => (await rowsOf()).length === 0, 10);
      await background.stop();

      // Delivered once each, in the order of the changes.
      const order = rows.map((r) => r.deliveryId);
      expect(answers.filter((a) => a.status === 200).map((a) => a.deliveryId)).toEqual(order);
    } finally {
      shopDatabase.up();
      await background.stop();
    }

    const [stored] = await shop.rows(
      "SELECT c.lastname, c.password_hash, d.last_hash, d.platform_modified_at FROM customer_entity c JOIN service_customer_data d ON d.customer_id = c.entity_id WHERE c.entity_id = ?",
      [customerId],
    );
    expect(stored.lastname).toBe(`Step ${CHANGES}`);
    expect(await verifyMagentoPassword(`Olga-pass-${CHANGES}${CHANGES}${CHANGES}${CHANGES}`, stored.password_hash)).toBe(true);
    expect(await verifyMagentoPassword(`Olga-pass-${CHANGES - 1}${CHANGES - 1}${CHANGES - 1}${CHANGES - 1}`, stored.password_hash)).toBe(false);
    // last_hash is the hash of what the shop holds: the reconcile has nothing to repair.
    expect(stored.last_hash).toBe(await userInfoHash(userInfoObject((await loadCustomerBundle(shop.database.db, customerId))!)));
    const [member] = await core.db.select().from(users).where(eq(users.id, userId));
    expect(Math.floor(stored.platform_modified_at.getTime() / 1000)).toBe(Math.floor(member!.lastModifiedDate.getTime() / 1000));
  });

  it("sends nothing for a change the webshop made itself (its identity-source client), nor for a refused one", async () => {
    const byShop = await call("POST", "/internal/add-user", identity, { username: "from-shop@example.com", first_name: "Shop" });
    expect(byShop.status).toBe(200);
    expect(byShop.body.results.user.signup_channel).toBe("platform");
    const altered = await call("PUT", "/internal/alter-user", { Authorization: identity.Authorization! }, { user_id: byShop.body.results.user.id, first_name: "Shop 2" });
    expect(altered.status).toBe(200);
    expect(await rowsOf()).toEqual([]);

    const duplicate = await call("POST", "/internal/add-user", asAdmin(), { chain_id: core.chainId, username: "from-shop@example.com" });
    expect(duplicate.status).toBe(400);
    const badPhone = await call("PUT", "/internal/alter-user", admin.headers, { user_id: byShop.body.results.user.id, phone_number: "12" });
    expect(badPhone.body.error.name).toBe("invalid_phone_number");
    expect(await rowsOf()).toEqual([]);
  });

  it("sends nothing for a chain without an authentication point", async () => {
    const other = await core.createChain("No webshop");
    const otherAdmin = await core.admin({ super_user: true }, other);
    const { "X-Service-Chain-ID": _c, ...headers } = otherAdmin.headers;
    const added = await call("POST", "/internal/add-user", headers, { chain_id: other, username: "plain@example.com" });
    expect(added.status).toBe(200);
    expect(await rowsOf()).toEqual([]);
  });

  it("a member created by a webshop login goes back with its user_id and member_number", async () => {
    const customerId = await shop.createCustomer({ username: "login-first@example.com", password: "Login-pass-1", first_name: "Lena" });
    const login = await core.json("/auth/login", {
      method: "POST", headers: { "content-type": "application/json", "X-Service-App-Hostname": HOST },
      body: JSON.stringify({ username: "login-first@example.com", password: "Login-pass-1" }),
    });
    expect(login.status).toBe(200);
    const [member] = await core.db.select().from(users).where(and(eq(users.chainId, core.chainId), eq(users.authenticationPointIdentifier, String(customerId))));
    expect(await rowsOf()).toMatchObject([{ kind: AUTHENTICATION_POINT_KIND, targetId: member!.id }]);
    await worker.tick();
    expect(await customerByEmail("login-first@example.com")).toMatchObject({ entity_id: customerId, user_id: member!.id, member_number: member!.memberNumber, firstname: "Lena" });
  });

  it("keeps the row while the webshop is down and delivers it once it is back: nothing acknowledged is lost", async () => {
    const down = `http://127.0.0.1:${await closedPort()}`;
    await setAuthenticationPoint(core.db, box, { chainId: core.chainId, baseUrl: down, integrationToken: shop.token, actor: null }, new Date());
    try {
      const added = await call("POST", "/internal/add-user", asAdmin(), { chain_id: core.chainId, username: "patient@example.com" });
      expect(added.status).toBe(200);
      await worker.tick();
      const [row] = await rowsOf();
      expect(row).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: null });
      expect(row!.lastError).toMatch(/request failed/);
      expect(await customerByEmail("patient@example.com")).toBeUndefined();
    } finally {
      await setAuthenticationPoint(core.db, box, { chainId: core.chainId, baseUrl: shop.url, integrationToken: shop.token, actor: null }, new Date());
    }
    // due again (its back-off is over)
    await core.db.update(outbox).set({ nextAttemptAt: new Date(Date.now() - 1000) });
    await worker.tick();
    expect(await rowsOf()).toEqual([]);
    expect(await customerByEmail("patient@example.com")).toMatchObject({ email: "patient@example.com" });
  });

  it("verify-phone-number sends the verified user in its transaction and wakes the worker; a wrong code sends nothing; the shop ends on the platform's state", async () => {
    await core.db.update(chains).set({ verifyPhoneNumbers: true }).where(eq(chains.id, core.chainId));
    try {
      const added = await call("POST", "/internal/add-user", asAdmin(), {
        chain_id: core.chainId, username: "vera@example.com", first_name: "Vera", country_code: "NL", phone_number: "0612345671",
        address_streetname: "Dorpsstraat", address_housenumber: "1", address_city: "Utrecht", address_postalcode: "3511AA",
      });
      expect(added.status).toBe(200);
      const user = added.body.results.user;
      expect(user.phone_number_status).toBe(2);
      await worker.tick();
      const synced = await customerByEmail("vera@example.com");
      expect(synced).toMatchObject({ user_id: user.id });
      // The shop's row drifts (the name is edited in the shop, its platform time forgotten): the
      // next delivery puts the platform's state back, which shows the verification was sent.
      await shop.exec("UPDATE customer_entity SET firstname = 'Drifted' WHERE entity_id = ?", [synced.entity_id]);
      await shop.exec("UPDATE service_customer_data SET platform_modified_at = NULL WHERE customer_id = ?", [synced.entity_id]);
      // The code went out by SMS only; the test sets a known one in its place.
      await core.db.update(phoneVerifications).set({ codeHash: await hashVerificationCode(TEST_SECRET_KEY, user.id, user.phone_number, "246810") })
        .where(eq(phoneVerifications.userId, user.id));

      const wakesBefore = wakes;
      const wrong = await call("POST", "/internal/verify-phone-number", admin.headers, { user_id: user.id, code: "000000" });
      expect(wrong.body.error.name).toBe("phone_verification_code_invalid");
      expect(await rowsOf()).toEqual([]);
      expect(wakes).toBe(wakesBefore);

      const verified = await call("POST", "/internal/verify-phone-number", admin.headers, { user_id: user.id, code: "246810" });
      expect(verified.status).toBe(200);
      expect(verified.body.results.user.phone_number_status).toBe(3);
      expect(await rowsOf()).toMatchObject([{ kind: AUTHENTICATION_POINT_KIND, targetId: user.id, eventType: USER_CHANGED_EVENT, status: "pending" }]);
      expect(wakes).toBe(wakesBefore + 1);

      // The right code again changes nothing and sends nothing.
      const again = await call("POST", "/internal/verify-phone-number", admin.headers, { user_id: user.id, code: "246810" });
      expect(again.status).toBe(200);
      expect(await rowsOf()).toHaveLength(1);

      expect(await worker.tick()).toBe(1);
      expect(await rowsOf()).toEqual([]);
      const [stored] = await core.db.select().from(users).where(eq(users.id, user.id));
      expect(stored!.phoneNumberStatus).toBe(3);
      const [after] = await shop.rows(
        "SELECT c.firstname, a.telephone, d.user_id, d.last_hash, d.platform_modified_at FROM customer_entity c JOIN customer_address_entity a ON a.entity_id = c.default_billing JOIN service_customer_data d ON d.customer_id = c.entity_id WHERE c.entity_id = ?",
        [synced.entity_id],
      );
      expect(after).toMatchObject({ firstname: "Vera", telephone: user.phone_number, user_id: user.id });
      expect(after.last_hash).toMatch(/^[0-9a-f]{64}$/);
      // the connector holds the verified user's modification time
      expect(after.platform_modified_at).toBeInstanceOf(Date);
      expect(Math.floor(after.platform_modified_at.getTime() / 1000)).toBe(Math.floor(stored!.lastModifiedDate.getTime() / 1000));
    } finally {
      await core.db.update(chains).set({ verifyPhoneNumbers: false }).where(eq(chains.id, core.chainId));
    }
  });

  it("verify-phone-number by the webshop itself (its identity-source client) sends nothing back", async () => {
    await core.db.update(chains).set({ verifyPhoneNumbers: true }).where(eq(chains.id, core.chainId));
    try {
      const byShop = await call("POST", "/internal/add-user", identity, { username: "shop-phone@example.com", country_code: "NL", phone_number: "0612345672" });
      expect(byShop.status).toBe(200);
      const user = byShop.body.results.user;
      await core.db.update(phoneVerifications).set({ codeHash: await hashVerificationCode(TEST_SECRET_KEY, user.id, user.phone_number, "135790") })
        .where(eq(phoneVerifications.userId, user.id));
      const verified = await call("POST", "/internal/verify-phone-number", { Authorization: identity.Authorization! }, { user_id: user.id, code: "135790" });
      expect(verified.status).toBe(200);
      expect(verified.body.results.user.phone_number_status).toBe(3);
      expect(await rowsOf()).toEqual([]);
    } finally {
      await core.db.update(chains).set({ verifyPhoneNumbers: false }).where(eq(chains.id, core.chainId));
    }
  });
});
