/**
 * Campaign group storage (spec, "Other records seen in internal call responses": a group and its
 * `campaign_ids`; "States and transitions": deleting a group keeps its campaigns and takes them
 * out of it). A group holds campaigns through campaign_group_campaigns; a campaign deleted later
 * stays a member row but is no longer listed among the group's campaign_ids.
 *
 * Every read filters on the chain or on the group's own id; groups are stored to the second.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import type { CoreTx } from "../campaigns/change-log.ts";
import type { CoreDb } from "../db/client.ts";
import { adminUsers, campaignGroupCampaigns, campaignGroups, campaigns } from "../db/schema.ts";
import { wholeSeconds } from "../db/whole-seconds.ts";
import { ServiceError } from "../http/service-error.ts";
import { runTransaction } from "@service/shared/node";

export type CampaignGroupRow = typeof campaignGroups.$inferSelect;

/** The admin a group names as last_updated_by. */
export interface GroupUpdater {
  id: number;
  username: string;
  firstname: string | null;
  lastname: string | null;
}

/** A stored group with what its record shows: its live campaigns (ascending ids) and its last updater. */
export interface StoredCampaignGroup {
  group: CampaignGroupRow;
  campaignIds: number[];
  /** null when a privileged token made the last change, or the admin is gone */
  updater: GroupUpdater | null;
}

/** A new group's values. */
export interface NewCampaignGroup {
  chainId: number;
  name: string;
  activeDateFrom: Date | null;
  activeDateUntil: Date | null;
  /** live campaigns of the chain, each once */
  campaignIds: readonly number[];
  /** admin user id; null for a privileged token */
  lastUpdatedBy: number | null;
}

type Reader = CoreDb | CoreTx;

const UPDATER = { id: adminUsers.id, username: adminUsers.username, firstname: adminUsers.firstname, lastname: adminUsers.lastname };

/**
 * Creates a group holding `values.campaignIds`.
 * @param now creation time (cut to the second)
 * @returns the stored group
 * @throws ServiceError campaign_id_not_found (246, 404) when an id names no live campaign of the
 *   chain (another chain's campaign answers alike); nothing is written then
 */
export async function createCampaignGroup(db: CoreDb, values: NewCampaignGroup, now: Date): Promise<StoredCampaignGroup> {
  const at = wholeSeconds(now);
  const id = await runTransaction(db, async (tx) => {
    const ids = [...values.campaignIds];
    if (ids.length > 0) {
      const live = await tx
        .select({ id: campaigns.id })
        .from(campaigns)
        .where(and(eq(campaigns.chainId, values.chainId), inArray(campaigns.id, ids), eq(campaigns.deleted, false)));
      const found = new Set(live.map((r) => r.id));
      const missing = ids.find((campaignId) => !found.has(campaignId));
      if (missing !== undefined) throw new ServiceError("campaign_id_not_found", `campaign_ids: no campaign ${missing} in this chain.`);
    }
    const { campaignIds: _ids, ...group } = values;
    const [res] = await tx.insert(campaignGroups).values({ ...group, createdDate: at, lastModifiedDate: at });
    const groupId = Number(res.insertId);
    if (ids.length > 0) {
      await tx.insert(campaignGroupCampaigns).values(ids.map((campaignId) => ({ campaignGroupId: groupId, campaignId, chainId: values.chainId })));
    }
    return groupId;
  });
  return (await findCampaignGroup(db, id))!;
}

/** The group `id` of any chain with its live campaigns and last updater; null when there is none. */
export async function findCampaignGroup(db: Reader, id: number): Promise<StoredCampaignGroup | null> {
  const [row] = await db
    .select({ group: campaignGroups, updater: UPDATER })
    .from(campaignGroups)
    .leftJoin(adminUsers, eq(adminUsers.id, campaignGroups.lastUpdatedBy))
    .where(eq(campaignGroups.id, id));
  if (!row) return null;
  const members = await liveMembers(db, row.group.chainId, [id]);
  return { group: row.group, updater: row.updater, campaignIds: members.get(id) ?? [] };
}

/**
 * One page of the groups of chain `chainId`, oldest first (by id).
 * @returns the groups with their live campaigns and last updaters (two queries)
 */
export async function listCampaignGroups(db: CoreDb, chainId: number, page: { limit: number; offset: number }): Promise<StoredCampaignGroup[]> {
  const rows = await db
    .select({ group: campaignGroups, updater: UPDATER })
    .from(campaignGroups)
    .leftJoin(adminUsers, eq(adminUsers.id, campaignGroups.lastUpdatedBy))
    .where(eq(campaignGroups.chainId, chainId))
    .orderBy(asc(campaignGroups.id))
    .limit(page.limit)
    .offset(page.offset);
  if (rows.length === 0) return [];
  const members = await liveMembers(db, chainId, rows.map((r) => r.group.id));
  return rows.map((r) => ({ group: r.group, updater: r.updater, campaignIds: members.get(r.group.id) ?? [] }));
}

/**
 * Removes the group `id` and its memberships; its campaigns are kept, untouched. The group row is
 * locked first, so of concurrent deletions exactly one succeeds.
 * @returns the group as it stood just before (its campaign_ids: the live campaigns it let go);
 *   null when no group has the id (nothing is written)
 */
export async function deleteCampaignGroup(db: CoreDb, id: number): Promise<StoredCampaignGroup | null> {
  return runTransaction(db, async (tx) => {
    const [locked] = await tx.select({ id: campaignGroups.id }).from(campaignGroups).where(eq(campaignGroups.id, id)).for("update");
    if (!locked) return null;
    const before = (await findCampaignGroup(tx, id))!;
    await tx.delete(campaignGroupCampaigns).where(and(eq(campaignGroupCampaigns.chainId, before.group.chainId), eq(campaignGroupCampaigns.campaignGroupId, id)));
    await tx.delete(campaignGroups).where(eq(campaignGroups.id, id));
    return before;
  });
}

/** The live campaign ids of each group of `groupIds` (all of chain `chainId`), ascending. */
async function liveMembers(db: Reader, chainId: number, groupIds: readonly number[]): Promise<Map<number, number[]>> {
  const rows = await db
    .select({ groupId: campaignGroupCampaigns.campaignGroupId, campaignId: campaignGroupCampaigns.campaignId })
    .from(campaignGroupCampaigns)
    .innerJoin(campaigns, and(eq(campaigns.id, campaignGroupCampaigns.campaignId), eq(campaigns.deleted, false)))
    .where(and(eq(campaignGroupCampaigns.chainId, chainId), inArray(campaignGroupCampaigns.campaignGroupId, [...groupIds])))
    .orderBy(asc(campaignGroupCampaigns.campaignGroupId), asc(campaignGroupCampaigns.campaignId));
  const out = new Map<number, number[]>();
  for (const r of rows) out.set(r.groupId, [...(out.get(r.groupId) ?? []), r.campaignId]);
  return out;
}
