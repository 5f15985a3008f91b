/**
 * `POST /internal/add-campaign-group`: creates a group of a chain's campaigns (the minimal home of
 * campaign groups; record: spec, "Other records seen in internal call responses"). Request:
 * multipart/form-data, x-www-form-urlencoded or JSON. Response `results`: `{campaign_group,
 * result_type: "add-campaign-group"}` (contract: `@service/shared/internal/add-campaign-group`).
 *
 * Parameters: chain_id (integer, mandatory); name (mandatory, max 255); campaign_ids (JSON array
 * of integers, or text `12,14`); active_date_from, active_date_until (RFC 3339 or
 * `YYYY-MM-DD HH:MM:SS` UTC).
 *
 * Checks, in order (nothing is written unless all pass), as add-campaign does:
 * - a valid session, else 6 no_valid_session (401);
 * - chain_id and name present, else 3 http_vars_missing; chain_id an integer, else 76 chain_id_invalid;
 * - write access to the chain, else 68 permission_denied_or_non_existent (403);
 * - name (482 too long, 419 empty or not text), campaign_ids (244 campaign_id_invalid when not
 *   integers, 419 over 500 ids), the dates (419), then from <= until (419);
 * - every campaign id a live campaign of the chain, else 246 campaign_id_not_found (an unknown id
 *   and another chain's campaign answer alike).
 */
import { okBody } from "@service/shared";
import { addCampaignGroupCall, type AddCampaignGroupResults } from "@service/shared/internal/add-campaign-group";
import { parseDateTime } from "@service/shared/text-values";
import type { Context } from "hono";
import { actorAdminIdOf, requireCallAccess, requireSession } from "../auth/context.ts";
import { renderCampaignGroup } from "../campaign-groups/campaign-group-record.ts";
import { createCampaignGroup } from "../campaign-groups/campaign-group-repository.ts";
import { requireForwardPeriod } from "../campaigns/fields.ts";
import { wholeSeconds } from "../db/whole-seconds.ts";
import { readCallParams, requireParams } from "../http/coerce.ts";
import { allParams } from "../http/params.ts";
import type { AppEnv } from "../auth/request-context.ts";

/** Handles add-campaign-group; see the module comment for parameters, order of checks and errors. */
export async function addCampaignGroup(c: Context<AppEnv>): Promise<Response> {
  const { db, auth, now, version } = c.var.ctx;
  requireSession(auth);
  const params = await allParams(c);
  requireParams(addCampaignGroupCall, params);
  const { chain_id: chainId } = readCallParams(addCampaignGroupCall, params, ["chain_id"]);
  await requireCallAccess(auth, "add-campaign-group", chainId);

  const p = readCallParams(addCampaignGroupCall, params, ["name", "campaign_ids", "active_date_from", "active_date_until"]);
  const activeDateFrom = toSecond(p.active_date_from);
  const activeDateUntil = toSecond(p.active_date_until);
  requireForwardPeriod(activeDateFrom, activeDateUntil);
  const stored = await createCampaignGroup(
    db,
    { chainId, name: p.name, activeDateFrom, activeDateUntil, campaignIds: p.campaign_ids ?? [], lastUpdatedBy: actorAdminIdOf(auth) },
    now,
  );
  const results: AddCampaignGroupResults = { campaign_group: renderCampaignGroup(stored, version), result_type: "add-campaign-group" };
  return c.json(okBody(results));
}

/** A declared datetime text (already checked) as the instant it names, to the second; absent or null: no date. */
function toSecond(text: string | null | undefined): Date | null {
  if (text === null || text === undefined) return null;
  return wholeSeconds(parseDateTime(text)!);
}
