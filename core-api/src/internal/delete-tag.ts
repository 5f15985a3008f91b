/**
 * `DELETE /auth/delete-tag?id=`: marks the tag `id` inactive and deleted (spec, "Internal call:
 * delete-tag"). Request: the query string, application/json or x-www-form-urlencoded. Response
 * `results`: `{tag, result_type: "delete-tag"}`, the tag as stored after the call (contract:
 * `@service/shared/internal/delete-tag`).
 *
 * Checks, in order (nothing is written unless all pass):
 * - a valid session, else 6 no_valid_session (401);
 * - id present, else 441 parameter_missing; an integer, else 419 parameter_invalid;
 * - a tag that is not deleted, of a chain where the caller is an admin with DELETE access, else
 *   68 permission_denied_or_non_existent (403): user and privileged authentication are not
 *   permitted, and an unknown, already deleted or other chain's tag answers alike.
 * Effects: `active` false, `deleted` true, last_modified_date now, last changed by the admin.
 */
import { okBody } from "@service/shared";
import { deleteTagCall, type DeleteTagResults } from "@service/shared/internal/delete-tag";
import type { Context } from "hono";
import { CALL_ACCESS } from "../auth/access-table.ts";
import { actorAdminIdOf, requireCallAccess, requireSession } from "../auth/context.ts";
import { readCallParams } from "../http/coerce.ts";
import { allParams } from "../http/params.ts";
import type { AppEnv } from "../auth/request-context.ts";
import { ServiceError } from "../http/service-error.ts";
import { renderTag } from "../tags/tag-record.ts";
import { deleteTag as storeDeletion, findTag } from "../tags/tag-repository.ts";

/** Handles delete-tag; see the module comment for the order of checks and the effects. */
export async function deleteTag(c: Context<AppEnv>): Promise<Response> {
  const { db, auth, now, version } = c.var.ctx;
  requireSession(auth);
  const params = await allParams(c);
  const { id } = readCallParams(deleteTagCall, params, ["id"]);
  const denied = CALL_ACCESS["delete-tag"].denied;
  const found = await findTag(db, id, { live: true });
  if (!found) throw new ServiceError(denied);
  await requireCallAccess(auth, "delete-tag", found.tag.chainId);

  // Deleted by a concurrent call since it was found: it no longer exists.
  if (!(await storeDeletion(db, found.tag.chainId, id, actorAdminIdOf(auth), now))) throw new ServiceError(denied);
  const results: DeleteTagResults = { tag: renderTag((await findTag(db, id))!, version), result_type: "delete-tag" };
  return c.json(okBody(results));
}
