/**
 * The per-address limit of POST /rest/V1/service/customer/authenticate
 * (customers/address-throttle.ts): one address cannot lock any number of accounts. The harness
 * trusts 127.0.0.1 as a proxy, so each test speaks from its own X-Forwarded-For address.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import {
  ADDRESS_LIMIT, addressAttemptFailed, addressVerdict, countAddressAttempt, LOCK_MS, type AddressVerdict, WINDOW_MS,
} from "../customers/address-throttle.ts";
import type { ConnectorQueryable } from "../db/client.ts";
import { serviceAuthenticateThrottle } from "../db/schema.ts";
import { AUTH_MESSAGES } from "../customers/authenticate.ts";
import { customerAttemptSucceeded } from "../customers/customer-throttle.ts";
import { setConfig, startHarness, TEST_TOKEN, type Harness } from "../test-support/harness.ts";

const AUTH = "/rest/V1/service/customer/authenticate";
const UPDATE = "/rest/V1/service/customer/update";
const REFUSED = { message: "Too many failed sign-in attempts from this address. Please wait and try again later." };
let h: Harness;

beforeAll(async () => {
  // A generous request deadline: the bursts below check up to 30 passwords at once, which on a
  // loaded machine can outlast the default 5 s (503 904); the deadline is not what this file tests.
  h = await startHarness("webshop_throttle", { trustedProxies: ["127.0.0.1/8", "::1/128"], requestDeadlineMs: 30_000 });
  await setConfig(h, "customer/password/lockout_failures", "3");
  await setConfig(h, "customer/password/lockout_threshold", "10");
});
afterAll(async () => {
  await h?.close();
});

/** An attempt from `address` counted, its counter read back and judged, as authenticate does. */
async function beginAddressAttempt(db: ConnectorQueryable, address: string | null, now: Date): Promise<AddressVerdict> {
  const addressHash = await countAddressAttempt(db, address, now);
  const [row] = await db.select().from(serviceAuthenticateThrottle).where(eq(serviceAuthenticateThrottle.addressHash, addressHash));
  return addressVerdict(db, addressHash, row ?? null, now);
}

/** An authenticate call from client address `from`: status, Retry-After and body. */
async function authenticate(from: string, email: string, password: string) {
  const res = await fetch(`${h.url}${AUTH}`, {
    method: "POST",
    headers: { authorization: `Bearer ${TEST_TOKEN}`, "content-type": "application/json", "x-forwarded-for": from },
    body: JSON.stringify({ email, password }),
  });
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: (await res.json()) as any };
}

async function createCustomer(email: string): Promise<number> {
  const res = await h.call("POST", UPDATE, { user_info: { username: email, password: "Right-pass1" }, create_if_not_exists: true });
  expect(res.status).toBe(200);
  return res.body.id;
}

/** The customer's failures counted from any address (the lockout counts per customer and address). */
const failuresOf = async (id: number) => (await h.rows("service_authenticate_lockout", `customer_id = ${id}`)).reduce((n, r) => n + r.failures, 0);

