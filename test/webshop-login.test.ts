/**
 * Shopper login through the webshop (handbook, "Sync between the webshop and the platform"), with
 * both services for real: the core API (through app.request) calls a real connector over HTTP on
 * its own throwaway customer store. Nothing between the two is faked; a webshop that is down is a
 * closed port, one that hangs is a socket that never answers.
 */
import { openSecretBox } from "@service/shared/secret-box";
import { createHash } from "node:crypto";
import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setAuthenticationPoint } from "../core-api/src/authentication-points/authentication-point-repository.ts";
import { ensureIdentitySourceClient } from "../core-api/src/authentication-points/identity-source-client.ts";
import { sha256Hex } from "../core-api/src/crypto/secrets.ts";
import { createAppHostname, createShopper } from "../core-api/src/db/seed.ts";
import { apps, authenticationPoints, loginThrottle, sessions, users } from "../core-api/src/db/schema.ts";
import { startCore, TEST_SECRET_KEY, type TestCore } from "./helpers/core.ts";
import { startWebshop, type TestWebshop } from "./helpers/webshop.ts";

const HOST = "webshop.login.example.test";
const PASSWORD = "Right-pass1";
const REFUSED = { code: 6, name: "no_valid_session", description: "Invalid username or password." };

let core: TestCore;
let shop: TestWebshop;

/** Points chain `chainId` of `c` at the connector `baseUrl` with `token`. */
async function wire(c: TestCore, chainId: number, baseUrl: string, token: string): Promise<void> {
  const box = await openSecretBox(TEST_SECRET_KEY);
  const set = await setAuthenticationPoint(c.db, box, { chainId, baseUrl, integrationToken: token, actor: null }, new Date());
  if (!set) throw new Error("no chain to wire");
  await ensureIdentitySourceClient(c.db, chainId, new Date());
}

async function addWebshopApp(c: TestCore, chainId: number, hostname: string): Promise<void> {
  const id = await createAppHostname(c.db, chainId, hostname);
  await c.db.update(apps).set({ kind: "webshop" }).where(eq(apps.id, id));
}

function login(c: TestCore, username: string, password: string, hostname = HOST) {
  return c.request("/auth/login", {
    method: "POST",
    headers: { "content-type": "application/json", "X-Service-App-Hostname": hostname, "X-Service-API-version": "1.6.8" },
    body: JSON.stringify({ username, password }),
  });
}

async function loginJson(c: TestCore, username: string, password: string, hostname = HOST) {
  const res = await login(c, username, password, hostname);
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: (await res.json()) as any };
}

const usersOf = (c: TestCore, chainId: number) => c.db.select().from(users).where(eq(users.chainId, chainId)).orderBy(users.id);

beforeAll(async () => {
  core = await startCore();
  shop = await startWebshop(core.chainId);
  await addWebshopApp(core, core.chainId, HOST);
  await wire(core, core.chainId, shop.url, shop.token);
});
afterAll(async () => {
  await shop?.close();
  await core?.close();
});

