/**
 * Who may call add-user (spec, "Internal call: add-user": "Auth"; "Headers"; handbook, "The user":
 * X-Service-App-Hostname on add-user): admins with assign access and chain_id; privileged tokens
 * through an app of their chain; an admin session with the app header is 419; admin users need a
 * super-user admin. Every refusal writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedClient, seedToken } from "../clients/client-test-support.ts";
import { createAppHostname } from "../db/seed.ts";
import { adminChainPermissions, adminUsers } from "../db/schema.ts";
import { eq } from "drizzle-orm";
import { call, NATIVE_APP, NOW, shopperSession, startUsersWorld, writtenRows, type UsersWorld } from "../users/user-test-support.ts";

let w: UsersWorld;
let otherApp: string;
beforeAll(async () => {
  w = await startUsersWorld();
  otherApp = "other.users.example.test";
  await createAppHostname(w.core.db, w.otherChainId, otherApp);
}, 60_000);
afterAll(() => w.core.close());

let seq = 0;
const email = () => `sec-${++seq}@example.com`;
const add = (headers: Record<string, string>, params: Record<string, unknown>) => call(w.core, "POST", "/internal/add-user", headers, params as never);
const withoutChain = (h: Record<string, string>) => Object.fromEntries(Object.entries(h).filter(([k]) => k !== "X-Service-Chain-ID"));

/** Asserts the refusal and that nothing was written. */
async function refused(headers: Record<string, string>, params: Record<string, unknown>, status: number, code: number) {
  const before = await writtenRows(w.core);
  const res = await add(headers, params);
  expect([res.status, res.body.error?.code], JSON.stringify(res.body)).toEqual([status, code]);
  expect(await writtenRows(w.core)).toBe(before);
}

describe("admins", () => {
  it("need assign access to the chain (68 otherwise) and chain_id (3 without)", async () => {
    const assign = withoutChain((await w.core.admin({ assign: true })).headers);
    expect((await add(assign, { chain_id: w.core.chainId, username: email() })).status).toBe(200);
    const writer = withoutChain((await w.core.admin({ write: true, read: true, delete: true })).headers);
    await refused(writer, { chain_id: w.core.chainId, username: email() }, 403, 68);
    await refused(assign, { chain_id: w.otherChainId, username: email() }, 403, 68);
    await refused(assign, { username: email() }, 400, 3);
  });

  it("may not send X-Service-App-Hostname (419), whatever app it names", async () => {
    for (const hostname of [NATIVE_APP, otherApp, "no-such-app.example.test"]) {
      await refused({ ...w.adminHeaders, "X-Service-App-Hostname": hostname }, { chain_id: w.core.chainId, username: email() }, 400, 419);
    }
  });

  it("a stale admin session with the header is 6, as without it", async () => {
    await refused({ ...w.adminHeaders, "X-Service-Session-Key": "stale", "X-Service-App-Hostname": NATIVE_APP }, { chain_id: w.core.chainId, username: email() }, 401, 6);
  });
});

describe("privileged tokens", () => {
  it("need X-Service-App-Hostname naming an app of the token's chain (419 otherwise)", async () => {
    expect((await add({ ...w.token, "X-Service-App-Hostname": NATIVE_APP }, { username: email() })).status).toBe(200);
    await refused(w.token, { username: email() }, 400, 419);
    await refused({ ...w.token, "X-Service-App-Hostname": otherApp }, { username: email() }, 400, 419);
    await refused({ ...w.token, "X-Service-App-Hostname": "no-such-app.example.test" }, { username: email() }, 400, 419);
  });

  it("with chain_id: it must be a chain of the token (68) and the app's (419)", async () => {
    expect((await add({ ...w.token, "X-Service-App-Hostname": NATIVE_APP }, { chain_id: w.core.chainId, username: email() })).status).toBe(200);
    await refused({ ...w.token, "X-Service-App-Hostname": NATIVE_APP }, { chain_id: w.otherChainId, username: email() }, 403, 68);
    // a token with scope on both chains still names an app of its own chain only
    const client = await seedClient(w.core.db, w.core.chainId, NOW, { name: "Both" });
    const both = await seedToken(w.core.db, w.core.chainId, client.id, NOW, `chain:${w.core.chainId},chain:${w.otherChainId}`);
    const headers = { Authorization: `Bearer ${both.row.id}:${both.secret}`, "X-Service-App-Hostname": NATIVE_APP };
    await refused(headers, { chain_id: w.otherChainId, username: email() }, 400, 419);
  });

  it("a read_businesses token, or a bad one, is refused; the header does not make the pair acceptable elsewhere", async () => {
    const client = await seedClient(w.core.db, w.core.chainId, NOW, { name: "Reader" });
    const reader = await seedToken(w.core.db, w.core.chainId, client.id, NOW, `read_businesses:${w.core.chainId}`);
    await refused({ Authorization: `Bearer ${reader.row.id}:${reader.secret}`, "X-Service-App-Hostname": NATIVE_APP }, { username: email() }, 403, 68);
    await refused({ Authorization: `Bearer ${reader.row.id}:wrong`, "X-Service-App-Hostname": NATIVE_APP }, { username: email() }, 401, 266);
    const elsewhere = await w.core.json(`/internal/get-businesses?chain_id=${w.core.chainId}`, { headers: { ...w.token, "X-Service-App-Hostname": NATIVE_APP } });
    expect([elsewhere.status, elsewhere.body.error.code]).toEqual([401, 6]);
  });
});

