/**
 * Nobody locks a shopper out of login through the webshop (auth/throttle.ts in front,
 * connector/src/customers/customer-throttle.ts behind), with both services for real: the core API
 * (app.request, each request from the client address in `x-test-peer`) calls a real connector over
 * HTTP, forwarding the shopper's address with its integration token. The connector trusts no
 * proxy. The core API's calls to the connector's authenticate are counted on the way out.
 */
import { openSecretBox } from "@service/shared/secret-box";
import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setAuthenticationPoint } from "../core-api/src/authentication-points/authentication-point-repository.ts";
import { ensureIdentitySourceClient } from "../core-api/src/authentication-points/identity-source-client.ts";
import { createAppHostname } from "../core-api/src/db/seed.ts";
import { apps } from "../core-api/src/db/schema.ts";
import { startCore, TEST_SECRET_KEY, type TestCore } from "./helpers/core.ts";
import { startWebshop, type TestWebshop } from "./helpers/webshop.ts";

const HOST = "throttle.webshop.example.test";
const PASSWORD = "Right-pass1";
let core: TestCore;
let shop: TestWebshop;
let now = new Date("2026-07-01T08:00:00Z");
let authenticateCalls = 0;

beforeAll(async () => {
  core = await startCore({
    clock: () => now,
    clientAddress: (c) => c.req.header("x-test-peer"),
    sleep: async () => undefined,
    fetch: async (input, init) => {
      if (String(input).endsWith("/authenticate")) authenticateCalls++;
      return fetch(input, init);
    },
  });
  shop = await startWebshop(core.chainId);
  const id = await createAppHostname(core.db, core.chainId, HOST);
  await core.db.update(apps).set({ kind: "webshop" }).where(eq(apps.id, id));
  const box = await openSecretBox(TEST_SECRET_KEY);
  await setAuthenticationPoint(core.db, box, { chainId: core.chainId, baseUrl: shop.url, integrationToken: shop.token, actor: null }, new Date());
  await ensureIdentitySourceClient(core.db, core.chainId, new Date());
});
afterAll(async () => {
  await shop?.close();
  await core?.close();
});

let seq = 0;
const newAddress = () => `198.51.100.${++seq}`;
const later = (ms: number) => (now = new Date(now.getTime() + ms));

async function login(username: string, password: string, from: string) {
  const res = await core.request("/auth/login", {
    method: "POST",
    headers: { "content-type": "application/json", "X-Service-App-Hostname": HOST, "x-test-peer": from },
    body: JSON.stringify({ username, password }),
  });
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: (await res.json()) as any };
}

const lockoutRows = (customerId: number, from: string) =>
  shop.rows("SELECT * FROM service_authenticate_lockout WHERE customer_id = ? AND address_hash = ?",
    [customerId, createHash("sha256").update(`address:${from}`).digest("hex")]);

describe("login through the webshop under attack", () => {
  it("50 failures from 5 other addresses: the owner from their own address with the right password gets in at once", async () => {
    await shop.createCustomer({ username: "owner@example.com", password: PASSWORD });
    const home = newAddress();
    expect((await login("owner@example.com", PASSWORD, home)).status).toBe(200);
    const attackers = Array.from({ length: 5 }, newAddress);
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) {
      statuses.push((await login("owner@example.com", `guess-${i}`, attackers[i % 5]!)).status);
      later(1000);
    }
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    const owner = await login("owner@example.com", PASSWORD, home);
    expect(owner.status).toBe(200);
    // Magento's per-account lock took none of it
    const [row] = await shop.rows("SELECT failures_num, lock_expires FROM customer_entity WHERE email = 'owner@example.com'");
    expect(row).toEqual({ failures_num: 0, lock_expires: null });
  });

  it("failures from one address are refused at the core API (429, Retry-After) and never reach the webshop", async () => {
    await shop.createCustomer({ username: "target@example.com", password: PASSWORD });
    const from = newAddress();
    const before = authenticateCalls;
    for (let i = 0; i < 5; i++) expect((await login("target@example.com", `guess-${i}`, from)).status).toBe(401);
    expect(authenticateCalls - before).toBe(5);
    for (let i = 0; i < 5; i++) {
      const refused = await login("target@example.com", i === 4 ? PASSWORD : `more-${i}`, from);
      expect(refused.status).toBe(429);
      expect(refused.body.error).toMatchObject({ code: 903, name: "too_many_login_attempts" });
      expect(Number(refused.retryAfter)).toBeGreaterThan(14 * 60);
    }
    expect(authenticateCalls - before).toBe(5); // the webshop saw none of them
    expect((await login("target@example.com", PASSWORD, newAddress())).status).toBe(200);
  });

  it("failures spread over many addresses get a growing Retry-After at the core API, not a lock", async () => {
    await shop.createCustomer({ username: "spread@example.com", password: PASSWORD });
    const waits: number[] = [];
    const before = authenticateCalls;
    let relayed = 0;
    for (let i = 0; i < 15; i++) {
      const answer = await login("spread@example.com", `guess-${i}`, newAddress());
      if (answer.status === 401) relayed++;
      else {
        expect(answer.status).toBe(429);
        waits.push(Number(answer.retryAfter));
        later(Number(answer.retryAfter) * 1000);
      }
    }
    expect(waits).toEqual([1, 2, 4, 8, 16]); // 5 free failures, then one turn per wait
    expect(relayed).toBe(10);
    expect(authenticateCalls - before).toBe(relayed);
  });

  it("20 failures relayed from 20 shoppers' addresses do not lock the next shopper out at the webshop", async () => {
    await shop.createCustomer({ username: "next@example.com", password: PASSWORD });
    for (let i = 0; i < 20; i++) expect((await login(`stranger${i}@example.com`, "x", newAddress())).status).toBe(401);
    expect((await login("next@example.com", PASSWORD, newAddress())).status).toBe(200);
    const [relayed] = await shop.rows("SELECT COUNT(*) AS n FROM service_authenticate_throttle WHERE address_hash = ?",
      [createHash("sha256").update("address:127.0.0.1").digest("hex")]);
    expect(relayed.n).toBe(0); // nothing counted against the core API's own address
  });

  it("the connector sees the shopper's address: its lockout counts per customer and that address", async () => {
    await shop.exec(
      "INSERT INTO core_config_data (scope, scope_id, path, value) VALUES ('default', 0, 'customer/password/lockout_failures', '3') ON DUPLICATE KEY UPDATE value = VALUES(value)",
    );
    try {
      const customerId = await shop.createCustomer({ username: "pair@example.com", password: PASSWORD });
      const attacker = newAddress();
      for (let i = 0; i < 3; i++) expect((await login("pair@example.com", `guess-${i}`, attacker)).status).toBe(401);
      const [pair] = await lockoutRows(customerId, attacker);
      expect(pair).toMatchObject({ failures: 3, locked_until: expect.any(Date) });
      expect(await lockoutRows(customerId, "127.0.0.1")).toEqual([]);
      // the webshop refuses the attacker's address even with the right password, like a wrong one
      const refused = await login("pair@example.com", PASSWORD, attacker);
      expect(refused.status).toBe(401);
      expect(refused.body.error).toMatchObject({ code: 6, name: "no_valid_session", description: "Invalid username or password." });
      // and lets the owner in from theirs
      expect((await login("pair@example.com", PASSWORD, newAddress())).status).toBe(200);
    } finally {
      await shop.exec("DELETE FROM core_config_data WHERE path = 'customer/password/lockout_failures'");
    }
  });
});
