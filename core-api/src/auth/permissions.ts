/**
 * Admin access levels per chain (spec, "Authentication": read, write, delete, assign, super user,
 * campaign, campaign_enable, analytics, export, segment query). A super user has every level.
 */
import { and, eq } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { adminChainPermissions, chains } from "../db/schema.ts";

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

/**
 * The access levels of admin `adminUserId` on chain `chainId`.
 * @returns null when the admin has no rights there, or the chain does not exist or is deleted
 */
export async function loadAccessLevels(db: CoreDb, adminUserId: number, chainId: number): Promise<AccessLevels | null> {
  const [row] = await db
    .select({ p: adminChainPermissions, deleted: chains.deleted })
    .from(adminChainPermissions)
    .innerJoin(chains, eq(chains.id, adminChainPermissions.chainId))
    .where(and(eq(adminChainPermissions.adminUserId, adminUserId), eq(adminChainPermissions.chainId, chainId)))
    .limit(1);
  if (!row || row.deleted) return null;
  const p = row.p;
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
