/**
 * Business search: filters, text search, location search, ordering and paging, shared by
 * get-businesses and `GET /resources/businesses` (spec, "List parameters", "Location search",
 * get-businesses).
 *
 * Searches without row filters (the common, hot case) never read a business row before the page:
 * - location: the total adds up the kept per-cell counts of the grid cells wholly inside the
 *   circle (business_geo_cell_counts) and computes distances only in the cells on its edge, from
 *   the location index (chain_id, geo_cell, latitude, longitude); the page (nearest first) is found within a small circle grown until it holds the
 *   page, so it does not sort every match (geo.ts);
 * - text: the word index (chain_id, field, token, business_id) answers alone;
 * - text + location: the word index carries each business's coordinates, so one range scan of
 *   the words filters by distance too (a cheap longitude window first: the scan reads the words
 *   of the circle's whole latitude band, round the globe).
 * Anything else (equality filters, sorting by a date) joins the rows: the row plan.
 * Deleted businesses have no grid cell and no words, so the index plans skip them for free.
 *
 * Round trips: the page's statement returns the page's business rows themselves (its ids joined to
 * `businesses`, in the page's order), not ids to read in another statement; a one-word text +
 * location search counts its total in that same statement (a window count over the matches it
 * groups anyway). Statements are SQL text built here (query.ts).
 */
import { getTableColumns } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { businesses } from "../db/schema.ts";
import { cellCover, cellRangesWithin, EARTH_RADIUS_KM, geoRowsWithin, type CellRange } from "./geo.ts";
import { TOKEN_FIELD } from "./business-repository.ts";
import { prefixPage } from "./prefix-search.ts";
import { BUSINESS_ROW_COLUMNS, hitsOf, pageHits, pageWithRows, type BusinessHit, type PageStatement, type PlannedPage } from "./page-rows.ts";

export type { BusinessHit, PageHits, PlannedPage } from "./page-rows.ts";
import { dbl, int, one, rowArrays, str } from "./query.ts";
import { escapeLike } from "./text.ts";

export type TextField = keyof typeof TOKEN_FIELD;
/** A column of `businesses` by its drizzle key: any of them can be filtered on or sorted by. */
export type BusinessColumn = keyof typeof businesses.$inferSelect;

export interface BusinessSearch {
  chainId: number;
  /**
   * text search: terms as read by searchTermsOf; a business matches a term when one of `fields`
   * does. No terms (a text without a letter or digit) matches no business.
   */
  text?: { terms: string[][]; fields: TextField[]; matchAll: boolean };
  /** location search; radius in kilometres */
  location?: { latitude: number; longitude: number; radiusKm: number };
  /** equality filters by column (the Resources API's are the F properties of Business, mapped in businesses/business-columns.ts) */
  filters?: Partial<Record<BusinessColumn, string | number | boolean>>;
  /** order after distance and relevance; id breaks the remaining ties (ascending unless sorting by id desc) */
  sort?: { column: BusinessColumn; order: "asc" | "desc" };
  /** order text matches by relevance (more matched terms, name before owner_code) */
  orderByRelevance?: boolean;
  limit: number;
  offset: number;
}


export interface BusinessSearchResult {
  hits: BusinessHit[];
  /** number of businesses matching, all pages together; undefined when not asked for */
  total?: number;
}

type Location = NonNullable<BusinessSearch["location"]>;
type Text = NonNullable<BusinessSearch["text"]>;

/** Relevance weight of a term matched in a field. */
const FIELD_WEIGHT: Record<TextField, number> = { name: 2, owner_code: 1 };
/** Up to this many grid rows (about 900 km) a text + location search lists them one by one. */
const MAX_ROW_LIST = 400;
const LOCATION_INDEX = "businesses b FORCE INDEX (businesses_location_search)";

/**
 * Runs a business search.
 * @param options.total count the matches of all pages (default true); get-businesses answers no
 *   total, so it does not pay for one
 * @returns the page of hits in order, with the total count when asked; none for a text search
 *   without terms
 */
