/**
 * `POST /internal/add-campaign`: creates a campaign of a chain and records its creation in the
 * change log (spec, "Campaign", "Change log entry"). Request: multipart/form-data,
 * x-www-form-urlencoded or JSON. Response `results`: `{campaign, result_type: "add-campaign"}`
 * (contract: `@service/shared/internal/add-campaign`, whose `addCampaignCall` declares every parameter).
 *
 * Parameters: chain_id (integer, mandatory); title (mandatory, max 255); is_active (boolean,
 * default false); active_date_from, active_date_until (RFC 3339 or `YYYY-MM-DD HH:MM:SS` UTC).
 *
 * Checks, in order (nothing is written unless all pass), as add-business does:
 * - a valid admin session, else 6 no_valid_session (401);
 * - chain_id and title present, else 3 http_vars_missing; chain_id an integer, else 76 chain_id_invalid;
 * - write access to the chain, else 68 permission_denied_or_non_existent (403);
 * - the fields (campaigns/fields.ts: 482 title too long, 316 is_active, 419 datetimes), then
 *   active_date_from <= active_date_until, else 419 parameter_invalid.
 * The change log entry: model_class `Campaign`, changed_by the admin, change_endpoint
 * `internal/add-campaign`, diff `{field: {from: null, to}}` of every field set.
 */
import { okBody } from "@service/shared";
import { addCampaignCall, type AddCampaignResults } from "@service/shared/internal/add-campaign";
import type { Context } from "hono";
import { actorAdminIdOf, requireCallAccess, requireSession } from "../auth/context.ts";
import { readCampaignFields } from "../campaigns/fields.ts";
import { renderCampaign } from "../campaigns/campaign-record.ts";
import { createCampaign } from "../campaigns/campaign-repository.ts";
import { readCallParams, requireParams } from "../http/coerce.ts";
import { allParams } from "../http/params.ts";
import type { AppEnv } from "../auth/request-context.ts";

/** change_endpoint of the entries this call records. */
export const ADD_CAMPAIGN_ENDPOINT = "internal/add-campaign";

/** Handles add-campaign; see the module comment for parameters, order of checks and errors. */
export async function addCampaign(c: Context<AppEnv>): Promise<Response> {
  const { db, auth, now, version } = c.var.ctx;
  requireSession(auth);
  const params = await allParams(c);
  requireParams(addCampaignCall, params);
  const { chain_id: chainId } = readCallParams(addCampaignCall, params, ["chain_id"]);
  await requireCallAccess(auth, "add-campaign", chainId);

  const fields = readCampaignFields(params, addCampaignCall);
  const row = await createCampaign(
    db,
    {
      chainId,
      title: fields.title!,
      isActive: fields.isActive ?? false,
      activeDateFrom: fields.activeDateFrom ?? null,
      activeDateUntil: fields.activeDateUntil ?? null,
    },
    { adminId: actorAdminIdOf(auth), endpoint: ADD_CAMPAIGN_ENDPOINT },
    now,
  );
  const results: AddCampaignResults = { campaign: renderCampaign(row, version), result_type: "add-campaign" };
  return c.json(okBody(results));
}
