/**
 * `DELETE /internal/delete-campaign-group`: removes the campaign group `id`, keeping its campaigns
 * (spec, "Internal call: delete-campaign-group", "Versioning"). Request: application/json or
 * x-www-form-urlencoded (multipart and the query string are read too). Response `results`:
 * `{campaign_group, result_type: "delete-campaign-group"}`, the group as it stood just before
 * (contract: `@service/shared/internal/delete-campaign-group`).
 *
 * Checks, in order (nothing is written unless all pass):
 * - `X-Service-API-version` 1.0 or later, else the call does not exist for the request: 544
 *   resource_not_found (404), as for any path nothing serves;
 * - a valid session, else 6 no_valid_session (401);
 * - id present, else 441 parameter_missing; an integer, else 419 parameter_invalid;
 * - a group whose chain the caller may DELETE in, else 68 permission_denied_or_non_existent
 *   (403): an unknown group and another chain's group answer alike.
 * Effects, in one transaction: the group and its memberships removed; the campaigns unchanged.
 */
import { okBody } from "@service/shared";
import { DELETE_CAMPAIGN_GROUP_SINCE, deleteCampaignGroupCall, type DeleteCampaignGroupResults } from "@service/shared/internal/delete-campaign-group";
import type { Context } from "hono";
import { CALL_ACCESS } from "../auth/access-table.ts";
import { requireCallAccess, requireSession } from "../auth/context.ts";
import { renderCampaignGroup } from "../campaign-groups/campaign-group-record.ts";
import { deleteCampaignGroup as removeGroup, findCampaignGroup } from "../campaign-groups/campaign-group-repository.ts";
import { versionAtLeast } from "../http/api-version.ts";
import { readCallParams } from "../http/coerce.ts";
import { allParams } from "../http/params.ts";
import type { AppEnv } from "../auth/request-context.ts";
import { ServiceError } from "../http/service-error.ts";

/** Handles delete-campaign-group; see the module comment for the order of checks and the effects. */
export async function deleteCampaignGroup(c: Context<AppEnv>): Promise<Response> {
  const { db, auth, version } = c.var.ctx;
  if (!versionAtLeast(version, ...DELETE_CAMPAIGN_GROUP_SINCE)) {
    throw new ServiceError("resource_not_found", "delete-campaign-group is available from API version 1.0.");
  }
  requireSession(auth);
  const params = await allParams(c);
  const { id } = readCallParams(deleteCampaignGroupCall, params, ["id"]);
  const denied = CALL_ACCESS["delete-campaign-group"].denied;
  const found = await findCampaignGroup(db, id);
  if (!found) throw new ServiceError(denied);
  await requireCallAccess(auth, "delete-campaign-group", found.group.chainId);

  const removed = await removeGroup(db, id);
  // Removed by a concurrent call since it was found: it no longer exists.
  if (!removed) throw new ServiceError(denied);
  const results: DeleteCampaignGroupResults = { campaign_group: renderCampaignGroup(removed, version), result_type: "delete-campaign-group" };
  return c.json(okBody(results));
}
