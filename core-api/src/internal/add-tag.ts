/**
 * `POST /auth/add-tag`: creates an active tag of a chain (the minimal home of tags; record: spec,
 * "Other records seen in internal call responses"). Request: multipart/form-data,
 * x-www-form-urlencoded or JSON. Response `results`: `{tag, result_type: "add-tag"}` (contract:
 * `@service/shared/internal/add-tag`).
 *
 * Checks, in order (nothing is written unless all pass):
 * - a valid session, else 6 no_valid_session (401);
 * - chain_id present, else 3 http_vars_missing; an integer, else 76 chain_id_invalid;
 * - an admin (user and privileged authentication are not permitted, as for delete-tag) with write
 *   access to the chain, else 68 permission_denied_or_non_existent (403);
 * - value present, else 441 parameter_missing; at most 255 characters, else 482
 *   string_parameter_too_long; text, else 419 parameter_invalid;
 * - model_class (default `user`): a lower-case name of at most 64 characters, else 482 / 419.
 */
import { okBody } from "@service/shared";
import { addTagCall, type AddTagResults } from "@service/shared/internal/add-tag";
import type { Context } from "hono";
import { actorAdminIdOf, requireCallAccess, requireSession } from "../auth/context.ts";
import { readCallParams } from "../http/coerce.ts";
import { allParams } from "../http/params.ts";
import type { AppEnv } from "../auth/request-context.ts";
import { renderTag } from "../tags/tag-record.ts";
import { createTag } from "../tags/tag-repository.ts";

/** Handles add-tag; see the module comment for the order of checks. */
export async function addTag(c: Context<AppEnv>): Promise<Response> {
  const { db, auth, now, version } = c.var.ctx;
  requireSession(auth);
  const params = await allParams(c);
  const { chain_id: chainId } = readCallParams(addTagCall, params, ["chain_id"]);
  await requireCallAccess(auth, "add-tag", chainId);
  const { value, model_class: modelClass } = readCallParams(addTagCall, params, ["value", "model_class"]);
  const stored = await createTag(db, { chainId, modelClass, value, lastUpdatedBy: actorAdminIdOf(auth) }, now);
  const results: AddTagResults = { tag: renderTag(stored, version), result_type: "add-tag" };
  return c.json(okBody(results));
}
