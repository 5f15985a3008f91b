/**
 * Operator tasks on the core database behind `npm run admin`: a new chain (tenant) with its first
 * super-user admin and its app hostnames, and admins added to a chain, so a second tenant needs no
 * SQL. Inputs are checked before anything is written; a refusal is a value (`{ ok: false, reason
 * }`) with nothing written.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { AccessLevel } from "../../core-api/src/db/permissions.ts";
import type { CoreDb } from "../../core-api/src/db/client.ts";
import { adminUsers, apps, chains } from "../../core-api/src/db/schema.ts";
import { createAdmin, createAppHostname, createChain, grantAccess } from "../../core-api/src/db/seed.ts";

export type Refusal = { ok: false; reason: string };

export interface NewAdmin {
  username: string;
  /** used only when the admin does not exist yet */
  password: string;
}

export interface ChainSetup {
  chainId: number;
  adminId: number;
  /** false: the admin already existed (their password is unchanged) and got access to the chain */
  adminCreated: boolean;
  appIds: number[];
}

const HOSTNAME = /^(?=.{1,255}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i;

/**
 * Creates chain `name` with `admin` as its super user and the app hostnames `hostnames`.
 * @returns the ids, or a refusal (empty name, malformed or already registered hostname, bad admin)
 *   with nothing written
 */
export async function createTenantChain(
  db: CoreDb,
  input: { name: string; admin: NewAdmin; hostnames: string[] },
): Promise<{ ok: true; setup: ChainSetup } | Refusal> {
  const name = input.name.trim();
  if (name === "" || name.length > 255) return refuse("the chain name must be 1 to 255 characters");
  const hostnames = [...new Set(input.hostnames.map((h) => h.trim().toLowerCase()))];
  const bad = hostnames.find((h) => !HOSTNAME.test(h));
  if (bad !== undefined) return refuse(`"${bad}" is not a hostname`);
  if (hostnames.length > 0) {
    const taken = await db.select({ hostname: apps.hostname, chainId: apps.chainId }).from(apps).where(inArray(apps.hostname, hostnames));
    if (taken[0]) return refuse(`app hostname ${taken[0].hostname} already belongs to chain ${taken[0].chainId}`);
  }
  const adminProblem = await checkAdmin(db, input.admin);
  if (adminProblem) return adminProblem;

  const chainId = await createChain(db, name);
  const { adminId, adminCreated } = await ensureAdmin(db, input.admin);
  await grantAccess(db, adminId, chainId, { super_user: true });
  const appIds: number[] = [];
  for (const hostname of hostnames) appIds.push(await createAppHostname(db, chainId, hostname));
  return { ok: true, setup: { chainId, adminId, adminCreated, appIds } };
}

/**
 * Gives `admin` the access levels `levels` on chain `chainId`, creating the admin when the username
 * is new (an existing admin keeps their password; their earlier levels on this chain are replaced).
 * `passwordGiven`: the operator chose the password; for an existing admin that is refused rather
 * than silently ignored (set-password changes a password).
 * @returns the admin id, or a refusal (unknown or deleted chain, no level, bad admin, a given
 *   password for an existing admin) with nothing written
 */
export async function addChainAdmin(
  db: CoreDb,
  input: { chainId: number; admin: NewAdmin; levels: readonly AccessLevel[]; passwordGiven?: boolean },
): Promise<{ ok: true; adminId: number; adminCreated: boolean } | Refusal> {
  const [chain] = await db.select({ id: chains.id }).from(chains).where(and(eq(chains.id, input.chainId), eq(chains.deleted, false)));
  if (!chain) return refuse(`there is no chain ${input.chainId}`);
  if (input.levels.length === 0) return refuse("give at least one access level");
  const username = input.admin.username.trim();
  if (input.passwordGiven && (await findAdmin(db, username)) !== undefined) {
    return refuse(`admin ${username} exists already; nothing changed (--password does not change an existing admin's password: use set-password; without --password, add-admin grants the access)`);
  }
  const adminProblem = await checkAdmin(db, input.admin);
  if (adminProblem) return adminProblem;
  const { adminId, adminCreated } = await ensureAdmin(db, input.admin);
  await grantAccess(db, adminId, input.chainId, Object.fromEntries(input.levels.map((l) => [l, true])));
  return { ok: true, adminId, adminCreated };
}

async function checkAdmin(db: CoreDb, admin: NewAdmin): Promise<Refusal | undefined> {
  const username = admin.username.trim();
  if (username === "" || username.length > 255) return refuse("the admin username must be 1 to 255 characters");
  if (!(await findAdmin(db, username)) && admin.password.length < 8) return refuse("the admin password must be at least 8 characters");
  return undefined;
}

async function ensureAdmin(db: CoreDb, admin: NewAdmin): Promise<{ adminId: number; adminCreated: boolean }> {
  const username = admin.username.trim();
  const existing = await findAdmin(db, username);
  if (existing !== undefined) return { adminId: existing, adminCreated: false };
  return { adminId: await createAdmin(db, { username, password: admin.password }), adminCreated: true };
}

async function findAdmin(db: CoreDb, username: string): Promise<number | undefined> {
  const [row] = await db.select({ id: adminUsers.id }).from(adminUsers).where(eq(adminUsers.username, username));
  return row?.id;
}

function refuse(reason: string): Refusal {
  return { ok: false, reason };
}