describe("shoppers and anonymous callers", () => {
  it("a shopper may not add users (68); no credentials is 6", async () => {
    const shopper = await shopperSession(w.core, NATIVE_APP, "shopper-sec@example.com");
    await refused(shopper.headers, { chain_id: w.core.chainId, username: email() }, 403, 68);
    // without chain_id too: the answer says what is wrong (a shopper may not add users), not that chain_id is missing
    const before = await writtenRows(w.core);
    const noChain = await add(shopper.headers, { username: email() });
    expect([noChain.status, noChain.body.error?.code]).toEqual([403, 68]);
    expect(noChain.body.error.description).toContain("a shopper's session may not add users");
    expect(noChain.body.error.description).not.toContain("chain_id");
    expect(await writtenRows(w.core)).toBe(before);
    await refused({}, { chain_id: w.core.chainId, username: email() }, 401, 6);
  });
});

describe("admin users (permission_*)", () => {
  it("a super-user admin creates an admin of the chain with the levels given, who can log in", async () => {
    const username = email();
    const { status, body } = await add(w.adminHeaders, {
      chain_id: w.core.chainId, username, password: "admin password 1", first_name: "Ada", last_name: "Admin",
      permission_read: true, permission_assign: "true", permission_campaign: false,
    });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.results).toMatchObject({
      user_type: "new", updated_existing_user: false, referring_user: null, result_type: "add-user",
      user: { username, first_name: "Ada", last_name: "Admin", member_number: null, entity_code: { code: String(w.core.chainId), type: "chain" } },
      permissions: { read: true, assign: true, write: false, campaign: false, super_user: false },
    });
    const login = await w.core.json("/auth/login", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username, password: "admin password 1" }) });
    expect(login.status).toBe(200);
  });

  it("an admin and a shopper of the chain may share a username", async () => {
    const username = email();
    expect((await add(w.adminHeaders, { chain_id: w.core.chainId, username })).status).toBe(200);
    const admin = await add(w.adminHeaders, { chain_id: w.core.chainId, username, password: "admin password 2", permission_read: true });
    expect(admin.status, JSON.stringify(admin.body)).toBe(200);
    const shopperAgain = await add(w.adminHeaders, { chain_id: w.core.chainId, username });
    expect(shopperAgain.body.error).toMatchObject({ name: "user_already_exists" });
  });

  it("needs super_user (68 for an assign admin or a token), a username and a password (441)", async () => {
    const assign = withoutChain((await w.core.admin({ assign: true })).headers);
    await refused(assign, { chain_id: w.core.chainId, username: email(), password: "admin password 3", permission_read: true }, 403, 68);
    await refused({ ...w.token, "X-Service-App-Hostname": NATIVE_APP }, { username: email(), password: "admin password 3", permission_read: true }, 403, 68);
    await refused(w.adminHeaders, { chain_id: w.core.chainId, username: email(), permission_read: true }, 400, 441);
    await refused(w.adminHeaders, { chain_id: w.core.chainId, password: "admin password 3", permission_read: true }, 400, 441);
    await refused(w.adminHeaders, { chain_id: w.core.chainId, username: email(), password: "admin password 3", permission_read: "maybe" }, 400, 316);
  });

  it("an existing admin: user_already_exists, or with update_if_exists the levels given on this chain; another chain's admin is never taken over", async () => {
    const username = email();
    const created = await add(w.adminHeaders, { chain_id: w.core.chainId, username, password: "admin password 4", permission_read: true });
    const id = created.body.results.user.id;
    await refused(w.adminHeaders, { chain_id: w.core.chainId, username, password: "admin password 5", permission_write: true }, 400, 901);
    const updated = await add(w.adminHeaders, { chain_id: w.core.chainId, username, update_if_exists: true, password: "admin password 5", permission_write: true });
    expect(updated.body.results).toMatchObject({ user_type: "registered", updated_existing_user: true, permissions: { read: true, write: true, delete: false } });
    const [account] = await w.core.db.select().from(adminUsers).where(eq(adminUsers.id, id));
    const login = await w.core.json("/auth/login", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username, password: "admin password 4" }) });
    expect([account!.username, login.status]).toEqual([username, 200]);

    const foreign = await w.core.admin({ read: true }, w.otherChainId);
    await refused(w.adminHeaders, { chain_id: w.core.chainId, username: foreign.username, update_if_exists: true, permission_super_user: true }, 400, 901);
    const rows = await w.core.db.select().from(adminChainPermissions).where(eq(adminChainPermissions.adminUserId, foreign.id));
    expect(rows.map((r) => r.chainId)).toEqual([w.otherChainId]);
  });
});