describe("authenticate: per-address limit", () => {
  it(`after ${ADDRESS_LIMIT} failures an address gets 429 with Retry-After, even with a right password; other addresses are not affected`, async () => {
    const from = "198.51.100.1";
    const victims = [];
    for (let i = 0; i < 8; i++) victims.push(await createCustomer(`victim${i}@example.com`));
    // Spraying wrong passwords over many accounts: 3 per account locks an account (lockout_failures).
    const answers = [];
    for (let i = 0; i < ADDRESS_LIMIT; i++) answers.push(await authenticate(from, `victim${i % 8}@example.com`, `guess-${i}`));
    expect(answers.map((a) => a.status)).toEqual(Array(ADDRESS_LIMIT).fill(200));
    // The victims' locks only: other tests of the file lock customers of their own, in any order.
    const locked = await h.rows("service_authenticate_lockout", `locked_until IS NOT NULL AND customer_id IN (${victims.join(", ")})`);
    expect(locked.length).toBeLessThanOrEqual(Math.floor(ADDRESS_LIMIT / 3));

    const refused = await authenticate(from, "victim7@example.com", "Right-pass1");
    expect(refused).toEqual({ status: 429, retryAfter: String(LOCK_MS / 1000), body: REFUSED });
    // The refused attempt looked at no account: the victim's failures are what the 20 left.
    const before = await failuresOf(victims[7]!);
    expect((await authenticate(from, "victim7@example.com", "another-guess")).status).toBe(429);
    expect(await failuresOf(victims[7]!)).toBe(before);

    // Another address authenticates a customer the sprayer did not lock.
    const other = await createCustomer("bystander@example.com");
    expect((await authenticate("198.51.100.2", "bystander@example.com", "Right-pass1")).body).toMatchObject({ authenticated: true, customer_id: other });

    // Retry-After counts down with the clock; after the lock the address may try again.
    h.advance(60_000);
    expect((await authenticate(from, "bystander@example.com", "Right-pass1")).retryAfter).toBe(String(LOCK_MS / 1000 - 60));
    h.advance(LOCK_MS);
    expect((await authenticate(from, "bystander@example.com", "Right-pass1")).body.authenticated).toBe(true);
  });

  it("a success takes back only its own attempt: the address's failures still add up", async () => {
    const from = "198.51.100.3";
    await createCustomer("honest@example.com");
    for (let i = 0; i < ADDRESS_LIMIT - 1; i++) expect((await authenticate(from, `nobody${i}@example.com`, "x")).status).toBe(200);
    expect((await authenticate(from, "honest@example.com", "Right-pass1")).body.authenticated).toBe(true);
    const last = await authenticate(from, "nobody@example.com", "x");
    expect(last.body).toMatchObject({ authenticated: false, message: AUTH_MESSAGES.invalid });
    expect((await authenticate(from, "honest@example.com", "Right-pass1")).status).toBe(429);
  });

  it(`a parallel burst gets at most ${ADDRESS_LIMIT} password checks`, async () => {
    const from = "198.51.100.4";
    const burst = await Promise.all(Array.from({ length: ADDRESS_LIMIT + 10 }, (_, i) => authenticate(from, `burst${i}@example.com`, "x")));
    const checked = burst.filter((a) => a.status === 200);
    expect(checked.length).toBeLessThanOrEqual(ADDRESS_LIMIT);
    expect(burst.filter((a) => a.status === 429)).toHaveLength(burst.length - checked.length);
    for (const a of checked) expect(a.body.message).toBe(AUTH_MESSAGES.invalid);
  });

  it("an IPv4-mapped IPv6 address counts as its IPv4 address", async () => {
    for (let i = 0; i < ADDRESS_LIMIT; i++) expect((await authenticate("198.51.100.5", `mapped${i}@example.com`, "x")).status).toBe(200);
    expect((await authenticate("::ffff:198.51.100.5", "mapped@example.com", "x")).status).toBe(429);
  });

  it("an IPv6 address counts once however it is spelled (upper case, zeros written out, a port)", async () => {
    const spellings = ["2001:DB8::55", "2001:db8:0:0:0:0:0:55", "[2001:0db8::0055]:443", "2001:db8::55"];
    for (let i = 0; i < ADDRESS_LIMIT; i++) expect((await authenticate(spellings[i % spellings.length]!, `spelled${i}@example.com`, "x")).status).toBe(200);
    for (const from of spellings) expect((await authenticate(from, "spelled@example.com", "x")).status, from).toBe(429);
    expect((await authenticate("2001:db8::56", "spelled@example.com", "x")).status).toBe(200);
  });
});

/** The throttle row of client address `from` (plain SQL). */
const counterOf = async (from: string) =>
  (await h.rows("service_authenticate_throttle", `address_hash = '${createHash("sha256").update(`address:${from}`).digest("hex")}'`))[0];

