/**
 * `DELETE /internal/delete-campaign`: deletes the campaign `campaign_id` (spec, "Internal call:
 * delete-campaign"). Request: application/json or x-www-form-urlencoded (multipart and the query
 * string are read too). Response `results`: `{campaign_id, is_active: false, is_deleted: true,
 * result_type: "delete-campaign"}` (contract: `@service/shared/internal/delete-campaign`).
 *
 * Checks, in order (nothing is written unless all pass):
 * - a valid session, else 6 no_valid_session (401);
 * - campaign_id present, else 245 campaign_id_not_present; an integer, else 244 campaign_id_invalid;
 * - a live campaign the caller can see, else 246 campaign_id_not_found (404): an unknown id, a
 *   deleted campaign and another chain's campaign answer alike (internal/campaign-access.ts);
 * - write access to its chain and the campaign permission (`permissions_business_chain_campaign`,
 *   the admin level `campaign`), else 68 permission_denied_or_non_existent (403);
 * - when the chain's restrict_campaign_enable is on and the campaign is active: campaign_enable
 *   (a super user holds it), else 68; an inactive campaign needs no campaign_enable.
 * Effects, in one transaction: the campaign's webhooks deleted (campaigns/campaign-webhooks.ts, a
 * hook until webhooks exist), the campaign inactive and deleted, one change log entry
 * (change_endpoint `internal/delete-campaign`; diff is_active when it was active, deleted,
 * last_updated_date). Deleting it again answers 246.
 */
import { okBody } from "@service/shared";
import { deleteCampaignCall, type DeleteCampaignResults } from "@service/shared/internal/delete-campaign";
import type { Context } from "hono";
import { actorAdminIdOf, requireSession } from "../auth/context.ts";
import { requireCampaignDeletion } from "./campaign-access.ts";
import { deleteCampaign as storeDeletion } from "../campaigns/campaign-repository.ts";
import { readCallParams } from "../http/coerce.ts";
import { allParams } from "../http/params.ts";
import type { AppEnv } from "../auth/request-context.ts";
import { ServiceError } from "../http/service-error.ts";

/** change_endpoint of the entries this call records. */
export const DELETE_CAMPAIGN_ENDPOINT = "internal/delete-campaign";

/** Handles delete-campaign; see the module comment for the order of checks and the effects. */
export async function deleteCampaign(c: Context<AppEnv>): Promise<Response> {
  const { db, auth, now } = c.var.ctx;
  requireSession(auth);
  const params = await allParams(c);
  const { campaign_id: campaignId } = readCallParams(deleteCampaignCall, params, ["campaign_id"]);
  const { mayDeleteActive } = await requireCampaignDeletion(db, auth, campaignId);

  const row = await storeDeletion(db, campaignId, { adminId: actorAdminIdOf(auth), endpoint: DELETE_CAMPAIGN_ENDPOINT }, now, { mayDeleteActive });
  // Deleted by a concurrent call between the access check and the locked read: it no longer exists.
  if (!row) throw new ServiceError("campaign_id_not_found");
  const results: DeleteCampaignResults = { campaign_id: row.id, is_active: false, is_deleted: true, result_type: "delete-campaign" };
  return c.json(okBody(results));
}
