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
 * - owner_code free among the chain's live businesses, else 311 business_already_exists; with
 *   update_if_exists a concurrent call that creates the owner_code first makes this call update
 *   that business instead (see updateOrCreate).
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
  type BusinessChanges,
  type BusinessRow,
} from "../businesses/business-repository.ts";
import type { CoreDb } from "../db/client.ts";
import { readCallParams, requireParams } from "../http/coerce.ts";
import { allParams } from "../http/params.ts";
import type { AppEnv } from "../auth/request-context.ts";
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
  const audit = { lastUpdatedBy: actorAdminIdOf(auth) };
  const row = await updateOrCreate(db, chainId, target, now, (existing) => ({
    ...readBusinessFields(params, addBusinessCall, { current: existing }),
    ...audit,
  }));
  const results: AddBusinessResults = { business: renderBusiness(row, version), result_type: "add-business" };
  return c.json(okBody(results));
}

/**
 * Attempts of look-up and write with update_if_exists: an insert that loses the race for its
 * owner_code is retried as an update of the winner's business; a third attempt covers that
 * business being deleted in between.
 */
const UPDATE_OR_CREATE_ATTEMPTS = 3;

/**
 * Updates the business update_if_exists names, else creates one, with the changes `changesFor`
 * reads against it. When the insert loses the race for the owner_code to a concurrent call (311
 * from the unique index), the look-up runs again and updates the business that call created:
 * "update or create" succeeds under concurrency and leaves one business.
 * @throws ServiceError business_already_exists (311) without update_if_exists, when an update
 *   moves to a taken owner_code, or when the owner_code stays taken after every attempt; the
 *   field errors of `changesFor`
 */
async function updateOrCreate(
  db: CoreDb,
  chainId: number,
  target: { update_if_exists?: boolean; business_id?: number; owner_code?: string | null },
  now: Date,
  changesFor: (existing: BusinessRow | null) => BusinessChanges,
): Promise<BusinessRow> {
  for (let attempt = 1; ; attempt++) {
    const existing = target.update_if_exists ? await findExisting(db, chainId, target.business_id, target.owner_code) : null;
    const changes = changesFor(existing);
    const updated = existing ? await updateBusiness(db, chainId, existing.id, changes, now) : null;
    if (updated) return updated;
    // No business to update (or it was deleted since the look-up): create one.
    try {
      return await insertBusiness(db, { ...changes, name: changes.name!, chainId }, now);
    } catch (err) {
      const lostRace = err instanceof ServiceError && err.errorName === "business_already_exists";
      if (!target.update_if_exists || !lostRace || attempt >= UPDATE_OR_CREATE_ATTEMPTS) throw err;
    }
  }
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
