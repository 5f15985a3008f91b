/**
 * The search of get-businesses from its parameters (spec, "Internal call: get-businesses", "List
 * parameters", "Limits"), as a BusinessSearch for the shared search engine.
 *
 * - Text: `search[name]`, `search[owner_code]` or `search[*]` (one field only; results by
 *   relevance) wins over `name`, which wins over `owner_code` (both in id order). Terms are
 *   separated by spaces or commas; `match_all` true requires every term. A search text with no
 *   letters or digits can match nothing.
 * - Location: `search_lat` / `search_long` (aliases `lat` / `lon`, the spec names win when both
 *   are sent) and `radius` (aliases `search_radius`, `search_radius_km`; default 25 km): within the
 *   radius, nearest first. Combined with text, both must match and distance orders.
 * - `exclude_inactive` true leaves out shut-down businesses; `limit` 1..500 (default 500),
 *   `offset` >= 0 (default 0).
 *
 * Errors: 419 parameter_invalid (several search fields, an unknown search field, a coordinate or
 * radius that is no number, radius <= 0, limit or offset out of range), 316
 * parameter_supplied_not_boolean (match_all, exclude_inactive), 98 lat_long_both_required (one
 * coordinate), 99 lat_long_invalid (coordinate out of range), 441 parameter_missing (radius
 * without coordinates), 482 string_parameter_too_long (search text over its maximum).
 */
import {
  DEFAULT_RADIUS_KM,
  GET_BUSINESSES_DEFAULT_LIMIT,
  GET_BUSINESSES_MAX_LIMIT,
  SEARCH_FIELDS,
  SEARCH_TEXT_MAX,
  type SearchField,
} from "@service/shared/internal/get-businesses";
import type { BusinessSearch, TextField } from "../businesses/search.ts";
import { parseSearchTerms } from "../businesses/text.ts";
import { readBoolean, readFloat, readInteger, readString } from "../http/coerce.ts";
import type { Params } from "../http/params.ts";
import { ServiceError } from "../http/service-error.ts";

const SEARCH_KEY = /^search\[([^\]]*)\]$/;
const FIELDS_OF: Record<SearchField, TextField[]> = { name: ["name"], owner_code: ["owner_code"], "*": ["name", "owner_code"] };

/**
 * Reads the get-businesses parameters of chain `chainId`.
 * @returns the search to run, or null when the text search has nothing that could match
 * @throws ServiceError see the module comment
 */
export function readBusinessQuery(params: Params, chainId: number): BusinessSearch | null {
  const search: BusinessSearch = { chainId, limit: GET_BUSINESSES_DEFAULT_LIMIT, offset: 0 };
  const text = readText(params);
  const matchAll = readBoolean(params, "match_all") ?? false;
  const location = readLocation(params);
  if (location) search.location = location;
  if (readBoolean(params, "exclude_inactive")) search.filters = { isShutDown: false };

  const limit = readInteger(params, "limit");
  if (limit !== undefined && (limit < 1 || limit > GET_BUSINESSES_MAX_LIMIT)) {
    throw new ServiceError("parameter_invalid", `limit must lie within 1..${GET_BUSINESSES_MAX_LIMIT}.`);
  }
  const offset = readInteger(params, "offset");
  if (offset !== undefined && offset < 0) throw new ServiceError("parameter_invalid", "offset must be 0 or more.");
  search.limit = limit ?? GET_BUSINESSES_DEFAULT_LIMIT;
  search.offset = offset ?? 0;

  if (text) {
    const terms = parseSearchTerms(text.query);
    if (terms.length === 0) return null;
    search.text = { terms, fields: text.fields, matchAll };
    search.orderByRelevance = text.byRelevance;
  }
  return search;
}

function readText(params: Params): { query: string; fields: TextField[]; byRelevance: boolean } | null {
  const plain = params.search;
  if (plain !== undefined && plain !== null && typeof plain !== "object") {
    throw new ServiceError("parameter_invalid", "search takes a field: search[name], search[owner_code] or search[*].");
  }
  const structured: Array<{ field: SearchField; query: string }> = [];
  for (const key of Object.keys(params)) {
    const field = SEARCH_KEY.exec(key)?.[1];
    if (field === undefined) continue;
    if (!(SEARCH_FIELDS as readonly string[]).includes(field)) {
      throw new ServiceError("parameter_invalid", `search[${field}]: the search fields are name, owner_code and *.`);
    }
    const query = readString(params, key, { max: SEARCH_TEXT_MAX.search });
    if (query) structured.push({ field: field as SearchField, query });
  }
  if (structured.length > 1) throw new ServiceError("parameter_invalid", "Only one search field per request.");
  const name = readString(params, "name", { max: SEARCH_TEXT_MAX.name });
  const ownerCode = readString(params, "owner_code", { max: SEARCH_TEXT_MAX.owner_code });
  const [first] = structured;
  if (first) return { query: first.query, fields: FIELDS_OF[first.field], byRelevance: true };
  if (name) return { query: name, fields: ["name"], byRelevance: false };
  if (ownerCode) return { query: ownerCode, fields: ["owner_code"], byRelevance: false };
  return null;
}

/** The first alias present is read for its value; every alias sent is checked. */
function readAliased(params: Params, keys: string[]): number | undefined {
  const values = keys.map((k) => readFloat(params, k, "parameter_invalid"));
  return values.find((v) => v !== undefined);
}

function readLocation(params: Params): BusinessSearch["location"] {
  const latitude = readAliased(params, ["search_lat", "lat"]);
  const longitude = readAliased(params, ["search_long", "lon"]);
  const radius = readAliased(params, ["radius", "search_radius", "search_radius_km"]);
  if (latitude === undefined && longitude === undefined) {
    if (radius !== undefined) throw new ServiceError("parameter_missing", "radius needs search_lat and search_long.");
    return undefined;
  }
  if (latitude === undefined || longitude === undefined) {
    throw new ServiceError("lat_long_both_required", "search_lat and search_long must be given together.");
  }
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) {
    throw new ServiceError("lat_long_invalid", "search_lat must lie within -90..90 and search_long within -180..180.");
  }
  if (radius !== undefined && !(radius > 0)) throw new ServiceError("parameter_invalid", "radius must be more than 0 km.");
  return { latitude, longitude, radiusKm: radius ?? DEFAULT_RADIUS_KM };
}