export async function searchBusinesses(db: CoreDb, q: BusinessSearch, options: { total?: boolean } = {}): Promise<BusinessSearchResult> {
  const withTotal = options.total ?? true;
  // A search for "!!!" was a search: it matches nothing rather than being ignored (text.ts).
  if (q.text && q.text.terms.length === 0) return withTotal ? { hits: [], total: 0 } : { hits: [] };
  const text = q.text;
  const filters = filterSql(q.filters);
  const indexOnly = filters.length === 0 && (q.sort === undefined || q.sort.column === "id");
  const descending = q.sort?.column === "id" && q.sort.order === "desc";
  let plan: PlannedPage;
  if (indexOnly && q.location && !text) plan = locationPage(db, q.chainId, q.location, q.limit, q.offset, descending);
  else if (indexOnly && text) plan = wordsPage(db, q, text, descending, withTotal);
  else plan = planned(db, rowPage(q, text, filters), (where) => one<{ n: number }>(db, `SELECT COUNT(*) AS n FROM ${where}`));

  // The total counts while the page's statement runs (unless that statement counts it).
  const counting = withTotal ? plan.total?.() : undefined;
  const [page, total] = await Promise.all([plan.hits, counting]);
  if (!withTotal) return { hits: page.hits };
  return { hits: page.hits, total: total ?? page.total ?? 0 };
}

/**
 * Sends `page` with its rows joined (pageWithRows) and reads the hits.
 * @param count the total's statement, given the page's FROM ... WHERE, or a count
 */
function planned(db: CoreDb, page: PageStatement & { from: string }, count: (from: string) => Promise<{ n: number } | undefined>): PlannedPage {
  return { hits: pageHits(db, page).then((hits) => ({ hits })), total: () => count(page.from).then((c) => Number(c?.n ?? 0)) };
}

/** Location only: total from the cells, page from a circle grown until it holds it. */
function locationPage(db: CoreDb, chainId: number, at: Location, limit: number, offset: number, descending: boolean): PlannedPage {
  const wanted = offset + limit;
  // The page starts from a small circle (2 km, what a dense city needs for a page) grown until it
  // holds the page: every business outside it is farther than all inside. A circle that does not
  // hold `wanted` stores holds fewer than `limit` after the offset.
  const hits = async () => {
    let radius = Math.min(at.radiusKm, 2 * Math.max(1, Math.sqrt(wanted / 25)));
    for (;;) {
      const found = await pageHits(db, nearest(chainId, { ...at, radiusKm: radius }, limit, offset, descending));
      if (found.length >= limit || radius >= at.radiusKm) return { hits: found };
      radius = Math.min(at.radiusKm, radius * 4);
    }
  };
  return { hits: hits(), total: () => countWithin(db, chainId, at) };
}

/** Number of live businesses of the chain within the circle. */
async function countWithin(db: CoreDb, chainId: number, at: Location): Promise<number> {
  const { inner, boundary } = cellCover(at.latitude, at.longitude, at.radiusKm);
  const parts: string[] = [];
  if (inner.length) {
    parts.push(`(SELECT COALESCE(SUM(c.n), 0) FROM business_geo_cell_counts c
      WHERE c.chain_id = ${int(chainId)} AND ${cellsSql(inner, "c")})`);
  }
  if (boundary.length) {
    parts.push(`(SELECT COUNT(*) FROM ${LOCATION_INDEX} WHERE b.chain_id = ${int(chainId)} AND ${cellsSql(boundary)}
      AND ${distanceSql(at, "b")} <= ${dbl(at.radiusKm)})`);
  }
  if (!parts.length) return 0;
  return Number((await one<{ n: number }>(db, `SELECT ${parts.join(" + ")} AS n`))?.n ?? 0);
}

/** The page of the live businesses of the chain within the circle, nearest first (the first offset + limit of them). */
function nearest(chainId: number, at: Location, limit: number, offset: number, descending: boolean): PageStatement {
  const distance = distanceSql(at, "b");
  const idOrder = descending ? "DESC" : "ASC";
  return {
    sql: `SELECT b.id, ${distance} AS distance_km FROM ${LOCATION_INDEX}
      WHERE b.chain_id = ${int(chainId)} AND ${cellsSql(cellRangesWithin(at.latitude, at.longitude, at.radiusKm))}
        AND ${distance} <= ${dbl(at.radiusKm)}
      ORDER BY distance_km ASC, b.id ${idOrder} LIMIT ${int(limit)} OFFSET ${int(offset)}`,
    order: ["distance_km ASC", `id ${idOrder}`],
  };
}

