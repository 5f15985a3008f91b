/**
 * Query parameters of a Resources list (spec, "List parameters" and "Location search"), read
 * from the declaration: filters are the F properties, sort keys the S properties, search keys the
 * FT properties. Numbers and booleans are read by the one text rule of both API families
 * (`@service/shared/text-values`). The query arrives nested from its bracket keys
 * (http/params.ts): `search[name]=x` is `{search: {name: "x"}}`, `chain[id]=4` is
 * `{chain: {id: "4"}}`. Pure: no database.
 */
import { DEFAULT_RADIUS_KM } from "@service/shared/limits";
import type { PropertyInfo, ResourceDeclaration } from "@service/shared/resources/meta";
import { parseBooleanText, parseDecimalText, parseIntegerText } from "@service/shared/text-values";
import type { ParamValue, Params } from "../http/params.ts";
import { ServiceError } from "../http/service-error.ts";

export { DEFAULT_RADIUS_KM } from "@service/shared/limits";

/** Page size when `limit` is absent (handbook, "default list page size"). */
export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 500;
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
 * @param query query-string parameters, nested from their bracket keys (string values)
 * @throws ServiceError parameter_invalid (419) for an unknown parameter, a value of the wrong
 *   format or range, a sort_by that is not an S property, more than one search key, a search key
 *   that is not an FT property, or only one location coordinate
 */
export function parseListParams(decl: ResourceDeclaration, query: Params): ListQuery {
  const q: ListQuery = { limit: DEFAULT_LIMIT, offset: 0, order: "asc", filters: {} };
  const searchKeys: Array<[key: string, query: string]> = [];
  let matchAll = false;
  const loc: Partial<Record<keyof typeof LOCATION_KEYS, number>> = {};
  const setLocation = (key: string, raw: ParamValue) => {
    const which = locationKey(key);
    if (!which) throw new ServiceError("parameter_invalid", `Unknown parameter ${key}.`);
    if (loc[which] !== undefined) throw new ServiceError("parameter_invalid", `${key}: the ${which} is given twice.`);
    loc[which] = float(key, textOf(key, raw));
  };

  for (const [key, raw] of Object.entries(query)) {
    if (key === "limit") q.limit = intIn(key, textOf(key, raw), 1, MAX_LIMIT);
    else if (key === "offset") q.offset = intIn(key, textOf(key, raw), 0, Number.MAX_SAFE_INTEGER);
    else if (key === "sort_by") q.sort = { property: sortProperty(decl, textOf(key, raw)), order: q.sort?.order ?? "asc" };
    else if (key === "sort_order") q.order = sortOrder(textOf(key, raw));
    else if (key === "match_all") matchAll = bool(key, textOf(key, raw));
    else if (key === "search") {
      for (const [field, value] of Object.entries(objectOf(key, raw))) searchKeys.push([`search[${field}]`, textOf(`search[${field}]`, value)]);
    } else if (decl.locationSearch && key === "location") {
      for (const [which, value] of Object.entries(objectOf(key, raw))) setLocation(`location[${which}]`, value);
    } else if (decl.locationSearch && locationKey(key)) setLocation(key, raw);
    else {
      const f = filterOf(decl, key);
      if (!f) throw new ServiceError("parameter_invalid", `Unknown parameter ${key}.`);
      q.filters[f.prop.name] = filterValue(f.prop, key, raw);
    }
  }
  if (q.sort) q.sort.order = q.order;

  if (searchKeys.length > 1) throw new ServiceError("parameter_invalid", "Only one search key is allowed per request.");
  if (searchKeys.length === 1) {
    const [key, text] = searchKeys[0]!;
    q.search = { properties: searchProperties(decl, key), query: text, matchAll };
  }
  q.location = location(loc);
  return q;
}

/** A parameter's single text value (a query value nested under it, `name[x]=`, is no such value). */
function textOf(key: string, raw: ParamValue): string {
  if (typeof raw !== "string") throw new ServiceError("parameter_invalid", `${key} takes one value.`);
  return raw;
}

/** A bracketed parameter's fields (`search[name]`, `location[latitude]`). */
function objectOf(key: string, raw: ParamValue): Record<string, ParamValue> {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) throw new ServiceError("parameter_invalid", `Unknown parameter ${key}.`);
  return raw;
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
 * schema document (resources/schema-document.ts) both read this list.
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

/** A filter's value: text of the property's type; a reference also as `{id}` (`chain[id]=4`). */
function filterValue(prop: PropertyInfo, key: string, raw: ParamValue): FilterValue {
  if (prop.kind === "reference" && raw !== null && typeof raw === "object" && !Array.isArray(raw)) {
    const { id, ...rest } = raw;
    const extra = Object.keys(rest)[0];
    if (extra !== undefined || id === undefined) throw new ServiceError("parameter_invalid", `Unknown parameter ${key}[${extra ?? ""}].`);
    return intIn(`${key}[id]`, textOf(`${key}[id]`, id), Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  }
  const value = textOf(key, raw);
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
  const n = parseIntegerText(value);
  if (n === undefined) throw new ServiceError("parameter_invalid", `${key} must be an integer.`);
  if (n < min || n > max) throw new ServiceError("parameter_invalid", `${key} must be an integer from ${min} to ${max}.`);
  return n;
}

function float(key: string, value: string): number {
  const n = parseDecimalText(value);
  if (n === undefined) throw new ServiceError("parameter_invalid", `${key} must be a decimal number.`);
  return n;
}

/** A boolean by the text rule: true/false, 1/0, yes/no, on/off (any case). */
function bool(key: string, value: string): boolean {
  const b = parseBooleanText(value);
  if (b === undefined) throw new ServiceError("parameter_invalid", `${key} must be a boolean: true or false (also 1/0, yes/no, on/off).`);
  return b;
}
