/**
 * `POST /internal/add-business` (spec, "Internal call: add-business"): creates a business of a
 * chain, or with `update_if_exists` updates the live business of that chain named by
 * `business_id` or else `owner_code`. Request: multipart/form-data, x-www-form-urlencoded or
 * JSON. Response `results`: `{business, result_type: "add-business"}` (contract:
 * `@service/shared/internal/add-business`, whose `addBusinessCall` declares every parameter).
 *
 * Checks, in order (nothing is written unless all pass):
 * - a valid admin session, else 6 no_valid_session (401);
 * - chain_id and name present, else 3 http_vars_missing; chain_id an integer, else 76 chain_id_invalid;
 * - write access to the chain, else 68 permission_denied_or_non_existent (403);
 * - update_if_exists a boolean (316), business_id an integer (15), owner_code (143), then every
 *   field (see business-fields.ts: 98, 124-143, 278, 316, 419, 420, 435, 436, 482);
 * - owner_code free among the chain's live businesses, else 311 business_already_exists.
 * A new business starts with is_shut_down false and programme_opted_in true unless given; an
 * update changes only the fields given.
 */
import { okBody } from "@service/shared";
import { addBusinessCall, type AddBusinessResults } from "@service/shared/internal/add-business";
import type { Context } from "hono";
import { actorAdminIdOf, requireCallAccess, requireSession } from "../auth/context.ts";
import {
  findBusinessById,
  findBusinessByOwnerCode,
  insertBusiness,
  updateBusiness,
  type BusinessRow,
} from "../businesses/business-repository.ts";
import type { CoreDb } from "../db/client.ts";
import { readCallParams, requireParams } from "../http/coerce.ts";
import { allParams } from "../http/params.ts";
import type { AppEnv } from "../http/request-context.ts";
import { ServiceError } from "../http/service-error.ts";
import { readBusinessFields } from "./business-fields.ts";
import { renderBusiness } from "./business-record.ts";

/** Handles add-business; see the module comment for parameters, order of checks and errors. */
export async function addBusiness(c: Context<AppEnv>): Promise<Response> {
  const { db, auth, now, version } = c.var.ctx;
  requireSession(auth);
  const params = await allParams(c);
  requireParams(addBusinessCall, params);
  const { chain_id: chainId } = readCallParams(addBusinessCall, params, ["chain_id"]);
  await requireCallAccess(auth, "add-business", chainId);

  const target = readCallParams(addBusinessCall, params, ["update_if_exists", "business_id", "owner_code"]);
  const existing = target.update_if_exists ? await findExisting(db, chainId, target.business_id, target.owner_code) : null;
  const changes = readBusinessFields(params, addBusinessCall, { current: existing });

  const audit = { lastUpdatedBy: actorAdminIdOf(auth) };
  const updated = existing ? await updateBusiness(db, chainId, existing.id, { ...changes, ...audit }, now) : null;
  // A business deleted between the look-up and the update no longer exists: create one instead.
  const row = updated ?? (await insertBusiness(db, { ...changes, name: changes.name!, chainId, ...audit }, now));
  const results: AddBusinessResults = { business: renderBusiness(row, version), result_type: "add-business" };
  return c.json(okBody(results));
}

/** The live business of the chain named by business_id, else by owner_code; null when neither names one. */
async function findExisting(
  db: CoreDb,
  chainId: number,
  businessId: number | undefined,
  ownerCode: string | null | undefined,
): Promise<BusinessRow | null> {
  const byId = businessId === undefined ? null : await findBusinessById(db, chainId, businessId);
  return byId ?? (ownerCode ? await findBusinessByOwnerCode(db, chainId, ownerCode) : null);
}
