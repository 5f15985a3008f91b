/**
 * Query parameters of a Resources list (spec, "List parameters" and "Location search"), read
 * from the declaration: filters are the F properties, sort keys the S properties, search keys the
 * FT properties. Pure: no database.
 */
import type { PropertyInfo, ResourceDeclaration } from "@service/shared/resources/meta";
import type { Params } from "../http/params.ts";
import { ServiceError } from "../http/service-error.ts";

/** Page size when `limit` is absent (handbook, "default list page size"). */
export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 500;
/** km (spec, "Limits": location radius default). */
export const DEFAULT_RADIUS_KM = 25;
/** Half the Earth's circumference: a larger radius cannot find more. */
export const MAX_RADIUS_KM = 20_038;

export type FilterValue = string | number | boolean;

export interface ListQuery {
  limit: number;
  offset: number;
  /** sort_by (an S property) and sort_order; absent means the resource's natural order (id ascending) */
  sort?: { property: string; order: "asc" | "desc" };
  /** sort_order without sort_by: direction of the natural order */
  order: "asc" | "desc";
  /** equality filters by property name; a reference filter holds the referenced id */
  filters: Record<string, FilterValue>;
  /** one search key: the FT properties it searches (all of them for `search[*]`) */
  search?: { properties: string[]; query: string; matchAll: boolean };
  /** kilometres */
  location?: { latitude: number; longitude: number; radiusKm: number };
}

/** Location parameters by what they give: the spec's name first, then its legacy alias. */
export const LOCATION_KEYS = {
  latitude: ["location[latitude]", "search_lat"],
  longitude: ["location[longitude]", "search_long"],
  radius: ["location[radius_km]", "search_radius_km"],
} as const;

/**
 * Parses a list request's query.
 * @param query query-string parameters (string values)
 * @throws ServiceError parameter_invalid (419) for an unknown parameter, a value of the wrong
 *   format or range, a sort_by that is not an S property, more than one search key, a search key
 *   that is not an FT property, or only one location coordinate
 */
export function parseListParams(decl: ResourceDeclaration, query: Params): ListQuery {
  const q: ListQuery = { limit: DEFAULT_LIMIT, offset: 0, order: "asc", filters: {} };
  const searchKeys: string[] = [];
  let matchAll = false;
  const loc: Partial<Record<keyof typeof LOCATION_KEYS, number>> = {};

  for (const [key, raw] of Object.entries(query)) {
    const value = typeof raw === "string" ? raw : String(raw);
    if (key === "limit") q.limit = intIn(key, value, 1, MAX_LIMIT);
    else if (key === "offset") q.offset = intIn(key, value, 0, Number.MAX_SAFE_INTEGER);
    else if (key === "sort_by") q.sort = { property: sortProperty(decl, value), order: q.sort?.order ?? "asc" };
    else if (key === "sort_order") q.order = sortOrder(value);
    else if (key === "match_all") matchAll = bool(key, value);
    else if (key.startsWith("search[") && key.endsWith("]")) searchKeys.push(key);
    else if (decl.locationSearch && locationKey(key)) {
      const which = locationKey(key)!;
      if (loc[which] !== undefined) throw new ServiceError("parameter_invalid", `${key}: the ${which} is given twice.`);
      loc[which] = float(key, value);
    } else {
      const f = filterOf(decl, key);
      if (!f) throw new ServiceError("parameter_invalid", `Unknown parameter ${key}.`);
      if (f.prop.name in q.filters) throw new ServiceError("parameter_invalid", `${key}: the filter is given twice.`);
      q.filters[f.prop.name] = filterValue(f.prop, key, value);
    }
  }
  if (q.sort) q.sort.order = q.order;

  if (searchKeys.length > 1) throw new ServiceError("parameter_invalid", "Only one search key is allowed per request.");
  if (searchKeys.length === 1) {
    const key = searchKeys[0]!;
    q.search = { properties: searchProperties(decl, key), query: String(query[key] ?? ""), matchAll };
  }
  q.location = location(loc);
  return q;
}

function locationKey(key: string): keyof typeof LOCATION_KEYS | undefined {
  for (const [which, names] of Object.entries(LOCATION_KEYS)) {
    if ((names as readonly string[]).includes(key)) return which as keyof typeof LOCATION_KEYS;
  }
  return undefined;
}

