/**
 * Admin access levels per chain (spec, "Authentication": read, write, delete, assign, super user,
 * campaign, campaign_enable, analytics, export, segment query). A super user has every level.
 */
import type { adminChainPermissions } from "../db/schema.ts";

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
