/**
 * `PUT /internal/alter-campaign`: changes the campaign `campaign_id` and records the change in the
 * change log (spec, "Campaign", "Change log entry"). Request: multipart/form-data,
 * x-www-form-urlencoded or JSON. Every parameter but campaign_id is optional: an absent one
 * leaves its field unchanged, an empty active date clears it. Response `results`:
 * `{campaign, result_type: "alter-campaign"}` (contract: `@service/shared/internal/alter-campaign`).
 *
 * Checks, in order (nothing is written unless all pass):
 * - a valid admin session, else 6 no_valid_session (401);
 * - campaign_id present, else 245 campaign_id_not_present; an integer, else 244 campaign_id_invalid;
 * - a live campaign the admin can see, else 246 campaign_id_not_found (404): an unknown id and a
 *   campaign of a chain the admin cannot read answer alike (internal/campaign-access.ts); write access to
 *   its chain, else 68 permission_denied_or_non_existent (403);
 * - the fields (campaigns/fields.ts: 482, 316, 419), then the resulting active period
 *   (from <= until, the stored date standing in for one not given), else 419 parameter_invalid.
 * A call that changes nothing writes nothing: no entry, last_modified_date kept. Otherwise one
 * entry: change_endpoint `internal/alter-campaign`, diff of the changed fields plus
 * last_updated_date.
 */
import { okBody } from "@service/shared";
import type { AlterCampaignResults } from "@service/shared/internal/alter-campaign";
import type { Context } from "hono";
import { actorAdminIdOf, requireSession } from "../auth/context.ts";
import { requireCampaignAccess } from "./campaign-access.ts";
import { readCampaignFields, readCampaignId } from "../campaigns/fields.ts";
import { renderCampaign } from "../campaigns/campaign-record.ts";
import { alterCampaign as storeChanges } from "../campaigns/campaign-repository.ts";
import { allParams } from "../http/params.ts";
import type { AppEnv } from "../auth/request-context.ts";
import { ServiceError } from "../http/service-error.ts";

/** change_endpoint of the entries this call records. */
export const ALTER_CAMPAIGN_ENDPOINT = "internal/alter-campaign";

/** Handles alter-campaign; see the module comment for parameters, order of checks and errors. */
export async function alterCampaign(c: Context<AppEnv>): Promise<Response> {
  const { db, auth, now, version } = c.var.ctx;
  requireSession(auth);
  const params = await allParams(c);
  const campaignId = readCampaignId(params);
  await requireCampaignAccess(db, auth, campaignId, "alter-campaign");

  const fields = readCampaignFields(params);
  const row = await storeChanges(db, campaignId, fields, { adminId: actorAdminIdOf(auth), endpoint: ALTER_CAMPAIGN_ENDPOINT }, now);
  // Deleted between the access check and the locked read: it no longer exists.
  if (!row) throw new ServiceError("campaign_id_not_found");
  const results: AlterCampaignResults = { campaign: renderCampaign(row, version), result_type: "alter-campaign" };
  return c.json(okBody(results));
}
