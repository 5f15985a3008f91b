/**
 * Shopper (end-user) login through an app hostname, shopper sessions and their limits
 * (auth/login.ts, auth/context.ts).
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestCore } from "../../../test/helpers/core.ts";
import { adminUsers, sessions, users } from "../db/schema.ts";
import { createAdmin, createAppHostname, createShopper, grantAccess } from "../db/seed.ts";
import { hashPassword } from "../crypto/passwords.ts";

let core: TestCore;
let otherChain: number;
const APP = "shop.example.test";
const OTHER_APP = "other.example.test";
beforeAll(async () => {
  core = await startCore({ sleep: async () => {} });
  otherChain = await core.createChain("Other");
  await createAppHostname(core.db, core.chainId, APP);
  await createAppHostname(core.db, otherChain, OTHER_APP);
});
afterAll(() => core.close());

let seq = 0;
async function newShopper(chainId = core.chainId, extra: { active?: boolean } = {}) {
  const username = `shopper${++seq}@example.com`;
  const id = await createShopper(core.db, { chainId, username, password: "shop-secret", firstName: "Sam" });
  if (extra.active === false) await core.db.update(users).set({ active: false }).where(eq(users.id, id));
  return { id, username };
}

function login(body: Record<string, string>, hostname?: string) {
  return core.json("/auth/login", {
    method: "POST",
    headers: { "content-type": "application/json", ...(hostname === undefined ? {} : { "X-Service-App-Hostname": hostname }) },
    body: JSON.stringify(body),
  });
}

async function shopperSession(username: string, hostname = APP) {
  const res = await login({ username, password: "shop-secret" }, hostname);
  expect(res.status).toBe(200);
  return {
    "X-Service-Session-User-ID": String(res.body.results.session_info.session_user_id),
    "X-Service-Session-Key": res.body.results.session_info.session_key as string,
  };
}

const endUserSessions = async (userId: number) =>
  (await core.db.select().from(sessions).where(and(eq(sessions.userId, userId), eq(sessions.kind, "end_user")))).length;

function expectNoSession(res: { status: number; body: any }, description?: RegExp) {
  expect(res.status).toBe(401);
  expect(res.body.error).toMatchObject({ code: 6, name: "no_valid_session" });
  if (description) expect(res.body.error.description).toMatch(description);
}

describe("POST /auth/login with X-Service-App-Hostname", () => {
  it("logs a shopper in with an end_user session bound to the app's chain", async () => {
    const shopper = await newShopper();
    const res = await login({ username: shopper.username, password: "shop-secret" }, "Shop.Example.Test ");
    expect(res.status).toBe(200);
    expect(res.body.results.result_type).toBe("login");
    expect(res.body.results.session_info).toEqual({
      session_user_id: shopper.id,
      session_key: expect.stringMatching(/^[0-9a-f]{64}$/),
      expiry: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    });
    const [row] = await core.db.select().from(sessions).where(and(eq(sessions.userId, shopper.id), eq(sessions.kind, "end_user")));
    expect(row).toMatchObject({ kind: "end_user", chainId: core.chainId });
  });

  it("refuses a wrong password, an unknown or inactive shopper and a passwordless one, creating no session", async () => {
    const shopper = await newShopper();
    const inactive = await newShopper(core.chainId, { active: false });
    const [res] = await core.db.insert(users).values({ chainId: core.chainId, username: "no-password@example.com", passwordHash: null });
    for (const creds of [
      { username: shopper.username, password: "wrong" },
      { username: "nobody@example.com", password: "shop-secret" },
      { username: inactive.username, password: "shop-secret" },
      { username: "no-password@example.com", password: "" + "shop-secret" },
    ]) {
      expectNoSession(await login(creds, APP), /Invalid username or password/);
    }
    for (const id of [shopper.id, inactive.id, Number(res.insertId)]) expect(await endUserSessions(id)).toBe(0);
  });

  it("an unknown app hostname is no_valid_session (6 / 401) saying so", async () => {
    const shopper = await newShopper();
    expectNoSession(await login({ username: shopper.username, password: "shop-secret" }, "nowhere.example.test"), /names no app/);
    expect(await endUserSessions(shopper.id)).toBe(0);
  });

  it("a shopper of one chain cannot log in through another chain's app, nor through admin login", async () => {
    const shopper = await newShopper();
    expectNoSession(await login({ username: shopper.username, password: "shop-secret" }, OTHER_APP));
    expectNoSession(await login({ username: shopper.username, password: "shop-secret" }));
    expect(await endUserSessions(shopper.id)).toBe(0);
  });

  it("admin credentials do not log in as a shopper", async () => {
    await createAdmin(core.db, { username: "admin-not-shopper@example.com", password: "shop-secret" });
    expectNoSession(await login({ username: "admin-not-shopper@example.com", password: "shop-secret" }, APP));
  });
});

describe("shopper sessions", () => {
  const adminCall = (headers: Record<string, string>) => core.json(`/internal/get-businesses?chain_id=${core.chainId}`, { headers });

  it("authenticate through the app of their chain only", async () => {
    const shopper = await newShopper();
    const session = await shopperSession(shopper.username);
    // authenticated, but an admin operation is refused for shoppers (68 on internal calls, with the
    // catalogue's description, as for a missing object); GET on a resource open to end-users works
    const own = await adminCall({ ...session, "X-Service-App-Hostname": APP });
    expect(own.status).toBe(403);
    expect(own.body.error).toMatchObject({ code: 68, name: "permission_denied_or_non_existent" });
    expect(own.body.error.description).toBe("Insufficient permission, or the object does not exist.");
    const shopperHeaders = { ...session, "X-Service-App-Hostname": APP, "X-Service-Chain-ID": String(core.chainId) };
    const resource = await core.json("/resources/businesses", { headers: shopperHeaders });
    expect(resource.status).toBe(200);
    const write = await core.json("/resources/business", { method: "POST", headers: shopperHeaders });
    expect(write.status).toBe(404);
    expect(write.body.error.code).toBe(544);
    // another chain's app: the session does not belong there
    expectNoSession(await adminCall({ ...session, "X-Service-App-Hostname": OTHER_APP }), /another app's chain/);
    // no app header: read as an admin session, which this is not
    expectNoSession(await adminCall(session));
    expectNoSession(await adminCall({ ...session, "X-Service-App-Hostname": "nowhere.example.test" }), /names no app/);
  });

  it("never carry the rights of the admin with the same numeric id", async () => {
    const adminId = 9000; // above every id this test file creates, in both tables
    await core.db.insert(adminUsers).values({ id: adminId, username: "twin-admin@example.com", passwordHash: await hashPassword("x") });
    await grantAccess(core.db, adminId, core.chainId, { super_user: true });
    await core.db.insert(users).values({ id: adminId, chainId: core.chainId, username: "twin@example.com", passwordHash: await hashPassword("shop-secret") });
    const session = await shopperSession("twin@example.com");
    expect(session["X-Service-Session-User-ID"]).toBe(String(adminId));
    const asShopper = await adminCall({ ...session, "X-Service-App-Hostname": APP });
    expect(asShopper.status).toBe(403);
    expect(asShopper.body.error.code).toBe(68);
    expectNoSession(await adminCall(session));
  });

  it("an admin session sent with an app hostname stays the admin's (auth/admin-with-app.test.ts)", async () => {
    const admin = await core.admin({ read: true });
    expect((await adminCall(admin.headers)).status).toBe(200);
    expect((await adminCall({ ...admin.headers, "X-Service-App-Hostname": APP })).status).toBe(200);
  });

  it("logout ends a shopper session", async () => {
    const shopper = await newShopper();
    const headers = { ...(await shopperSession(shopper.username)), "X-Service-App-Hostname": APP };
    const out = await core.json("/auth/logout", { method: "DELETE", headers });
    expect(out.status).toBe(200);
    expect(await endUserSessions(shopper.id)).toBe(0);
    expectNoSession(await core.json("/auth/logout", { method: "DELETE", headers }));
    expectNoSession(await adminCall(headers));
  });

  it("session headers together with an access token are refused", async () => {
    const shopper = await newShopper();
    const headers = { ...(await shopperSession(shopper.username)), "X-Service-App-Hostname": APP, Authorization: "Bearer a.b.c" };
    expectNoSession(await adminCall(headers), /not both/);
  });
});
