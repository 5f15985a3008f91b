/**
 * Admin access levels per chain (spec, "Authentication": read, write, delete, assign, super user,
 * campaign, campaign_enable, analytics, export, segment query). A super user has every level.
 */
import { sql, type SQL } from "drizzle-orm";
import { adminChainPermissions } from "./schema.ts";

export const ACCESS_LEVELS = [
  "read",
  "write",
  "delete",
  "assign",
  "super_user",
  "campaign",
  "campaign_enable",
  "analytics",
  "export",
  "segment_query",
] as const;

export type AccessLevel = (typeof ACCESS_LEVELS)[number];
export type AccessLevels = Record<AccessLevel, boolean>;

/** A stored admin_chain_permissions row. */
export type PermissionRow = typeof adminChainPermissions.$inferSelect;

/**
 * The access levels a stored permission row gives: a super user has every level.
 * @returns null for no row (the admin has no rights on the chain)
 */
export function levelsOf(p: PermissionRow | null): AccessLevels | null {
  if (!p) return null;
  const su = p.superUser;
  return {
    read: su || p.read,
    write: su || p.write,
    delete: su || p.delete,
    assign: su || p.assign,
    super_user: su,
    campaign: su || p.campaign,
    campaign_enable: su || p.campaignEnable,
    analytics: su || p.analytics,
    export: su || p.export,
    segment_query: su || p.segmentQuery,
  };
}

/** The permission row's flags in ACCESS_LEVELS order, as the bits of permissionBitsSql. */
const FLAG_COLUMNS = [
  adminChainPermissions.read,
  adminChainPermissions.write,
  adminChainPermissions.delete,
  adminChainPermissions.assign,
  adminChainPermissions.superUser,
  adminChainPermissions.campaign,
  adminChainPermissions.campaignEnable,
  adminChainPermissions.analytics,
  adminChainPermissions.export,
  adminChainPermissions.segmentQuery,
];

/**
 * The access levels of a LEFT JOINed admin_chain_permissions row in one column (the authentication
 * query read its twelve columns per request): bit i set when the i-th level of ACCESS_LEVELS is
 * stored as true (1, as the boolean columns read: `= 1`), NULL without a row; read back by
 * levelsOfBits.
 */
export const permissionBitsSql: SQL<number | null> = sql<number | null>`(CASE WHEN ${adminChainPermissions.adminUserId} IS NULL THEN NULL ELSE ${sql.join(
  FLAG_COLUMNS.map((column, i) => sql`((${column} = 1) << ${sql.raw(String(i))})`),
  sql.raw(" | "),
)} END)`.mapWith(Number);

/**
 * The access levels of permissionBitsSql's value: those levelsOf gives the stored row (a super
 * user has every level).
 * @returns null for NULL (the admin has no rights on the chain)
 */
export function levelsOfBits(bits: number | null): AccessLevels | null {
  if (bits === null) return null;
  const su = (bits & (1 << ACCESS_LEVELS.indexOf("super_user"))) !== 0;
  const levels = {} as AccessLevels;
  ACCESS_LEVELS.forEach((level, i) => (levels[level] = su || (bits & (1 << i)) !== 0));
  return levels;
}
