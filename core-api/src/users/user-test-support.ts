/**
 * Test support of the user calls (add-user, get-user, alter-user, add-basket): a world with a
 * super-user admin, an app of each kind, a chain-scope token (and an identity-source one), stores,
 * and readers of every row a user write can touch, to assert that a refused call wrote nothing.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import { startCore, type TestAdmin, type TestCore } from "../../../test/helpers/core.ts";
import { encode, type Encoding } from "../../../test/helpers/internal-calls.ts";
import { insertBusiness } from "../businesses/business-repository.ts";
import { seedClient, seedToken } from "../clients/client-test-support.ts";
import { createAppHostname, createShopper } from "../db/seed.ts";
import { adminChainPermissions, adminUsers, apps, baskets, memberNumberRanges, userReferrals, users } from "../db/schema.ts";

export const NOW = new Date("2026-11-21T10:00:00.000Z");
export const NATIVE_APP = "app.users.example.test";
export const MOBILE_WEB = "m.users.example.test";
export const WEBSHOP = "shop.users.example.test";

export interface UsersWorld {
  core: TestCore;
  /** super-user admin of the chain (headers without X-Service-Chain-ID: internal calls take chain_id) */
  admin: TestAdmin;
  adminHeaders: Record<string, string>;
  /** `Authorization` of a chain-scope token of the chain */
  token: Record<string, string>;
  /** `Authorization` of a chain-scope token of the chain's identity-source client */
  identityToken: Record<string, string>;
  /** live businesses of the chain: [id, owner_code] */
  stores: Array<{ id: number; ownerCode: string }>;
  /** a deleted business of the chain and a business of another chain */
  deletedStoreId: number;
  otherChainId: number;
  otherChainStoreId: number;
}

/**
 * The users world of a test file: started before its tests (beforeAll, then `setup` on it) and
 * closed after them (afterAll). The object returned is filled in when the world has started, so
 * the file's tests and its own later hooks read it as they would the world itself.
 * @param env extra configuration of the core (startUsersWorld)
 */
export function usersWorldForFile(setup?: (w: UsersWorld) => Promise<unknown>, env: Record<string, string> = {}): UsersWorld {
  const w = {} as UsersWorld;
  beforeAll(async () => {
    Object.assign(w, await startUsersWorld(env));
    await setup?.(w);
  }, 60_000);
  afterAll(() => w.core?.close());
  return w;
}

/**
 * Builds the world on a fresh core (clock fixed at NOW).
 * @param env configuration variables of the core (for example REQUEST_DEADLINE_MS)
 */
export async function startUsersWorld(env: Record<string, string> = {}): Promise<UsersWorld> {
  const core = await startCore({ clock: () => NOW, env });
  const admin = await core.admin({ super_user: true });
  const { "X-Service-Chain-ID": _chain, ...adminHeaders } = admin.headers;
  for (const [hostname, kind] of [[NATIVE_APP, "native_app"], [MOBILE_WEB, "mobile_web"], [WEBSHOP, "webshop"]] as const) {
    const id = await createAppHostname(core.db, core.chainId, hostname);
    await core.db.update(apps).set({ kind }).where(eq(apps.id, id));
  }
  const client = await seedClient(core.db, core.chainId, NOW, { name: "POS" });
  const token = await seedToken(core.db, core.chainId, client.id, NOW);
  const identity = await seedClient(core.db, core.chainId, NOW, { name: "Webshop connector", isIdentitySource: true });
  const identityToken = await seedToken(core.db, core.chainId, identity.id, NOW);
  const stores = [];
  for (const code of ["S-1", "S-2", "S-3"]) stores.push({ id: (await insertBusiness(core.db, { chainId: core.chainId, name: `Store ${code}`, ownerCode: code }, NOW)).id, ownerCode: code });
  const deleted = await insertBusiness(core.db, { chainId: core.chainId, name: "Closed", ownerCode: "GONE" }, NOW);
  await core.db.execute(sql`UPDATE businesses SET deleted = 1 WHERE id = ${deleted.id}`);
  const otherChainId = await core.createChain();
  const foreign = await insertBusiness(core.db, { chainId: otherChainId, name: "Foreign", ownerCode: "F-1" }, NOW);
  return {
    core,
    admin,
    adminHeaders,
    token: { Authorization: `Bearer ${token.row.id}:${token.secret}` },
    identityToken: { Authorization: `Bearer ${identityToken.row.id}:${identityToken.secret}` },
    stores,
    deletedStoreId: deleted.id,
    otherChainId,
    otherChainStoreId: foreign.id,
  };
}

type Value = string | number | boolean | null | object;

/** Calls `path` with `params` in `encoding` (default JSON). */
export function call(
  core: TestCore,
  method: string,
  path: string,
  headers: Record<string, string>,
  params: Record<string, Value>,
  encoding: Encoding = "json",
): Promise<{ status: number; body: any }> {
  if (method === "GET") return core.json(`${path}?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`, { headers });
  return core.json(path, encode(encoding, method, headers, params));
}

/** add-user as the world's admin on its chain, with `params` (chain_id added). */
export function addUserAsAdmin(w: UsersWorld, params: Record<string, Value>, encoding: Encoding = "json", headers: Record<string, string> = {}) {
  return call(w.core, "POST", "/internal/add-user", { ...w.adminHeaders, ...headers }, { chain_id: w.core.chainId, ...params }, encoding);
}

/** Adds a member-number range straight to the table; returns its id. */
export async function seedRange(core: TestCore, chainId: number, kind: "generated" | "custom", first: bigint, last: bigint): Promise<number> {
  const [res] = await core.db.insert(memberNumberRanges).values({ chainId, kind, first, last, nextNumber: first });
  return Number(res.insertId);
}

/** The stored user `id`. */
export async function userRow(core: TestCore, id: number) {
  const [row] = await core.db.select().from(users).where(eq(users.id, id));
  return row;
}

/**
 * Every row a user write can touch (users, referral links, member-number ranges and their
 * counters, admin users and their levels, baskets) as one string: equal before and after a
 * refused call means it wrote nothing.
 */
export async function writtenRows(core: TestCore): Promise<string> {
  const parts = await Promise.all([
    core.db.select().from(users).orderBy(users.id),
    core.db.select().from(userReferrals).orderBy(userReferrals.id),
    core.db.select().from(memberNumberRanges).orderBy(memberNumberRanges.id),
    core.db.select().from(adminUsers).orderBy(adminUsers.id),
    core.db.select().from(adminChainPermissions).orderBy(adminChainPermissions.adminUserId, adminChainPermissions.chainId),
    core.db.select().from(baskets).orderBy(baskets.id),
  ]);
  return JSON.stringify(parts, (_key, value: unknown) => (typeof value === "bigint" ? String(value) : value));
}

/** A shopper of the chain logged in through app `hostname`: its id and session headers (with the hostname). */
export async function shopperSession(core: TestCore, hostname: string, username: string): Promise<{ id: number; headers: Record<string, string> }> {
  const id = await createShopper(core.db, { chainId: core.chainId, username, password: "shopper-secret" });
  const login = await core.json("/auth/login", {
    method: "POST",
    headers: { "content-type": "application/json", "X-Service-App-Hostname": hostname },
    body: JSON.stringify({ username, password: "shopper-secret" }),
  });
  if (login.status !== 200) throw new Error(`shopper login: ${JSON.stringify(login.body)}`);
  const info = login.body.results.session_info;
  return {
    id,
    headers: { "X-Service-Session-User-ID": String(info.session_user_id), "X-Service-Session-Key": info.session_key, "X-Service-App-Hostname": hostname },
  };
}
