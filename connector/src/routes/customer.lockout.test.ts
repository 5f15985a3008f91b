/**
 * The webshop's own lockout of POST /rest/V1/service/customer/authenticate, per customer and
 * client address (customers/customer-throttle.ts), and what its answers tell (nothing about which
 * accounts exist): over HTTP against a real database, with the password check counted. The
 * harness trusts no proxy: the client address is the one the platform forwards with its token.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ADDRESS_LIMIT, addressVerdict, countAddressAttempt, WINDOW_MS } from "../customers/address-throttle.ts";
import { AUTH_MESSAGES, type PasswordVerifier } from "../customers/authenticate.ts";
import { beginCustomerAttempt, customerAttemptSucceeded } from "../customers/customer-throttle.ts";
import { verifyMagentoPassword } from "../customers/magento-password.ts";
import { isFreshPair, setConfig, startHarness, TEST_TOKEN, type Harness } from "../test-support/harness.ts";

const AUTH = "/rest/V1/service/customer/authenticate";
const UPDATE = "/rest/V1/service/customer/update";
const INVALID = { authenticated: false, customer_id: null, message: AUTH_MESSAGES.invalid, website_code: null, store_code: null };
let h: Harness;
/** the stored hash each password check was made against, in order */
const checked: Array<string | null | undefined> = [];
const verifyPassword: PasswordVerifier = async (password, stored) => {
  checked.push(stored);
  return verifyMagentoPassword(password, stored);
};

beforeAll(async () => {
  h = await startHarness("webshop_lockout", { verifyPassword });
  await setConfig(h, "customer/password/lockout_failures", "3");
  await setConfig(h, "customer/password/lockout_threshold", "5");
});
afterAll(async () => {
  await h?.close();
});
beforeEach(() => void (checked.length = 0));

