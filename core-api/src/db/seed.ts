/**
 * Creating chains, admins and apps: used by `npm start` to seed a demo chain on an empty
 * database, and by tests to set up their own world.
 */
import { eq, sql } from "drizzle-orm";
import { hashPassword } from "../crypto/passwords.ts";
import type { AccessLevels } from "./permissions.ts";
import type { CoreDb } from "./client.ts";
import { DEFAULT_GENERATED_RANGE } from "@service/shared/resources/member-number-range";
import { adminChainPermissions, adminUsers, apps, chains, memberNumberRanges, users } from "./schema.ts";

/** Creates a chain; returns its id. */
export async function createChain(db: CoreDb, name: string): Promise<number> {
  const [res] = await db.insert(chains).values({ name });
  return Number(res.insertId);
}

/** Creates an admin user with an argon2id password hash; returns its id. */
export async function createAdmin(
  db: CoreDb,
  admin: { username: string; password: string; firstname?: string; lastname?: string },
): Promise<number> {
  const [res] = await db.insert(adminUsers).values({
    username: admin.username,
    passwordHash: await hashPassword(admin.password),
    firstname: admin.firstname ?? null,
    lastname: admin.lastname ?? null,
  });
  return Number(res.insertId);
}

/** Gives admin `adminUserId` the access levels `levels` on chain `chainId` (replacing earlier ones). */
export async function grantAccess(
  db: CoreDb,
  adminUserId: number,
  chainId: number,
  levels: Partial<AccessLevels>,
): Promise<void> {
  const row = {
    adminUserId,
    chainId,
    read: levels.read ?? false,
    write: levels.write ?? false,
    delete: levels.delete ?? false,
    assign: levels.assign ?? false,
    superUser: levels.super_user ?? false,
    campaign: levels.campaign ?? false,
    campaignEnable: levels.campaign_enable ?? false,
    analytics: levels.analytics ?? false,
    export: levels.export ?? false,
    segmentQuery: levels.segment_query ?? false,
  };
  await db.insert(adminChainPermissions).values(row).onDuplicateKeyUpdate({ set: row });
}

/** Registers app hostname `hostname` for chain `chainId`; returns the app id. */
export async function createAppHostname(db: CoreDb, chainId: number, hostname: string): Promise<number> {
  const [res] = await db.insert(apps).values({ chainId, hostname, name: hostname });
  return Number(res.insertId);
}

/**
 * Creates a shopper (end-user) of chain `chainId` who can log in through the chain's apps with an
 * argon2id-hashed password; returns the users.id.
 */
export async function createShopper(
  db: CoreDb,
  shopper: { chainId: number; username: string; password: string; firstName?: string; lastName?: string },
): Promise<number> {
  const [res] = await db.insert(users).values({
    chainId: shopper.chainId,
    username: shopper.username,
    passwordHash: await hashPassword(shopper.password),
    firstName: shopper.firstName ?? null,
    lastName: shopper.lastName ?? null,
  });
  return Number(res.insertId);
}

export interface DemoSeed {
  chainId: number;
  adminUsername: string;
  adminPassword: string;
  appHostname: string;
  shopperUsername: string;
  shopperPassword: string;
}

/**
 * Seeds the demo chain when the database has no chain yet: a super-user admin, an app hostname,
 * a shopper of that app and the default generated member-number range (DEFAULT_GENERATED_RANGE).
 * The chain's id is the one the database hands out (not necessarily 1: auto_increment_offset, a
 * Galera node): callers wire and print that id.
 * @returns what was created, or null when the database already had a chain
 */
export async function seedDemoChain(db: CoreDb, seed: Omit<DemoSeed, "chainId">): Promise<DemoSeed | null> {
  const [rows] = (await db.execute(sql`SELECT COUNT(*) AS n FROM chains`)) as unknown as [Array<{ n: number }>];
  if (Number(rows[0]?.n ?? 0) > 0) return null;
  const chainId = await createChain(db, "Demo Chain");
  const adminId = await createAdmin(db, { username: seed.adminUsername, password: seed.adminPassword, firstname: "Demo", lastname: "Admin" });
  await grantAccess(db, adminId, chainId, { super_user: true });
  await createAppHostname(db, chainId, seed.appHostname);
  // The chain's member numbers come from the default generated range from the start.
  const { first, last } = DEFAULT_GENERATED_RANGE;
  await db.insert(memberNumberRanges).values({ chainId, kind: "generated", first, last, nextNumber: first });
  await createShopper(db, { chainId, username: seed.shopperUsername, password: seed.shopperPassword, firstName: "Demo", lastName: "Shopper" });
  return { chainId, ...seed };
}

/**
 * The demo chain of an already seeded database: the chain its app hostname `appHostname`
 * (SEED_APP_HOSTNAME) belongs to. App hostnames are unique across chains.
 * @returns the chain id, or null when no chain has that app hostname (a database seeded with
 *   another hostname, or never seeded)
 */
export async function findDemoChainId(db: CoreDb, appHostname: string): Promise<number | null> {
  const [app] = await db.select({ chainId: apps.chainId }).from(apps).where(eq(apps.hostname, appHostname)).limit(1);
  return app ? Number(app.chainId) : null;
}
