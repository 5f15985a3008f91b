/**
 * `GET /auth/get-tags?chain_id=`: the tags of a chain that are not deleted, oldest first.
 * Response `results`: `{tags, result_type: "get-tags"}` (contract: `@service/shared/internal/get-tags`).
 *
 * Checks, in order:
 * - a valid session, else 6 no_valid_session (401);
 * - chain_id present, else 3 http_vars_missing; an integer, else 76 chain_id_invalid;
 * - an admin (not a shopper nor a privileged token) with read access to the chain, else 68
 *   permission_denied_or_non_existent (403);
 * - model_class (optional filter; 482 / 419), limit 1-500 (default 500), offset >= 0, else 419.
 */
import { okBody } from "@service/shared";
import { getTagsCall, type GetTagsResults } from "@service/shared/internal/get-tags";
import type { Context } from "hono";
import { requireCallAccess, requireSession } from "../auth/context.ts";
import { readCallParams } from "../http/coerce.ts";
import { allParams } from "../http/params.ts";
import type { AppEnv } from "../auth/request-context.ts";
import { renderTag } from "../tags/tag-record.ts";
import { listTags } from "../tags/tag-repository.ts";

/** Handles get-tags; see the module comment for the order of checks. */
export async function getTags(c: Context<AppEnv>): Promise<Response> {
  const { db, auth, version } = c.var.ctx;
  requireSession(auth);
  const params = await allParams(c);
  const { chain_id: chainId } = readCallParams(getTagsCall, params, ["chain_id"]);
  await requireCallAccess(auth, "get-tags", chainId);
  const p = readCallParams(getTagsCall, params, ["model_class", "limit", "offset"]);
  const rows = await listTags(db, chainId, { ...(p.model_class === undefined ? {} : { modelClass: p.model_class }), limit: p.limit, offset: p.offset });
  const results: GetTagsResults = { tags: rows.map((t) => renderTag(t, version)), result_type: "get-tags" };
  return c.json(okBody(results));
}
