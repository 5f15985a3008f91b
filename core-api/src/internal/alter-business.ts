/**
 * `PUT /internal/alter-business` (spec, "Internal call: alter-business"): changes the business
 * `business_id`. Request: multipart/form-data, x-www-form-urlencoded or JSON; every parameter but
 * business_id is optional, an absent one leaves its field unchanged and an empty text clears a
 * nullable field (not `name`). Response `results`: `{business, result_type: "alter-business"}`
 * (contract: `@service/shared/internal/alter-business`, whose `alterBusinessCall` declares every
 * parameter).
 *
 * Checks, in order (nothing is written unless all pass):
 * - a valid admin session, else 6 no_valid_session (401);
 * - business_id present, else 3 http_vars_missing; an integer, else 15 business_id_invalid;
 * - a live business with that id in a chain where the admin has write access, else 68
 *   permission_denied_or_non_existent (403): an unknown id and another chain's business answer
 *   alike, so the call never reveals that a business exists;
 * - every field (see business-fields.ts: 98, 124-143, 278, 316, 419, 420, 482);
 * - owner_code free among the chain's live businesses, else 311 business_already_exists.
 */
import { okBody } from "@service/shared";
import { alterBusinessCall, type AlterBusinessResults } from "@service/shared/internal/alter-business";
import type { Context } from "hono";
import { actorAdminIdOf, requireCallAccess, requireSession } from "../auth/context.ts";
import { findBusinessesByIds, updateBusiness } from "../businesses/business-repository.ts";
import { readCallParams } from "../http/coerce.ts";
import { allParams } from "../http/params.ts";
import type { AppEnv } from "../auth/request-context.ts";
import { ServiceError } from "../http/service-error.ts";
import { readBusinessFields } from "./business-fields.ts";
import { renderAlteredBusiness } from "./business-record.ts";

/** Handles alter-business; see the module comment for parameters, order of checks and errors. */
export async function alterBusiness(c: Context<AppEnv>): Promise<Response> {
  const { db, auth, now, version } = c.var.ctx;
  requireSession(auth);
  const params = await allParams(c);
  const { business_id: businessId } = readCallParams(alterBusinessCall, params, ["business_id"]);
  const [current] = await findBusinessesByIds(db, [businessId]);
  if (!current) throw new ServiceError("permission_denied_or_non_existent");
  await requireCallAccess(auth, "alter-business", current.chainId);

  const changes = readBusinessFields(params, alterBusinessCall, { current });
  const row = await updateBusiness(db, current.chainId, businessId, { ...changes, lastUpdatedBy: actorAdminIdOf(auth) }, now);
  if (!row) throw new ServiceError("permission_denied_or_non_existent");
  const results: AlterBusinessResults = { business: renderAlteredBusiness(row, version), result_type: "alter-business" };
  return c.json(okBody(results));
}
