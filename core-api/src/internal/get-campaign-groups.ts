/**
 * `GET /internal/get-campaign-groups?chain_id=`: the campaign groups of a chain, oldest first.
 * Response `results`: `{campaign_groups, result_type: "get-campaign-groups"}` (contract:
 * `@service/shared/internal/get-campaign-groups`).
 *
 * Checks, in order:
 * - a valid session, else 6 no_valid_session (401);
 * - chain_id present, else 3 http_vars_missing; an integer, else 76 chain_id_invalid;
 * - read access to the chain, else 68 permission_denied_or_non_existent (403);
 * - limit 1-500 (default 500) and offset >= 0 (default 0), else 419 parameter_invalid.
 */
import { okBody } from "@service/shared";
import { getCampaignGroupsCall, type GetCampaignGroupsResults } from "@service/shared/internal/get-campaign-groups";
import type { Context } from "hono";
import { requireCallAccess, requireSession } from "../auth/context.ts";
import { renderCampaignGroup } from "../campaign-groups/campaign-group-record.ts";
import { listCampaignGroups } from "../campaign-groups/campaign-group-repository.ts";
import { readCallParams } from "../http/coerce.ts";
import { allParams } from "../http/params.ts";
import type { AppEnv } from "../auth/request-context.ts";

/** Handles get-campaign-groups; see the module comment for the order of checks. */
export async function getCampaignGroups(c: Context<AppEnv>): Promise<Response> {
  const { db, auth, version } = c.var.ctx;
  requireSession(auth);
  const params = await allParams(c);
  const { chain_id: chainId } = readCallParams(getCampaignGroupsCall, params, ["chain_id"]);
  await requireCallAccess(auth, "get-campaign-groups", chainId);
  const { limit, offset } = readCallParams(getCampaignGroupsCall, params, ["limit", "offset"]);
  const groups = await listCampaignGroups(db, chainId, { limit, offset });
  const results: GetCampaignGroupsResults = { campaign_groups: groups.map((g) => renderCampaignGroup(g, version)), result_type: "get-campaign-groups" };
  return c.json(okBody(results));
}
