/**
 * The search of get-businesses from its parameters (spec, "Internal call: get-businesses", "List
 * parameters", "Limits"), as a BusinessSearch for the shared search engine. The parameters are
 * read with the call's declaration (`getBusinessesCall`, http/coerce.ts): their types, limits,
 * aliases, defaults and errors are declared there.
 *
 * - Text: `search[name]`, `search[owner_code]` or `search[*]` (one field only; results by
 *   relevance) wins over `name`, which wins over `owner_code` (both in id order). Terms are
 *   separated by spaces or commas; `match_all` true requires every term. A search text with no
 *   letters or digits can match nothing.
 * - Location: `search_lat` / `search_long` (aliases `lat` / `lon`) and `radius` (aliases
 *   `search_radius`, `search_radius_km`; default 25 km): within the radius, nearest first.
 *   Combined with text, both must match and distance orders.
 * - `exclude_inactive` true leaves out shut-down businesses; `limit` 1..500 (default 500),
 *   `offset` >= 0 (default 0).
 *
 * Errors beyond the declared ones: 98 lat_long_both_required (one coordinate), 441
 * parameter_missing (radius without coordinates).
 */
import { DEFAULT_RADIUS_KM } from "@service/shared/limits";
import { getBusinessesCall } from "@service/shared/internal/get-businesses";
import type { BusinessSearch, TextField } from "../businesses/search.ts";
import { parseSearchTerms } from "../businesses/text.ts";
import { readCallParams } from "../http/coerce.ts";
import type { Params } from "../http/params.ts";
import { ServiceError } from "../http/service-error.ts";

const FIELDS_OF: Record<string, TextField[]> = { name: ["name"], owner_code: ["owner_code"], "*": ["name", "owner_code"] };

/**
 * Reads the get-businesses parameters of chain `chainId` (chain_id itself is read before the access check).
 * @returns the search to run, or null when the text search has nothing that could match
 * @throws ServiceError a declared parameter error, or see the module comment
 */
export function readBusinessQuery(params: Params, chainId: number): BusinessSearch | null {
  const p = readCallParams(getBusinessesCall, params, [
    "search", "name", "owner_code", "match_all", "search_lat", "search_long", "radius", "exclude_inactive", "limit", "offset",
  ]);
  const search: BusinessSearch = { chainId, limit: p.limit, offset: p.offset };
  const location = readLocation(p.search_lat, p.search_long, p.radius);
  if (location) search.location = location;
  if (p.exclude_inactive) search.filters = { isShutDown: false };

  const [field, query] = Object.entries(p.search ?? {}).find(([, v]) => v !== "") ?? [];
  const text = field !== undefined && query !== undefined
    ? { query, fields: FIELDS_OF[field]!, byRelevance: true }
    : p.name
      ? { query: p.name, fields: ["name" as const], byRelevance: false }
      : p.owner_code
        ? { query: p.owner_code, fields: ["owner_code" as const], byRelevance: false }
        : null;
  if (text) {
    const terms = parseSearchTerms(text.query);
    if (terms.length === 0) return null;
    search.text = { terms, fields: text.fields, matchAll: p.match_all };
    search.orderByRelevance = text.byRelevance;
  }
  return search;
}

function readLocation(latitude: number | undefined, longitude: number | undefined, radius: number | undefined): BusinessSearch["location"] {
  if (latitude === undefined && longitude === undefined) {
    if (radius !== undefined) throw new ServiceError("parameter_missing", "radius needs search_lat and search_long.");
    return undefined;
  }
  if (latitude === undefined || longitude === undefined) {
    throw new ServiceError("lat_long_both_required", "search_lat and search_long must be given together.");
  }
  return { latitude, longitude, radiusKm: radius ?? DEFAULT_RADIUS_KM };
}
