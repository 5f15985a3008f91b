/**
 * `GET /internal/get-businesses` (spec, "Internal call: get-businesses"): the businesses of a
 * chain, by text and / or location search, paged. Response `results`:
 * `{businesses: [...], result_type: "get-businesses"}` (contract:
 * `@service/shared/internal/get-businesses`, whose `getBusinessesCall` declares every parameter); with coordinates each business carries
 * `business_distance_km`.
 *
 * Checks, in order: a valid admin session, else 6 no_valid_session (401); chain_id present, else
 * 3 http_vars_missing, and an integer, else 76 chain_id_invalid; read access to the chain, else
 * 68 permission_denied_or_non_existent (403); then the search parameters (business-query.ts).
 */
import { okBody } from "@service/shared";
import { getBusinessesCall, type GetBusinessesResults } from "@service/shared/internal/get-businesses";
import type { Context } from "hono";
import { requireCallAccess, requireSession } from "../auth/context.ts";
import { searchBusinesses } from "../businesses/search.ts";
import { readCallParams } from "../http/coerce.ts";
import { jsonResponse } from "../http/json-response.ts";
import { allParams } from "../http/params.ts";
import type { AppEnv } from "../auth/request-context.ts";
import { renderListedBusiness } from "./business-record.ts";
import { readBusinessQuery } from "./business-query.ts";

/** Handles get-businesses; see the module comment for the order of checks and errors. */
export async function getBusinesses(c: Context<AppEnv>): Promise<Response> {
  const { db, auth, version } = c.var.ctx;
  requireSession(auth);
  const params = await allParams(c);
  const { chain_id: chainId } = readCallParams(getBusinessesCall, params, ["chain_id"]);
  // A read_businesses token may use this call too (spec, "AccessToken": Scope).
  await requireCallAccess(auth, "get-businesses", chainId);
  const query = readBusinessQuery(params, chainId);
  // get-businesses answers no total: the search does not count one.
  const hits = query ? (await searchBusinesses(db, query, { total: false })).hits : [];
  const results: GetBusinessesResults = {
    businesses: hits.map((hit) => renderListedBusiness(hit, version)),
    result_type: "get-businesses",
  };
  return jsonResponse(c, okBody(results));
}
