/**
 * The change log call, `GET /resources/campaign/{id}/change_log` (spec, "Change log call",
 * "Change log entry", "Versioning"). The Campaign resource offers only this: every other method
 * here, and `/resources/campaign` or `/resources/campaign/{id}` themselves, answer 544.
 *
 * Order of checks (as the engine's): an admin session (6 no_valid_session), X-Service-Chain-ID a
 * positive integer (419), READ access on that chain (else 544), the path id an integer (else
 * 544: no such resource path), the list parameters (419), then the campaign: 544
 * resource_not_found when it does not exist or belongs to another chain than the header's; with
 * the missing-READ case all three answer alike. A deleted campaign's change log stays readable
 * (its entries, the delete entry among them, are the audit trail of what happened to it).
 *
 * List parameters: limit (1-500, default 25), offset (default 0), sort_by (`created_date`, the
 * default, or `last_modified_date`), sort_order (`asc` or `desc`, default `desc` whatever the
 * key, so the newest entries come first); any other parameter is 419 parameter_invalid. Ties
 * are ordered by entry id in the same direction.
 *
 * Each entry's diff is returned exactly as recorded, whatever the version; its created_date and
 * last_modified_date are formatted per X-Service-API-version; `changed_by` is `{id, firstname,
 * lastname}` before 1.6.8 and the integer admin id from 1.6.8 (the spec leaves the boundary open;
 * 1.6.8 is the version that introduced the other 1.6.8 forms, so the two move together).
 */
import { okBody } from "@service/shared";
import { CHANGE_LOG_RESOURCE } from "../auth/access-table.ts";
import { RESOURCES } from "@service/shared/resources/resource-registry";
import {
  CHANGE_LOG_RESULT_TYPE,
  changeLogEntryResource,
  type ChangeLogResults,
} from "@service/shared/resources/change-log";
import { parseIntegerText } from "@service/shared/text-values";
import type { Context } from "hono";
import { listChanges, type ChangeLogPage, type StoredChange } from "../campaigns/change-log.ts";
import { CAMPAIGN_MODEL_CLASS, findCampaignRow } from "../campaigns/campaign-repository.ts";
import { versionAtLeast } from "../http/api-version.ts";
import { queryParams, type Params } from "../http/params.ts";
import type { AppEnv } from "../auth/request-context.ts";
import { requestHeader } from "../http/request-headers.ts";
import { ServiceError } from "../http/service-error.ts";
import { parseListParams } from "./list-params.ts";
import { parseRecursionLevel, renderResource } from "./render.ts";
import { resolveScope, type ResourceScope } from "./request-scope.ts";

/** The route of the campaign change log. */
export const CAMPAIGN_CHANGE_LOG_PATH = "/resources/campaign/:id/change_log";

const DECLARATION = changeLogEntryResource;

/**
 * Serves the campaign change log; see the module comment for parameters, checks and errors.
 * @returns `results: {result_type: "model-change-logs", offset, limit, total_count, resources}`
 * @throws ServiceError resource_not_found (544) for a method other than GET
 */
export async function serveCampaignChangeLog(c: Context<AppEnv>): Promise<Response> {
  if (c.req.method.toUpperCase() !== "GET") {
    throw new ServiceError("resource_not_found", `${c.req.method} is not available on a change log.`);
  }
  // Admins with READ only (access table): tokens and shoppers get 544 like a missing campaign.
  const scope = await resolveScope(c.get("ctx"), {
    resource: CHANGE_LOG_RESOURCE,
    operation: "get",
    chainHeader: requestHeader(c, "x-service-chain-id"),
    recursionLevel: parseRecursionLevel(requestHeader(c, "x-service-response-recursion-level")),
  });
  const campaignId = pathId(c.req.param("id"));
  const page = readChangeLogQuery(queryParams(c));

  const campaign = await findCampaignRow(scope.db, campaignId);
  // The catalogue's description, as resolveScope's: the three cases must read the same.
  if (!campaign || campaign.chainId !== scope.chainId) throw new ServiceError("resource_not_found");
  const { changes, total } = await listChanges(scope.db, {
    ...page,
    chainId: scope.chainId,
    modelClass: CAMPAIGN_MODEL_CLASS,
    modelId: campaign.id,
  });
  const results: ChangeLogResults = {
    result_type: CHANGE_LOG_RESULT_TYPE,
    offset: page.offset,
    limit: page.limit,
    total_count: total,
    resources: changes.map((change) => renderEntry(scope, change) as ChangeLogResults["resources"][number]),
  };
  return c.json(okBody(results));
}

/**
 * Reads the change log's list parameters.
 * @param query query-string parameters
 * @throws ServiceError parameter_invalid (419) for a parameter other than limit, offset, sort_by
 *   and sort_order, or a value out of its range
 */
export function readChangeLogQuery(query: Params): Pick<ChangeLogPage, "sortBy" | "order" | "limit" | "offset"> {
  // The generic reader accepts match_all for resources with text search; a change log has none.
  if ("match_all" in query) throw new ServiceError("parameter_invalid", "Unknown parameter match_all.");
  const q = parseListParams(DECLARATION, query);
  return {
    sortBy: (q.sort?.property ?? "created_date") as ChangeLogPage["sortBy"],
    order: "sort_order" in query ? q.order : "desc",
    limit: q.limit,
    offset: q.offset,
  };
}

/** The campaign id of the path (the one text rule); anything but an integer in the id range names no resource path (544). */
function pathId(raw: string | undefined): number {
  const id = parseIntegerText(raw ?? "");
  if (id === undefined || id < 0 || id > 2_147_483_647) throw new ServiceError("resource_not_found");
  return id;
}

function renderEntry(scope: ResourceScope, change: StoredChange): Record<string, unknown> {
  const changedBy = change.changedBy && versionAtLeast(scope.version, 1, 6, 8) ? change.changedBy.id : change.changedBy;
  return renderResource(
    DECLARATION,
    {
      id: change.id,
      model_class: change.modelClass,
      model_id: change.modelId,
      changed_by: changedBy,
      change_endpoint: change.changeEndpoint,
      diff: change.diff,
      created_date: change.createdDate,
      last_modified_date: change.lastModifiedDate,
    },
    scope.recursionLevel,
    { version: scope.version, resources: RESOURCES },
  );
}