describe("authenticate: per-address counting", () => {
  it("concurrent attempts are counted exactly: every failure once, no success, nothing left pending", async () => {
    const from = "198.51.100.20";
    await createCustomer("counted@example.com");
    await createCustomer("counted-right@example.com");
    // The right passwords on another customer, 3 at a time: the lockout from one address (3 here)
    // counts attempts in flight, as the address limit does.
    const wrong = Array.from({ length: 12 }, (_, i) => authenticate(from, "counted@example.com", `wrong-${i}`));
    const right = Array.from({ length: 3 }, () => authenticate(from, "counted-right@example.com", "Right-pass1"));
    const answers = await Promise.all([...wrong, ...right]);
    expect(answers.map((a) => a.status)).toEqual(Array(15).fill(200));
    expect(answers.filter((a) => a.body.authenticated === false)).toHaveLength(12);
    expect(await counterOf(from)).toMatchObject({ failures: 12, pending: 0, locked_until: null });

    // The customer's lockout from this address (3 failures) answers like a wrong password from now on: still failures here.
    for (let i = 0; i < ADDRESS_LIMIT - 13; i++) expect((await authenticate(from, `nobody${i}@example.com`, "x")).status).toBe(200);
    expect(await counterOf(from)).toMatchObject({ failures: ADDRESS_LIMIT - 1, pending: 0, locked_until: null });
    // The limit-th failure is answered, and locks the address.
    expect((await authenticate(from, "nobody@example.com", "x")).body).toMatchObject({ authenticated: false, message: AUTH_MESSAGES.invalid });
    expect(await counterOf(from)).toMatchObject({ failures: ADDRESS_LIMIT, pending: 0, locked_until: new Date(h.now().getTime() + LOCK_MS) });
    expect((await authenticate(from, "nobody@example.com", "x")).status).toBe(429);
  });

  it(`only failures lock: an attempt still in flight is not one, however it ends`, async () => {
    const db = h.database.db;
    const from = "198.51.100.21";
    const begin = async () => {
      const verdict: AddressVerdict = await beginAddressAttempt(db, from, h.now());
      if (verdict.refused) throw new Error("refused");
      return verdict;
    };
    for (let i = 0; i < ADDRESS_LIMIT - 2; i++) await addressAttemptFailed(db, await begin(), h.now());
    // A success in flight while another attempt fails: ADDRESS_LIMIT - 1 failures, no lock.
    const inFlight = await begin();
    await addressAttemptFailed(db, await begin(), h.now());
    expect(await counterOf(from)).toMatchObject({ failures: ADDRESS_LIMIT - 1, pending: 1, locked_until: null });
    // With that one still pending, one more would pass the limit: refused, and not counted.
    await expect(beginAddressAttempt(db, from, h.now())).resolves.toEqual({ refused: true, retryAfterMs: LOCK_MS });
    await customerAttemptSucceeded(db, null, inFlight);
    expect(await counterOf(from)).toMatchObject({ failures: ADDRESS_LIMIT - 1, pending: 0, locked_until: null });
    // The success did not count: the next failure is the limit-th and locks.
    await addressAttemptFailed(db, await begin(), h.now());
    expect(await counterOf(from)).toMatchObject({ failures: ADDRESS_LIMIT, pending: 0 });
    await expect(beginAddressAttempt(db, from, h.now())).resolves.toEqual({ refused: true, retryAfterMs: LOCK_MS });
    // The lock and the window end together: the address starts again from nothing.
    h.advance(LOCK_MS + 1);
    await begin();
    expect(await counterOf(from)).toMatchObject({ failures: 0, pending: 1, locked_until: expect.any(Date) });
  });

  it("an attempt that outlives its window changes nothing in the next one", async () => {
    const db = h.database.db;
    const from = "198.51.100.23";
    const begin = async () => {
      const verdict = await beginAddressAttempt(db, from, h.now());
      if (verdict.refused) throw new Error("refused");
      return verdict;
    };
    const slowFailure = await begin();
    const slowSuccess = await begin();
    await addressAttemptFailed(db, await begin(), h.now());
    expect(await counterOf(from)).toMatchObject({ failures: 1, pending: 2 });
    // The window ends while two attempts are still being checked; a new one starts with one attempt.
    h.advance(WINDOW_MS + 1);
    const fresh = await begin();
    expect(fresh.windowStartedAt).toEqual(h.now());
    expect(await counterOf(from)).toMatchObject({ failures: 0, pending: 1, window_started_at: h.now() });
    // The old attempts settle: the new window keeps its own count.
    await addressAttemptFailed(db, slowFailure, h.now());
    await customerAttemptSucceeded(db, null, slowSuccess);
    expect(await counterOf(from)).toMatchObject({ failures: 0, pending: 1 });
    await addressAttemptFailed(db, fresh, h.now());
    expect(await counterOf(from)).toMatchObject({ failures: 1, pending: 0 });
  });

  it("an attempt whose check fails with an error counts as nothing", async () => {
    const from = "198.51.100.22";
    await createCustomer("erring@example.com");
    expect((await authenticate(from, "erring@example.com", "wrong")).status).toBe(200);
    await h.exec("RENAME TABLE store_website TO store_website_away");
    try {
      expect((await authenticate(from, "erring@example.com", "Right-pass1")).status).toBe(500);
    } finally {
      await h.exec("RENAME TABLE store_website_away TO store_website");
    }
    expect(await counterOf(from)).toMatchObject({ failures: 1, pending: 0 });
  });
});