/** Text, with or without location, from the word index alone. */
function wordsPage(db: CoreDb, q: BusinessSearch, text: Text, descending: boolean, withTotal: boolean): PlannedPage {
  const idOrder = descending ? "DESC" : "ASC";
  if (text.terms.length === 1 && text.terms[0]!.length === 1 && text.fields.length === 1) {
    // One word in one field, the usual search: every match has the same relevance, and the only
    // duplicates are businesses with two words of that prefix, so no derived table is needed.
    const word = text.terms[0]![0]!;
    if (!q.location) return prefixPage(db, q.chainId, TOKEN_FIELD[text.fields[0]!], word, q.limit, q.offset, descending);
    const range = wordRangeSql(q.chainId, text.fields[0]!, word, q.location);
    const count = () => one<{ n: number }>(db, `SELECT COUNT(DISTINCT t.business_id) AS n ${range}`).then((c) => Number(c?.n ?? 0));
    const grouped = `SELECT t.business_id AS id, MIN(${distanceSql(q.location, "t")}) AS distance_km ${range} GROUP BY t.business_id`;
    const order = ["distance_km ASC", `id ${idOrder}`];
    const limited = `ORDER BY distance_km ASC, id ${idOrder} LIMIT ${int(q.limit)} OFFSET ${int(q.offset)}`;
    if (!withTotal) return { hits: pageHits(db, { sql: `${grouped} ${limited}`, order }).then((hits) => ({ hits })) };
    // The matches are grouped anyway: the window counts them before the page is cut (one scan).
    const counted = `SELECT id, distance_km, COUNT(*) OVER () AS total FROM (${grouped}) g ${limited}`;
    const hits = rowArrays(db, pageWithRows({ sql: counted, order }, ", p.total")).then(async (found) => ({
      hits: hitsOf(found),
      // No row: no match, or a page past the last (then the total is counted on its own).
      total: found.length ? Number(found[0]![BUSINESS_ROW_COLUMNS + 1]) : q.offset === 0 ? 0 : await count(),
    }));
    return { hits };
  }
  const matches = textMatchSql(q.chainId, text, q.location);
  const order: string[] = [];
  if (q.location) order.push("distance_km ASC");
  if (q.orderByRelevance) order.push("relevance DESC");
  order.push(`id ${idOrder}`);
  return {
    hits: pageHits(db, {
      sql: `SELECT business_id AS id, distance_km, relevance FROM (${matches}) m
        ORDER BY ${order.join(", ")} LIMIT ${int(q.limit)} OFFSET ${int(q.offset)}`,
      order,
    }).then((hits) => ({ hits })),
    total: () => one<{ n: number }>(db, `SELECT COUNT(*) AS n FROM (${matches}) m`).then((c) => Number(c?.n ?? 0)),
  };
}

/** Anything with row filters or a date sort: join the rows. `from` is the FROM ... WHERE the total counts. */
function rowPage(q: BusinessSearch, text: Text | undefined, filters: string[]): PageStatement & { from: string } {
  const where: string[] = [`b.chain_id = ${int(q.chainId)}`, "b.deleted = 0", ...filters];
  const distance = q.location ? distanceSql(q.location, "b") : undefined;
  if (q.location && distance) {
    where.push(cellsSql(cellRangesWithin(q.location.latitude, q.location.longitude, q.location.radiusKm)));
    where.push(`${distance} <= ${dbl(q.location.radiusKm)}`);
  }
  const matches = text ? textMatchSql(q.chainId, text) : undefined;
  const from = `businesses b ${matches ? `JOIN (${matches}) m ON m.business_id = b.id` : ""}`;
  const select = ["b.id", `${distance ?? "NULL"} AS distance_km`];
  const inner: string[] = [];
  const outer: string[] = [];
  if (distance) {
    inner.push("distance_km ASC");
    outer.push("distance_km ASC");
  }
  if (matches && q.orderByRelevance) {
    select.push("m.relevance AS relevance");
    inner.push("m.relevance DESC");
    outer.push("relevance DESC");
  }
  if (q.sort && q.sort.column !== "id") {
    const dir = q.sort.order === "desc" ? "DESC" : "ASC";
    select.push(`${columnSql(q.sort.column)} AS sort_key`);
    inner.push(`${columnSql(q.sort.column)} ${dir}`);
    outer.push(`sort_key ${dir}`);
  }
  const idDir = q.sort?.column === "id" && q.sort.order === "desc" ? "DESC" : "ASC";
  inner.push(`b.id ${idDir}`);
  outer.push(`id ${idDir}`);
  const condition = where.join(" AND ");
  return {
    sql: `SELECT ${select.join(", ")} FROM ${from} WHERE ${condition}
      ORDER BY ${inner.join(", ")} LIMIT ${int(q.limit)} OFFSET ${int(q.offset)}`,
    order: outer,
    from: `${from} WHERE ${condition}`,
  };
}

/**
 * The businesses matching the text search, one row each: (business_id, relevance, distance_km).
 * A term matches in a field when every word of the term prefixes some word of the field. With a
 * location, only words of businesses within the circle count (the word index has coordinates).
 */
