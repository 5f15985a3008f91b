/**
 * `GET /internal/get-campaign?campaign_id=`: one campaign (spec, "Campaign"). Response
 * `results`: `{campaign, result_type: "get-campaign"}` (contract:
 * `@service/shared/internal/get-campaign`).
 *
 * Checks, in order:
 * - a valid admin session, else 6 no_valid_session (401);
 * - campaign_id present, else 245 campaign_id_not_present; an integer, else 244 campaign_id_invalid;
 * - a live campaign of a chain where the admin has read access, else 246 campaign_id_not_found
 *   (404): an unknown id and another chain's campaign answer alike (internal/campaign-access.ts).
 */
import { okBody } from "@service/shared";
import { getCampaignCall, type GetCampaignResults } from "@service/shared/internal/get-campaign";
import type { Context } from "hono";
import { requireSession } from "../auth/context.ts";
import { requireCampaignAccess } from "./campaign-access.ts";
import { readCampaignId } from "../campaigns/fields.ts";
import { renderCampaign } from "../campaigns/campaign-record.ts";
import { allParams } from "../http/params.ts";
import type { AppEnv } from "../auth/request-context.ts";

/** Handles get-campaign; see the module comment for parameters, order of checks and errors. */
export async function getCampaign(c: Context<AppEnv>): Promise<Response> {
  const { db, auth, version } = c.var.ctx;
  requireSession(auth);
  const params = await allParams(c);
  const row = await requireCampaignAccess(db, auth, readCampaignId(params, getCampaignCall), "get-campaign");
  const results: GetCampaignResults = { campaign: renderCampaign(row, version), result_type: "get-campaign" };
  return c.json(okBody(results));
}
