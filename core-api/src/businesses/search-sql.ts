/**
 * The SQL pieces of the business search (search.ts) the query builder has no construct for:
 * the word-prefix match, the haversine distance, the grid-cell ranges and the text match of
 * several terms, as drizzle `sql` fragments over aliased tables, every value a bound parameter
 * (query.ts sends them as prepared statements). Lists whose length varies with the search (cell
 * ranges, grid rows) are padded to a power of two (query.ts padded), so a search of another
 * circle reuses the statement text a connection prepared before.
 */
import { sql, type AnyColumn, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/mysql-core";
import { businesses, businessGeoCellCounts, businessSearchTokens } from "../db/schema.ts";
import { EARTH_RADIUS_KM, geoRowsWithin, type CellRange } from "./geo.ts";
import { padded } from "./query.ts";
import { escapeLike } from "./text.ts";
import { TOKEN_FIELD } from "./word-index.ts";

export type TextField = keyof typeof TOKEN_FIELD;
/** A search circle; radius in kilometres. */
export type Location = { latitude: number; longitude: number; radiusKm: number };
/** A search circle in a statement: its numbers, or placeholders of a precompiled one (AT). */
export type LocationSql = { latitude: unknown; longitude: unknown; radiusKm: unknown };

/** The search circle as placeholders `lat`, `lon` and `radius` (their values: locationValues). */
export const AT: LocationSql = { latitude: sql.placeholder("lat"), longitude: sql.placeholder("lon"), radiusKm: sql.placeholder("radius") };

/** The values of AT's placeholders. */
export function locationValues(at: Location): Record<"lat" | "lon" | "radius", number> {
  return { lat: at.latitude, lon: at.longitude, radius: at.radiusKm };
}
/** A text search: terms as searchTermsOf reads them, in which fields, all terms or any. */
export type Text = { terms: string[][]; fields: TextField[]; matchAll: boolean };

/** `businesses` as the search's statements read it. */
export const b = alias(businesses, "b");
/** The word index as the search's statements read it. */
export const t = alias(businessSearchTokens, "t");
/** The per-cell counts as the location total reads them. */
export const c = alias(businessGeoCellCounts, "c");

/** `FROM` sources: the aliased tables, with the index hints the plans rely on. */
export const FROM_BUSINESSES = sql`${businesses} ${b}`;
export const FROM_LOCATION_INDEX = sql`${businesses} ${b} FORCE INDEX (${sql.identifier("businesses_location_search")})`;
export const FROM_WORDS = sql`${businessSearchTokens} ${t}`;
export const FROM_WORDS_BY_WORD = sql`${businessSearchTokens} ${t} FORCE INDEX (${sql.identifier("business_search_tokens_by_word")})`;
export const FROM_CELL_COUNTS = sql`${businessGeoCellCounts} ${c}`;

/** Relevance weight of a term matched in a field. */
const FIELD_WEIGHT: Record<TextField, number> = { name: 2, owner_code: 1 };
/** Up to this many grid rows (about 900 km) a text + location search lists them one by one. */
const MAX_ROW_LIST = 400;

/** The LIKE pattern of the words starting with `word` (its wildcards escaped). */
export function prefixPattern(word: string): string {
  return `${escapeLike(word)}%`;
}

/** Haversine distance in km from the search point to the point (`lat`, `lon`) of a row. */
export function distance(at: LocationSql, lat: AnyColumn, lon: AnyColumn): SQL {
  return sql`(${2 * EARTH_RADIUS_KM} * ASIN(LEAST(1, SQRT(
    POW(SIN(RADIANS(${lat} - ${at.latitude}) / 2), 2) +
    COS(RADIANS(${at.latitude})) * COS(RADIANS(${lat})) * POW(SIN(RADIANS(${lon} - ${at.longitude}) / 2), 2)))))`;
}

/** Whether the point (`lat`, `lon`) of a row lies within the circle. */
export function within(at: LocationSql, lat: AnyColumn, lon: AnyColumn): SQL {
  return sql`${distance(at, lat, lon)} <= ${at.radiusKm}`;
}

/** `column` in one of the cell ranges (the ranges padded: see the module comment). */
export function inCells(ranges: readonly CellRange[], column: AnyColumn): SQL {
  return sql`(${sql.join(
    padded(ranges).map(([first, last]) => sql`${column} BETWEEN ${first} AND ${last}`),
    sql` OR `,
  )})`;
}

/**
 * `column` in one of `count` cell ranges given as the list placeholder `name` (first and last
 * cell of each range in turn: cellValues), for a precompiled statement.
 */
export function cellSlots(count: number, column: AnyColumn, name: string): SQL {
  const ranges = Array.from({ length: count }, (_, i) => sql`${column} BETWEEN ${sql.placeholder(`${name}[${2 * i}]`)} AND ${sql.placeholder(`${name}[${2 * i + 1}]`)}`);
  return sql`(${sql.join(ranges, sql` OR `)})`;
}

/** The value of cellSlots' placeholder for `ranges` (padded: query.ts padded). */
export function cellValues(ranges: readonly CellRange[]): number[] {
  return ranges.flat();
}

/**
 * The conditions on the word index `t` of the words of `field` starting with `word` in the chain,
 * and with a location only those of businesses within the circle.
 */
export function wordRange(chainId: number, field: TextField, word: string, at?: Location): SQL {
  const words = sql`${t.chainId} = ${chainId} AND ${t.field} = ${TOKEN_FIELD[field]} AND ${t.token} LIKE ${prefixPattern(word)}`;
  return at ? sql`${words} AND ${locationFilter(at)}` : words;
}

/**
 * Grid rows and exact distance on the word index's copied coordinates: with the index
 * (chain_id, field, geo_row, token) a word prefix is one short range per row of the circle. The
 * rows span the globe: a longitude window that holds the whole circle (longitudeWindow) is
 * checked before the distance, which it leaves the same for every word it lets through.
 */
function locationFilter(at: Location): SQL {
  const rows = geoRowsWithin(at.latitude, at.radiusKm);
  const band =
    rows.length <= MAX_ROW_LIST
      ? sql`${t.geoRow} IN (${sql.join(padded(rows).map((row) => sql`${row}`), sql`, `)})`
      : sql`${t.geoRow} BETWEEN ${rows[0]!} AND ${rows[rows.length - 1]!}`;
  const window = longitudeWindow(at);
  const lon = window ? sql` AND ${t.longitude} BETWEEN ${window[0]} AND ${window[1]}` : sql``;
  return sql`${band}${lon} AND ${within(at, t.latitude, t.longitude)}`;
}

/**
 * Longitudes [west, east] holding every point within the circle, or null when no such window
 * short of the whole globe exists (the circle reaches a pole or crosses the antimeridian). The
 * widest longitude offset of a circle of angular radius r around latitude lat is
 * asin(sin r / cos lat); the window is a little wider still, so rounding never cuts a point off.
 */
export function longitudeWindow(at: Location): [number, number] | null {
  const r = at.radiusKm / EARTH_RADIUS_KM;
  const lat = (at.latitude * Math.PI) / 180;
  if (r >= Math.PI / 2 - Math.abs(lat) - 1e-6) return null;
  const dLon = (Math.asin(Math.min(1, Math.sin(r) / Math.cos(lat))) * 180) / Math.PI;
  const margin = dLon * 1e-6 + 1e-9;
  const west = at.longitude - dLon - margin;
  const east = at.longitude + dLon + margin;
  return west < -180 || east > 180 ? null : [west, east];
}

/**
 * The businesses matching the text search, one row each: (business_id, relevance, distance_km).
 * A term matches in a field when every word of the term prefixes some word of the field. With a
 * location, only words of businesses within the circle count (the word index has coordinates).
 */
export function textMatch(chainId: number, text: Text, at?: Location): SQL {
  const dist = at ? distance(at, t.latitude, t.longitude) : sql`NULL`;
  const parts: SQL[] = [];
  text.terms.forEach((term, termIndex) => {
    for (const field of text.fields) {
      const weight = FIELD_WEIGHT[field];
      if (term.length === 1) {
        parts.push(sql`SELECT DISTINCT ${t.businessId}, ${termIndex} AS term, ${weight} AS weight, ${dist} AS distance_km
          FROM ${FROM_WORDS} WHERE ${wordRange(chainId, field, term[0]!, at)}`);
        continue;
      }
      const perWord = term.map(
        (w, i) => sql`SELECT DISTINCT ${t.businessId}, ${i} AS word, ${dist} AS distance_km FROM ${FROM_WORDS} WHERE ${wordRange(chainId, field, w, at)}`,
      );
      parts.push(sql`SELECT business_id, ${termIndex} AS term, ${weight} AS weight, MIN(distance_km) AS distance_km
        FROM (${sql.join(perWord, sql` UNION ALL `)}) w GROUP BY business_id HAVING COUNT(DISTINCT word) = ${term.length}`);
    }
  });
  const having = text.matchAll ? sql`HAVING COUNT(DISTINCT term) = ${text.terms.length}` : sql``;
  return sql`SELECT business_id, SUM(weight) AS relevance, MIN(distance_km) AS distance_km
    FROM (${sql.join(parts, sql` UNION ALL `)}) m GROUP BY business_id ${having}`;
}