function textMatchSql(chainId: number, text: Text, at?: Location): string {
  const distance = at ? distanceSql(at, "t") : "NULL";
  const words = (field: TextField, word: string) => wordRangeSql(chainId, field, word, at);
  const parts: string[] = [];
  text.terms.forEach((term, termIndex) => {
    for (const field of text.fields) {
      const weight = FIELD_WEIGHT[field];
      if (term.length === 1) {
        parts.push(`SELECT DISTINCT t.business_id, ${int(termIndex)} AS term, ${int(weight)} AS weight, ${distance} AS distance_km ${words(field, term[0]!)}`);
      } else {
        const perWord = term.map((w, i) => `SELECT DISTINCT t.business_id, ${int(i)} AS word, ${distance} AS distance_km ${words(field, w)}`);
        parts.push(`SELECT business_id, ${int(termIndex)} AS term, ${int(weight)} AS weight, MIN(distance_km) AS distance_km
          FROM (${perWord.join(" UNION ALL ")}) w GROUP BY business_id HAVING COUNT(DISTINCT word) = ${int(term.length)}`);
      }
    }
  });
  const having = text.matchAll ? `HAVING COUNT(DISTINCT term) = ${int(text.terms.length)}` : "";
  return `SELECT business_id, SUM(weight) AS relevance, MIN(distance_km) AS distance_km
    FROM (${parts.join(" UNION ALL ")}) t GROUP BY business_id ${having}`;
}

/**
 * `FROM business_search_tokens t WHERE ...`: the words of `field` starting with `word` in the
 * chain, and with a location only those of businesses within the circle.
 */
function wordRangeSql(chainId: number, field: TextField, word: string, at?: Location): string {
  return `FROM business_search_tokens t WHERE t.chain_id = ${int(chainId)} AND t.field = ${int(TOKEN_FIELD[field])}
    AND t.token LIKE ${str(`${escapeLike(word)}%`)} ${at ? locationFilterSql(at) : ""}`;
}

/**
 * Grid rows and exact distance on the word index's copied coordinates: with the index
 * (chain_id, field, geo_row, token) a word prefix is one short range per row of the circle. The
 * rows span the globe: a longitude window that holds the whole circle (longitudeWindow) is
 * checked before the distance, which it leaves the same for every word it lets through.
 */
function locationFilterSql(at: Location): string {
  const rows = geoRowsWithin(at.latitude, at.radiusKm);
  const band =
    rows.length <= MAX_ROW_LIST
      ? `t.geo_row IN (${rows.map(int).join(", ")})`
      : `t.geo_row BETWEEN ${int(rows[0]!)} AND ${int(rows[rows.length - 1]!)}`;
  const window = longitudeWindow(at);
  const lon = window ? ` AND t.longitude BETWEEN ${dbl(window[0])} AND ${dbl(window[1])}` : "";
  return `AND ${band}${lon} AND ${distanceSql(at, "t")} <= ${dbl(at.radiusKm)}`;
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

/** Haversine distance in km from the search point to the row `alias`, as SQL. */
function distanceSql(at: Location, alias: string): string {
  const lat = dbl(at.latitude);
  return `(${dbl(2 * EARTH_RADIUS_KM)} * ASIN(LEAST(1, SQRT(
    POW(SIN(RADIANS(${alias}.latitude - ${lat}) / 2), 2) +
    COS(RADIANS(${lat})) * COS(RADIANS(${alias}.latitude)) * POW(SIN(RADIANS(${alias}.longitude - ${dbl(at.longitude)}) / 2), 2)))))`;
}

function cellsSql(ranges: readonly CellRange[], alias = "b"): string {
  return `(${ranges.map(([a, z]) => `${alias}.geo_cell BETWEEN ${int(a)} AND ${int(z)}`).join(" OR ")})`;
}

function filterSql(f: BusinessSearch["filters"]): string[] {
  return Object.entries(f ?? {})
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${columnSql(key as BusinessColumn)} = ${literal(value!)}`);
}

/** A filter value as a literal: booleans as 0 / 1, numbers as numbers, text escaped. */
function literal(value: string | number | boolean): string {
  if (typeof value === "boolean") return value ? "1" : "0";
  if (typeof value === "number") return Number.isSafeInteger(value) ? int(value) : dbl(value);
  return str(value);
}

const COLUMNS = getTableColumns(businesses);

/** `b.<column>`: the row plan reads `businesses` as `b`. */
function columnSql(key: BusinessColumn): string {
  return `b.\`${COLUMNS[key].name}\``;
}
