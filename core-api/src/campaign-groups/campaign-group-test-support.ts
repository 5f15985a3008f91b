/**
 * Row checks shared by the campaign group tests: what is stored, read straight from the database
 * so a test sees writes (or their absence) rather than the API's own account of them.
 */
import { asc, eq, sql } from "drizzle-orm";
import type { TestCore } from "../../../test/helpers/core.ts";
import { campaignGroupCampaigns, campaignGroups } from "../db/schema.ts";

/** Number of group rows and of membership rows, over all chains. */
export async function countGroupRows(core: TestCore): Promise<{ groups: number; members: number }> {
  const [rows] = (await core.db.execute(
    sql`SELECT (SELECT COUNT(*) FROM campaign_groups) AS g, (SELECT COUNT(*) FROM campaign_group_campaigns) AS m`,
  )) as unknown as [Array<{ g: number; m: number }>];
  return { groups: Number(rows[0]!.g), members: Number(rows[0]!.m) };
}

/** The stored row of group `id` (undefined when there is none) and its member campaign ids, ascending. */
export async function groupRows(core: TestCore, id: number) {
  const [group] = await core.db.select().from(campaignGroups).where(eq(campaignGroups.id, id));
  const members = await core.db
    .select({ campaignId: campaignGroupCampaigns.campaignId })
    .from(campaignGroupCampaigns)
    .where(eq(campaignGroupCampaigns.campaignGroupId, id))
    .orderBy(asc(campaignGroupCampaigns.campaignId));
  return { group, campaignIds: members.map((m) => m.campaignId) };
}
