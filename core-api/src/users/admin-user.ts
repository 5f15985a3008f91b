/**
 * Admin users made through add-user (spec, "Internal call: add-user": "Creates ... an admin user
 * when one or more permission_* parameters are passed"; handbook, "admin users"): the admin of
 * the chain with the access levels given. Admins log in with a globally unique username
 * (admin_users), apart from the chain's shoppers, so an admin and a shopper may share one.
 *
 * - A new admin needs a username and a password (441 parameter_missing without them); of the
 *   user fields it takes first_name and last_name (the others are validated as for a shopper and
 *   not stored: an admin has no member number, address or phone).
 * - An admin with that username who already has levels on this chain is user_already_exists
 *   (400), unless update_if_exists: then the levels given replace theirs on this chain (the
 *   others stay), and nothing else of the account changes: its password and names may serve
 *   other chains, which this chain's super user does not govern.
 * - An admin with that username who holds nothing on this chain belongs to other chains only:
 *   user_already_exists, update_if_exists or not (no chain takes over another's admin).
 */
import type { UserInfo } from "@service/shared/user-info";
import { and, eq } from "drizzle-orm";
import { levelsOf, type AccessLevel, type AccessLevels } from "../db/permissions.ts";
import type { CoreDb } from "../db/client.ts";
import { isDuplicateKey } from "../db/duplicate-key.ts";
import { adminChainPermissions, adminUsers } from "../db/schema.ts";
import { formatDateTime, type ApiVersion } from "../http/api-version.ts";
import { ServiceError } from "../http/service-error.ts";
import { runStatement, runTransaction } from "@service/shared/node";

export type AdminUserRow = typeof adminUsers.$inferSelect;

/** What add-user gives for an admin user. */
export interface AdminUserWrite {
  chainId: number;
  username: string | null | undefined;
  /** argon2id hash of the password given; null or undefined when none was */
  passwordHash: string | null | undefined;
  firstName: string | null | undefined;
  lastName: string | null | undefined;
  /** the levels given (permission_* parameters) */
  levels: Partial<AccessLevels>;
  updateIfExists: boolean;
}

/** The permission row's column of each level. */
const COLUMN: Record<AccessLevel, keyof typeof adminChainPermissions.$inferInsert> = {
  read: "read",
  write: "write",
  delete: "delete",
  assign: "assign",
  super_user: "superUser",
  campaign: "campaign",
  campaign_enable: "campaignEnable",
  analytics: "analytics",
  export: "export",
  segment_query: "segmentQuery",
};

/**
 * Creates the admin user, or updates its levels on the chain (see the module comment).
 * @returns the admin, its levels on the chain afterwards, and whether it was created
 * @throws ServiceError parameter_missing (441) without username or (for a new admin) password;
 *   user_already_exists (400)
 */
export async function saveAdminUser(db: CoreDb, w: AdminUserWrite, now: Date): Promise<{ admin: AdminUserRow; levels: AccessLevels; created: boolean }> {
  if (!w.username) throw new ServiceError("parameter_missing", "An admin user needs a username.");
  const [existing] = await db.select().from(adminUsers).where(eq(adminUsers.username, w.username)).limit(1);
  const levelColumns = Object.fromEntries(Object.entries(w.levels).map(([level, held]) => [COLUMN[level as AccessLevel], held]));
  if (existing) {
    const [held] = await db.select().from(adminChainPermissions)
      .where(and(eq(adminChainPermissions.adminUserId, existing.id), eq(adminChainPermissions.chainId, w.chainId)));
    if (!held || !w.updateIfExists) throw new ServiceError("user_already_exists", "An admin user with this username already exists.");
    await runStatement(() => db.update(adminChainPermissions).set(levelColumns)
      .where(and(eq(adminChainPermissions.adminUserId, existing.id), eq(adminChainPermissions.chainId, w.chainId))));
    return { admin: existing, levels: await levelsOn(db, existing.id, w.chainId), created: false };
  }
  if (!w.passwordHash) throw new ServiceError("parameter_missing", "An admin user needs a password.");
  const passwordHash = w.passwordHash;
  const username = w.username;
  try {
    const id = await runTransaction(db, async (tx) => {
      const [res] = await tx.insert(adminUsers).values({
        username, passwordHash, firstname: w.firstName ?? null, lastname: w.lastName ?? null, createdDate: now, lastModifiedDate: now,
      });
      const adminUserId = Number(res.insertId);
      await tx.insert(adminChainPermissions).values({ adminUserId, chainId: w.chainId, ...levelColumns });
      return adminUserId;
    });
    const [admin] = await db.select().from(adminUsers).where(eq(adminUsers.id, id));
    return { admin: admin!, levels: await levelsOn(db, id, w.chainId), created: true };
  } catch (err) {
    // Another request created the same username meanwhile.
    if (isDuplicateKey(err, "admin_users_by_username")) throw new ServiceError("user_already_exists", "An admin user with this username already exists.");
    throw err;
  }
}

async function levelsOn(db: CoreDb, adminUserId: number, chainId: number): Promise<AccessLevels> {
  const [row] = await db.select().from(adminChainPermissions)
    .where(and(eq(adminChainPermissions.adminUserId, adminUserId), eq(adminChainPermissions.chainId, chainId)));
  return levelsOf(row ?? null)!;
}

/**
 * An admin user as add-user's `user`: the admin's id, username and names; the shopper's fields
 * are empty (an admin has no member number, address or phone).
 */
export function adminUserInfoOf(admin: AdminUserRow, chainId: number, version: ApiVersion): UserInfo {
  return {
    id: admin.id, user_id: admin.id, member_number: null, username: admin.username,
    address_streetname: null, address_housenumber: null, address_housenumber_extension: null, address_line_2: null,
    address_line_3: null, address_postalcode: null, address_regionstate: null, address_towncity: null,
    birthday: null, country_code: null, entity_code: { code: String(chainId), type: "chain" },
    first_name: admin.firstname, last_name: admin.lastname, gender: null,
    mailing_list: { mailing_list_sub_offered: false, mailing_list_subscribed: false, printed_mailing_list_subscribed: null },
    opt_in_programme: { programme_opted_in: false }, phone_number: null, signup_channel: null,
    phone_number_status: 0, phone_number_duplicate: false, referral_code: null, auxiliary_identifier: null,
    authentication_point_identifier: null, language: null, home_store_id: null, signup_store_id: null,
    is_employee: false, registered: true, opt_in_secondary: null,
    created_date: formatDateTime(admin.createdDate, version)!, last_modified_date: formatDateTime(admin.lastModifiedDate, version)!,
  };
}