function location(l: Partial<Record<keyof typeof LOCATION_KEYS, number>>): ListQuery["location"] {
  const { latitude, longitude, radius } = l;
  if (latitude === undefined && longitude === undefined) {
    if (radius !== undefined) throw new ServiceError("parameter_invalid", "A radius needs location[latitude] and location[longitude].");
    return undefined;
  }
  if (latitude === undefined || longitude === undefined) {
    throw new ServiceError("parameter_invalid", "Location search needs both latitude and longitude.");
  }
  if (latitude < -90 || latitude > 90) throw new ServiceError("parameter_invalid", "Latitude must lie in -90..90.");
  if (longitude < -180 || longitude > 180) throw new ServiceError("parameter_invalid", "Longitude must lie in -180..180.");
  const radiusKm = radius ?? DEFAULT_RADIUS_KM;
  if (radiusKm <= 0 || radiusKm > MAX_RADIUS_KM) {
    throw new ServiceError("parameter_invalid", `The radius must be greater than 0 and at most ${MAX_RADIUS_KM} km.`);
  }
  return { latitude, longitude, radiusKm };
}

/** Kinds a filter can compare by equality. */
const FILTER_KINDS = new Set<PropertyInfo["kind"]>(["string", "integer", "number", "boolean", "date-time", "reference"]);

/**
 * The filter parameters a list accepts: every F property by name, a reference also as
 * `name[id]` (`chain=1` and `chain[id]=1` both filter a reference by id). The parser and the
 * schema document (resources/schema.ts) both read this list.
 */
export function filterParameters(decl: ResourceDeclaration): Array<{ name: string; prop: PropertyInfo }> {
  const out: Array<{ name: string; prop: PropertyInfo }> = [];
  for (const prop of decl.properties.values()) {
    if (!prop.filter || !FILTER_KINDS.has(prop.kind)) continue;
    out.push({ name: prop.name, prop });
    if (prop.kind === "reference") out.push({ name: `${prop.name}[id]`, prop });
  }
  return out;
}

/** The values sort_by accepts: the S properties. */
export function sortKeys(decl: ResourceDeclaration): string[] {
  return [...decl.properties.values()].filter((p) => p.sort).map((p) => p.name);
}

/** The FT properties; `search[*]` searches them all, `search[{name}]` one of them. */
export function fulltextProperties(decl: ResourceDeclaration): string[] {
  return [...decl.properties.values()].filter((p) => p.fulltext).map((p) => p.name);
}

function filterOf(decl: ResourceDeclaration, key: string): { prop: PropertyInfo } | undefined {
  return filterParameters(decl).find((f) => f.name === key);
}

function filterValue(prop: PropertyInfo, key: string, value: string): FilterValue {
  switch (prop.kind) {
    case "integer":
    case "reference":
      return intIn(key, value, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
    case "number":
      return float(key, value);
    case "boolean":
      return bool(key, value);
    case "string":
    case "date-time":
      return value;
    default:
      throw new ServiceError("parameter_invalid", `${key} cannot be used as a filter.`);
  }
}

function sortProperty(decl: ResourceDeclaration, value: string): string {
  const allowed = sortKeys(decl);
  if (!allowed.includes(value)) throw new ServiceError("parameter_invalid", `sort_by must be one of ${allowed.join(", ")}.`);
  return value;
}

function sortOrder(value: string): "asc" | "desc" {
  const v = value.trim().toLowerCase();
  if (v !== "asc" && v !== "desc") throw new ServiceError("parameter_invalid", "sort_order must be asc or desc.");
  return v;
}

function searchProperties(decl: ResourceDeclaration, key: string): string[] {
  const name = key.slice("search[".length, -1);
  const fulltext = fulltextProperties(decl);
  if (name === "*") {
    if (fulltext.length === 0) throw new ServiceError("parameter_invalid", "This resource has no text search.");
    return fulltext;
  }
  if (!fulltext.includes(name)) {
    throw new ServiceError("parameter_invalid", `${key}: text search works on ${fulltext.join(", ") || "no property"} or *.`);
  }
  return [name];
}

function intIn(key: string, value: string, min: number, max: number): number {
  const s = value.trim();
  if (!/^[+-]?\d{1,16}$/.test(s)) throw new ServiceError("parameter_invalid", `${key} must be an integer.`);
  const n = Number(s);
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new ServiceError("parameter_invalid", `${key} must be an integer from ${min} to ${max}.`);
  }
  return n;
}

function float(key: string, value: string): number {
  const s = value.trim();
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) throw new ServiceError("parameter_invalid", `${key} must be a decimal number.`);
  return Number(s);
}

/** Booleans in a query: true/false/1/0 (any case). */
function bool(key: string, value: string): boolean {
  const s = value.trim().toLowerCase();
  if (s === "true" || s === "1") return true;
  if (s === "false" || s === "0") return false;
  throw new ServiceError("parameter_invalid", `${key} must be true, false, 1 or 0.`);
}
