/**
 * The per-address limit of POST /rest/V1/service/customer/authenticate (issue 11, "Found under
 * attack" 5; customers/address-throttle.ts): one address cannot lock any number of accounts.
 * The harness trusts 127.0.0.1 as a proxy, so each test speaks from its own X-Forwarded-For address.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADDRESS_LIMIT, LOCK_MS } from "../customers/address-throttle.ts";
import { AUTH_MESSAGES } from "../customers/authenticate.ts";
import { setConfig, startHarness, TEST_TOKEN, type Harness } from "../test-support/harness.ts";

const AUTH = "/rest/V1/service/customer/authenticate";
const UPDATE = "/rest/V1/service/customer/update";
const REFUSED = { message: "Too many failed sign-in attempts from this address. Please wait and try again later." };
let h: Harness;

beforeAll(async () => {
  h = await startHarness("webshop_throttle", { trustedProxies: ["127.0.0.1/8", "::1/128"] });
  await setConfig(h, "customer/password/lockout_failures", "3");
  await setConfig(h, "customer/password/lockout_threshold", "10");
});
afterAll(async () => {
  await h?.close();
});

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

const failuresOf = async (id: number) => (await h.rows("customer_entity", `entity_id = ${id}`))[0].failures_num;

describe("authenticate: per-address limit", () => {
  it(`after ${ADDRESS_LIMIT} failures an address gets 429 with Retry-After, even with a right password; other addresses are not affected`, async () => {
    const from = "198.51.100.1";
    const victims = [];
    for (let i = 0; i < 8; i++) victims.push(await createCustomer(`victim${i}@example.com`));
    // Spraying wrong passwords over many accounts: 3 per account locks an account (lockout_failures).
    const answers = [];
    for (let i = 0; i < ADDRESS_LIMIT; i++) answers.push(await authenticate(from, `victim${i % 8}@example.com`, `guess-${i}`));
    expect(answers.map((a) => a.status)).toEqual(Array(ADDRESS_LIMIT).fill(200));
    const locked = await h.rows("customer_entity", "email LIKE 'victim%' AND lock_expires IS NOT NULL");
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
});
