/**
 * The webhooks of a campaign (spec, "Internal call: delete-campaign": "associated webhooks
 * deleted"; "Events": "Deleting a campaign deletes the webhooks associated with it").
 *
 * Webhooks do not exist yet: the issue that adds them (their table, configuration and events)
 * fills `deleteCampaignWebhooks`. delete-campaign already calls it inside the transaction that
 * deletes the campaign, so the campaign and its webhooks go together or not at all.
 */
import type { CoreTx } from "./change-log.ts";

/** The campaign whose webhooks go. */
export interface CampaignRef {
  id: number;
  chainId: number;
}

/**
 * Deletes the webhooks associated with `campaign`. A hook point: there are no webhooks yet, so it
 * deletes nothing; the webhooks issue implements it (filtering on the chain first).
 * @param tx the transaction that deletes the campaign
 * @returns the number of webhooks deleted (0 until webhooks exist)
 */
export async function deleteCampaignWebhooks(tx: CoreTx, campaign: CampaignRef): Promise<number> {
  void tx;
  void campaign;
  return 0;
}