/** An authenticate call the platform relays for client address `from`. */
async function authenticate(from: string, email: string, password: string, token: string | null = TEST_TOKEN) {
  const headers: Record<string, string> = { "content-type": "application/json", "x-forwarded-for": from };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${h.url}${AUTH}`, { method: "POST", headers, body: JSON.stringify({ email, password }) });
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: (await res.json()) as any };
}

async function createCustomer(email: string): Promise<{ id: number; hash: string }> {
  const res = await h.call("POST", UPDATE, { user_info: { username: email, password: "Right-pass1" }, create_if_not_exists: true });
  expect(res.status).toBe(200);
  const [row] = await h.rows("customer_entity", `entity_id = ${res.body.id}`);
  return { id: res.body.id, hash: row.password_hash };
}

const addressHash = (from: string) => createHash("sha256").update(`address:${from}`).digest("hex");
const pairOf = async (customerId: number, from: string) =>
  (await h.rows("service_authenticate_lockout", `customer_id = ${customerId} AND address_hash = '${addressHash(from)}'`))[0];

describe("the lockout counts per customer and client address", () => {
  it("locks the address that failed lockout_failures times, even for the right password, and only that one", async () => {
    const ann = await createCustomer("ann@example.com");
    const attacker = "203.0.113.1";
    for (let i = 0; i < 3; i++) expect((await authenticate(attacker, "ann@example.com", `guess-${i}`)).body).toEqual(INVALID);
    expect(await pairOf(ann.id, attacker)).toMatchObject({ failures: 3, locked_until: new Date(h.now().getTime() + 5 * 60_000) });
    // from the attacker's address even the right password is refused, with the wrong password's answer
    expect((await authenticate(attacker, "ann@example.com", "Right-pass1")).body).toEqual(INVALID);
    // the owner from their own address gets in at once
    expect((await authenticate("192.0.2.10", "ann@example.com", "Right-pass1")).body).toMatchObject({ authenticated: true, customer_id: ann.id });
    // Magento's per-account columns took none of it
    expect((await h.rows("customer_entity", `entity_id = ${ann.id}`))[0]).toMatchObject({ failures_num: 0, lock_expires: null });
    h.advance(5 * 60_000 + 1);
    expect((await authenticate(attacker, "ann@example.com", "Right-pass1")).body.authenticated).toBe(true);
    // A success starts the pair afresh: nothing counted, no lock (or the row already pruned).
    expect(isFreshPair(await pairOf(ann.id, attacker))).toBe(true);
  });

  it("after a success the pair counts as new: lockout_failures more failures lock it, no fewer, in a window from the first of them", async () => {
    await createCustomer("again@example.com");
    const from = "203.0.113.50";
    for (let i = 0; i < 2; i++) expect((await authenticate(from, "again@example.com", `guess-${i}`)).body).toEqual(INVALID);
    h.advance(1000);
    expect((await authenticate(from, "again@example.com", "Right-pass1")).body.authenticated).toBe(true);
    const id = (await h.rows("customer_entity", "email = 'again@example.com'"))[0].entity_id;
    expect(isFreshPair(await pairOf(id, from))).toBe(true);
    // The window (5 minutes here) starts at the next attempt, not at the success.
    h.advance(4 * 60_000);
    for (let i = 0; i < 2; i++) expect((await authenticate(from, "again@example.com", `again-${i}`)).body).toEqual(INVALID);
    // two counted since the success, none before it
    expect(await pairOf(id, from)).toMatchObject({ failures: 2, locked_until: null });
    h.advance(2 * 60_000);
    expect((await authenticate(from, "again@example.com", "again-2")).body).toEqual(INVALID);
    // the third failure in that window locked the pair: the right password is refused
    expect((await authenticate(from, "again@example.com", "Right-pass1")).body).toEqual(INVALID);
    expect(await pairOf(id, from)).toMatchObject({ failures: 3, locked_until: expect.any(Date) });
  });

  it("a success settles the pair and the address in one statement, each also when the other's row is gone", async () => {
    const db = h.database.db;
    const { id } = await createCustomer("settle@example.com");
    const policy = { lockoutFailures: 3, lockoutThresholdMinutes: 5 };
    const begin = async (from: string) => {
      const hash = await countAddressAttempt(db, from, h.now());
      const [counter] = await h.rows("service_authenticate_throttle", `address_hash = '${hash}'`);
      const address = await addressVerdict(db, hash, { addressHash: hash, failures: counter.failures, pending: counter.pending, windowStartedAt: counter.window_started_at, lockedUntil: counter.locked_until }, h.now());
      if (address.refused) throw new Error("refused");
      const { attempt } = await beginCustomerAttempt(db, id, from, policy, h.now());
      return { address, attempt };
    };
    const counterOf = async (from: string) => (await h.rows("service_authenticate_throttle", `address_hash = '${addressHash(from)}'`))[0];

    // Both rows there: the pair reset, the address no longer pending.
    const both = await begin("192.0.2.61");
    expect(await pairOf(id, "192.0.2.61")).toMatchObject({ failures: 1 });
    await customerAttemptSucceeded(db, both.attempt, both.address);
    expect(await pairOf(id, "192.0.2.61")).toMatchObject({ failures: 0, locked_until: null });
    expect(await counterOf("192.0.2.61")).toMatchObject({ failures: 0, pending: 0 });

    // The pair's row pruned meanwhile: the address still settles, and no pair is made.
    const noPair = await begin("192.0.2.62");
    await h.exec(`DELETE FROM service_authenticate_lockout WHERE customer_id = ${id} AND address_hash = '${addressHash("192.0.2.62")}'`);
    await customerAttemptSucceeded(db, noPair.attempt, noPair.address);
    expect(await counterOf("192.0.2.62")).toMatchObject({ pending: 0 });
    expect(await pairOf(id, "192.0.2.62")).toBeUndefined();

    // The address's window started again meanwhile: the pair still resets, the new window keeps its count.
    const late = await begin("192.0.2.63");
    h.advance(WINDOW_MS + 1);
    await countAddressAttempt(db, "192.0.2.63", h.now());
    await customerAttemptSucceeded(db, late.attempt, late.address);
    expect(await pairOf(id, "192.0.2.63")).toMatchObject({ failures: 0, locked_until: null });
    expect(await counterOf("192.0.2.63")).toMatchObject({ pending: 1, window_started_at: h.now() });

    // No pair counted (lockout disabled): only the address settles.
    const disabled = await begin("192.0.2.64");
    await customerAttemptSucceeded(db, null, disabled.address);
    expect(await counterOf("192.0.2.64")).toMatchObject({ pending: 0 });
    expect(await pairOf(id, "192.0.2.64")).toMatchObject({ failures: 1 });
  });

  it("50 failures from 5 other addresses: the owner from their address with the right password gets in", async () => {
    const owner = await createCustomer("owner@example.com");
    for (let i = 0; i < 50; i++) {
      const answer = await authenticate(`203.0.113.${20 + (i % 5)}`, "owner@example.com", `guess-${i}`);
      expect(answer).toMatchObject({ status: 200, body: INVALID });
    }
    for (let a = 0; a < 5; a++) expect((await pairOf(owner.id, `203.0.113.${20 + a}`)).locked_until).not.toBeNull();
    expect((await authenticate("192.0.2.20", "owner@example.com", "Right-pass1")).body).toMatchObject({ authenticated: true, customer_id: owner.id });
  });

  it("a lock written by the shop's own login (Magento's lock_expires) does not refuse, and a success clears it", async () => {
    const shop = await createCustomer("storefront@example.com");
    await h.exec("UPDATE customer_entity SET failures_num = 10, first_failure = ?, lock_expires = ? WHERE entity_id = ?",
      [h.now(), new Date(h.now().getTime() + 3_600_000), shop.id]);
    expect((await authenticate("192.0.2.30", "storefront@example.com", "Right-pass1")).body.authenticated).toBe(true);
    expect((await h.rows("customer_entity", `entity_id = ${shop.id}`))[0]).toMatchObject({ failures_num: 0, first_failure: null, lock_expires: null });
  });

  it("a parallel burst from one address gets at most lockout_failures checks of the customer's password", async () => {
    const burst = await createCustomer("burst@example.com");
    const from = "203.0.113.40";
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => authenticate(from, "burst@example.com", `guess-${i}`)));
    for (const a of answers) expect(a).toMatchObject({ status: 200, body: INVALID });
    expect(checked).toHaveLength(12); // one password check each
    expect(checked.filter((stored) => stored === burst.hash).length).toBeLessThanOrEqual(3);
    expect((await authenticate(from, "burst@example.com", "Right-pass1")).body).toEqual(INVALID);
    expect((await authenticate("192.0.2.40", "burst@example.com", "Right-pass1")).body.authenticated).toBe(true);
  });
});

describe("authenticate does not tell which accounts exist", () => {
  it("answers an unknown email, a wrong password and a locked account alike, after one password check each", async () => {
    const eve = await createCustomer("eve@example.com");
    const from = "203.0.113.50";
    for (let i = 0; i < 3; i++) await authenticate(from, "eve@example.com", `guess-${i}`);
    checked.length = 0;

    const unknown = await authenticate(from, "nobody@example.com", "Right-pass1");
    const afterUnknown = checked.splice(0);
    const locked = await authenticate(from, "eve@example.com", "Right-pass1");
    const afterLocked = checked.splice(0);
    const wrong = await authenticate("192.0.2.50", "eve@example.com", "wrong");
    const afterWrong = checked.splice(0);

    for (const answer of [unknown, locked, wrong]) expect(answer).toEqual({ status: 200, retryAfter: null, body: INVALID });
    // one check each: against the account's hash when there is one to check, else a dummy hash in the current format
    expect(afterWrong).toEqual([eve.hash]);
    expect(afterUnknown).toHaveLength(1);
    expect(afterLocked).toEqual(afterUnknown);
    expect(afterUnknown[0]).not.toBe(eve.hash);
    expect(afterUnknown[0]).toMatch(/^[0-9a-f]{64}:[A-Za-z0-9]{32}:3_32_2_67108864$/);
  });
});

describe("the client address is the one the platform forwards", () => {
  it("with the integration token, X-Forwarded-For is believed without TRUSTED_PROXIES: the per-address limit counts the shopper", async () => {
    const shopper = "198.51.100.60";
    for (let i = 0; i < ADDRESS_LIMIT; i++) expect((await authenticate(shopper, `spray${i}@example.com`, "x")).status).toBe(200);
    expect((await authenticate(shopper, "spray@example.com", "x")).status).toBe(429);
    // the same socket (127.0.0.1) relaying another shopper is not held back
    expect((await authenticate("198.51.100.61", "spray@example.com", "x")).status).toBe(200);
    const [row] = await h.rows("service_authenticate_throttle", `address_hash = '${addressHash(shopper)}'`);
    expect(row).toMatchObject({ failures: ADDRESS_LIMIT });
    expect(await h.rows("service_authenticate_throttle", `address_hash = '${addressHash("127.0.0.1")}'`)).toEqual([]);
  });

  it("without the integration token nothing is believed, or counted", async () => {
    const forged = "198.51.100.70";
    expect((await authenticate(forged, "ann@example.com", "x", null)).status).toBe(401);
    expect((await authenticate(forged, "ann@example.com", "x", "not-the-integration-token-000000")).status).toBe(401);
    expect(await h.rows("service_authenticate_throttle", `address_hash = '${addressHash(forged)}'`)).toEqual([]);
  });
});
