/**
 * The webhooks of a campaign (spec, "Internal call: delete-campaign": "associated webhooks
 * deleted"; "Events": "Deleting a campaign deletes the webhooks associated with it").
 * delete-campaign calls `deleteCampaignWebhooks` inside the transaction that deletes the
 * campaign, so the campaign and its webhooks go together or not at all.
 */
import { and, eq, sql } from "drizzle-orm";
import { webhooks } from "../db/schema.ts";
import type { CoreTx } from "./change-log.ts";

/** The campaign whose webhooks go. */
export interface CampaignRef {
  id: number;
  chainId: number;
}

/**
 * Soft-deletes the live webhooks of `campaign` (filtering on the chain first): they receive
 * nothing from then on, and deliveries still owed to them fail (webhooks/webhook-destination.ts).
 * @param tx the transaction that deletes the campaign
 * @returns the number of webhooks deleted
 */
export async function deleteCampaignWebhooks(tx: CoreTx, campaign: CampaignRef): Promise<number> {
  const [res] = await tx
    .update(webhooks)
    .set({ deleted: true, active: false, lastModifiedDate: sql`CURRENT_TIMESTAMP` })
    .where(and(eq(webhooks.chainId, campaign.chainId), eq(webhooks.campaignId, campaign.id), eq(webhooks.deleted, false)));
  return res.affectedRows;
}