describe("shopper login through the webshop", () => {
  it("creates the member from the webshop's user info on the first login, opens a shopper session, and finds it by the customer id afterwards", async () => {
    const customerId = await shop.createCustomer({
      username: "ann@example.com", password: PASSWORD, first_name: "Ann", last_name: "Jansen", birthday: "1990-04-02",
      gender: "female", country_code: "NL", address_streetname: "Damrak", address_housenumber: "1", address_postalcode: "1012 LG",
      address_towncity: "Amsterdam", phone_number: "0612345678",
    });
    const first = await loginJson(core, "ann@example.com", PASSWORD);
    expect(first.status).toBe(200);
    // one member made, of this customer (other tests' members may be there)
    const all = await usersOf(core, core.chainId);
    const members = all.filter((u) => u.username === "ann@example.com" || u.authenticationPointIdentifier === String(customerId));
    expect(members).toHaveLength(1);
    const member = members[0]!;
    expect(member).toMatchObject({
      username: "ann@example.com",
      authenticationPointIdentifier: String(customerId),
      signupChannel: "platform",
      firstName: "Ann",
      lastName: "Jansen",
      birthday: "1990-04-02",
      gender: "female",
      countryCode: "NL",
      addressPostalcode: "1012 LG",
      addressTowncity: "Amsterdam",
      passwordHash: null,
      active: true,
    });
    expect(member.phoneNumber).toBe("+31612345678");
    expect(member.referralCode).toMatch(/^[0-9A-Z]{8}$/);
    expect(first.body.results.session_info.session_user_id).toBe(member.id);

    // The session is the member's, of this chain, and serves the member's own calls through the app.
    // found by its key: an admin's session may carry the same number as user id
    const [session] = await core.db.select().from(sessions).where(eq(sessions.keyHash, sha256Hex(first.body.results.session_info.session_key)));
    expect(session).toMatchObject({ kind: "end_user", userId: member.id, chainId: core.chainId });
    const me = await core.json("/internal/get-user", {
      headers: {
        "X-Service-Session-User-ID": String(member.id),
        "X-Service-Session-Key": first.body.results.session_info.session_key,
        "X-Service-App-Hostname": HOST,
      },
    });
    expect(me.status).toBe(200);
    expect(me.body.results.user).toMatchObject({ id: member.id, username: "ann@example.com", authentication_point_identifier: String(customerId), signup_channel: "platform" });

    // Later logins find the member by the customer id: no second member, nothing changed.
    const again = await loginJson(core, "ANN@example.com", PASSWORD);
    expect(again.status).toBe(200);
    expect(again.body.results.session_info.session_user_id).toBe(member.id);
    expect(await usersOf(core, core.chainId)).toEqual(all);
  });

  it("refuses a wrong password, an unknown email, a locked and an inactive webshop account with one answer, creating nothing", async () => {
    await shop.createCustomer({ username: "mistyped@example.com", password: PASSWORD });
    const lockedId = await shop.createCustomer({ username: "locked@example.com", password: PASSWORD });
    await shop.createCustomer({ username: "inactive@example.com", password: PASSWORD });
    // Locked at the webshop from the address the core API relays this test's logins from (it knows
    // no client address here, so the connector counts its own: 127.0.0.1).
    const relayed = createHash("sha256").update("address:127.0.0.1").digest("hex");
    await shop.exec(
      "INSERT INTO service_authenticate_lockout (customer_id, address_hash, failures, window_started_at, locked_until) VALUES (?, ?, 10, UTC_TIMESTAMP(3), DATE_ADD(UTC_TIMESTAMP(3), INTERVAL 1 DAY))",
      [lockedId, relayed],
    );
    await shop.exec("UPDATE customer_entity SET is_active = 0 WHERE email = ?", ["inactive@example.com"]);
    const before = await usersOf(core, core.chainId);

    const answers = [
      await loginJson(core, "mistyped@example.com", "Wrong-pass1"),
      await loginJson(core, "nobody@example.com", PASSWORD),
      await loginJson(core, "locked@example.com", PASSWORD),
      await loginJson(core, "inactive@example.com", PASSWORD),
    ];
    for (const a of answers) {
      expect(a.status).toBe(401);
      expect(a.body.error).toEqual(REFUSED);
    }
    expect(answers.map((a) => JSON.stringify(a.body)).every((b) => b === JSON.stringify(answers[0]!.body))).toBe(true);
    expect(await usersOf(core, core.chainId)).toEqual(before);
    // The right password of a locked account does not unlock it at the webshop either.
    const [locked] = await shop.rows("SELECT failures, locked_until FROM service_authenticate_lockout WHERE customer_id = ?", [lockedId]);
    expect(locked).toMatchObject({ failures: 10, locked_until: expect.any(Date) });
  });

  it("refuses a member the platform has deactivated like a wrong password", async () => {
    await shop.createCustomer({ username: "gone@example.com", password: PASSWORD });
    expect((await loginJson(core, "gone@example.com", PASSWORD)).status).toBe(200);
    await core.db.update(users).set({ active: false }).where(eq(users.username, "gone@example.com"));
    const res = await loginJson(core, "gone@example.com", PASSWORD);
    expect(res.status).toBe(401);
    expect(res.body.error).toEqual(REFUSED);
  });

  it("concurrent first logins of one customer create one member, and every one gets a session of it", async () => {
    const customerId = await shop.createCustomer({ username: "rush@example.com", password: PASSWORD, first_name: "Rush" });
    // Four at once: the login limit lets at most five attempts of one account be checked at a time.
    const results = await Promise.all(Array.from({ length: 4 }, () => loginJson(core, "rush@example.com", PASSWORD)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const members = await core.db.select().from(users).where(and(eq(users.chainId, core.chainId), eq(users.authenticationPointIdentifier, String(customerId))));
    expect(members).toHaveLength(1);
    expect(new Set(results.map((r) => r.body.results.session_info.session_user_id))).toEqual(new Set([members[0]!.id]));
    expect(await core.db.select().from(users).where(eq(users.username, "rush@example.com"))).toHaveLength(1);
  });

  it("links a member with the customer's email that has no webshop customer yet, and refuses one linked to another customer", async () => {
    const memberId = await createShopper(core.db, { chainId: core.chainId, username: "known@example.com", password: "platform-pass", firstName: "Known" });
    const customerId = await shop.createCustomer({ username: "known@example.com", password: PASSWORD, first_name: "Other name" });
    const res = await loginJson(core, "known@example.com", PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body.results.session_info.session_user_id).toBe(memberId);
    const [linked] = await core.db.select().from(users).where(eq(users.id, memberId));
    // linked, nothing else taken over: login is not the sync
    expect(linked).toMatchObject({ authenticationPointIdentifier: String(customerId), firstName: "Known", signupChannel: null });

    // The member now belongs to that customer; another customer with the same email (after the
    // first changed theirs in the shop) cannot take it over.
    await shop.exec("UPDATE customer_entity SET email = 'renamed@example.com' WHERE entity_id = ?", [customerId]);
    await shop.createCustomer({ username: "known@example.com", password: PASSWORD });
    const before = await usersOf(core, core.chainId);
    const clash = await loginJson(core, "known@example.com", PASSWORD);
    expect(clash.status).toBe(400);
    expect(clash.body.error.name).toBe("user_already_exists");
    expect(await usersOf(core, core.chainId)).toEqual(before);
    expect(await core.db.select().from(sessions).where(and(eq(sessions.userId, memberId), eq(sessions.kind, "end_user")))).toHaveLength(1);
  });

  it("leaves out of a new member what the platform refuses (here a phone number another member has, with unique numbers required)", async () => {
    const holder = await createShopper(core.db, { chainId: core.chainId, username: "phone.holder@example.com", password: "platform-pass" });
    await core.db.update(users).set({ phoneNumber: "+31687654321" }).where(eq(users.id, holder));
    await core.db.execute(sql`UPDATE chains SET require_unique_phone_number = 1 WHERE id = ${core.chainId}`);
    try {
      await shop.createCustomer({ username: "twin@example.com", password: PASSWORD, country_code: "NL", phone_number: "0687654321", first_name: "Twin" });
      const res = await loginJson(core, "twin@example.com", PASSWORD);
      expect(res.status).toBe(200);
      const [twin] = await core.db.select().from(users).where(eq(users.username, "twin@example.com"));
      expect(twin).toMatchObject({ firstName: "Twin", phoneNumber: null, signupChannel: "platform" });
    } finally {
      await core.db.execute(sql`UPDATE chains SET require_unique_phone_number = 0 WHERE id = ${core.chainId}`);
    }
  });

  it("shows the authentication point on the chain, never its token", async () => {
    const admin = await core.admin({ read: true });
    const level2 = await core.json("/resources/chain", { headers: admin.headers });
    const [point] = await core.db.select().from(authenticationPoints).where(eq(authenticationPoints.chainId, core.chainId));
    expect(level2.body.results.authentication_point).toEqual({ id: point!.id, type: "webshop", base_url: shop.url, service_client: { id: expect.any(Number) } });
    const level3 = await core.json("/resources/chain", { headers: { ...admin.headers, "X-Service-Response-Recursion-Level": "3" } });
    expect(level3.body.results.authentication_point.service_client).toMatchObject({ name: "Webshop connector", is_identity_source: true, enabled: true, deleted: false });
    for (const body of [level2.body, level3.body]) {
      const text = JSON.stringify(body);
      expect(text).not.toContain(shop.token);
      expect(text).not.toContain(point!.integrationTokenSealed);
    }
    // the stored token is sealed, not the token itself
    expect(point!.integrationTokenSealed).toMatch(/^v1\./);
    expect(point!.integrationTokenSealed).not.toContain(shop.token);
  });
});

describe("a webshop that cannot be asked", () => {
  /** A second chain of the same core whose authentication point is `baseUrl`. */
  async function chainBehind(baseUrl: string, token: string, hostname: string): Promise<number> {
    const chainId = await core.createChain("Unreachable shop chain");
    await addWebshopApp(core, chainId, hostname);
    await wire(core, chainId, baseUrl, token);
    return chainId;
  }

  async function expectUnavailable(chainId: number, hostname: string, c: TestCore = core) {
    const res = await loginJson(c, "ann@example.com", PASSWORD, hostname);
    expect(res.status).toBe(503);
    expect(res.body.error).toMatchObject({ code: 904, name: "service_unavailable" });
    expect(res.body.error.description).toMatch(/^Login through the webshop is unavailable/);
    expect(res.retryAfter).toBe("5");
    expect(await usersOf(c, chainId)).toEqual([]);
    expect(await c.db.select().from(sessions).where(eq(sessions.chainId, chainId))).toEqual([]);
    return res.body.error.description as string;
  }

  it("is down (a closed port): 503 with a clear error, no member, no session, and the attempt is not counted", async () => {
    const closed = await freePort();
    const chainId = await chainBehind(`http://127.0.0.1:${closed}`, shop.token, "down.login.example.test");
    for (let i = 0; i < 7; i++) expect(await expectUnavailable(chainId, "down.login.example.test")).toContain("cannot be reached");
    // Seven attempts while the shop was down lock nobody out (the limit is five failures): each was taken back.
    const accountHash = await sha256Hex(`account:user-name:${chainId}:ann@example.com`);
    const [counter] = await core.db.select().from(loginThrottle).where(eq(loginThrottle.keyHash, accountHash));
    expect(counter).toMatchObject({ failures: 0, lockedUntil: null });
    expect((await loginJson(core, "ann@example.com", PASSWORD, "down.login.example.test")).status).toBe(503);
  });

  it("refuses the integration token: 503, nothing created", async () => {
    const chainId = await chainBehind(shop.url, "not-the-shops-integration-token", "badtoken.login.example.test");
    expect(await expectUnavailable(chainId, "badtoken.login.example.test")).toContain("refused the core API's integration token");
  });

  it("does not answer in time: 503 after WEBSHOP_TIMEOUT_MS, nothing created", async () => {
    const hung = await hangingServer();
    const slowCore = await startCore({ env: { WEBSHOP_TIMEOUT_MS: "300" } });
    try {
      await addWebshopApp(slowCore, slowCore.chainId, "hung.login.example.test");
      await wire(slowCore, slowCore.chainId, hung.url, shop.token);
      expect(await expectUnavailable(slowCore.chainId, "hung.login.example.test", slowCore)).toContain("did not answer within 300 ms");
      expect(hung.connections()).toBeGreaterThan(0);
    } finally {
      await slowCore.close();
      await hung.close();
    }
  });
});

describe("the webshop's own limit per address", () => {
  it("is too_many_login_attempts with the webshop's Retry-After, and nothing is created", async () => {
    // A chain and webshop of its own: the lock holds every later call from 127.0.0.1 to that connector.
    const chainId = await core.createChain("Sprayed shop chain");
    await addWebshopApp(core, chainId, "sprayed.login.example.test");
    const locked = await startWebshop(chainId);
    await wire(core, chainId, locked.url, locked.token);
    try {
      await locked.createCustomer({ username: "sprayed@example.com", password: PASSWORD });
      // Twenty failures from this address lock it at the connector (its ADDRESS_LIMIT).
      for (let i = 0; i < 20; i++) {
        await fetch(`${locked.url}/rest/V1/service/customer/authenticate`, {
          method: "POST",
          headers: { authorization: `Bearer ${locked.token}`, "content-type": "application/json" },
          body: JSON.stringify({ email: `spray-${i}@example.com`, password: "x" }),
        });
      }
      const res = await loginJson(core, "sprayed@example.com", PASSWORD, "sprayed.login.example.test");
      expect(res.status).toBe(429);
      expect(res.body.error.name).toBe("too_many_login_attempts");
      expect(Number(res.retryAfter)).toBeGreaterThan(0);
      expect(await usersOf(core, chainId)).toEqual([]);
    } finally {
      await locked.close();
    }
  });
});

/** A port nothing listens on (bound, then closed). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A server that accepts connections and never answers (a hung webshop). */
async function hangingServer(): Promise<{ url: string; connections(): number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let count = 0;
  const server: Server = createServer((socket) => {
    count++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => count,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
