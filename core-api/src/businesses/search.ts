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
 * groups anyway). Statements are drizzle queries, their SQL pieces in search-sql.ts, sent as
 * prepared statements (query.ts).
 */
import { and, asc, desc, eq, sql, type SQL } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { businesses } from "../db/schema.ts";
import { cellCover, cellRangesWithin } from "./geo.ts";
import { TOKEN_FIELD } from "./word-index.ts";
import { prefixPage } from "./prefix-search.ts";
import { BUSINESS_ROW_COLUMNS, hitsOf, orderBy, pageHits, pageWithRows, type BusinessHit, type OrderKey, type PageStatement, type PlannedPage } from "./page-rows.ts";
import { one, padded, precompiled, rowArrays, type Query } from "./query.ts";
import { AT, b, c, cellSlots, cellValues, distance, FROM_BUSINESSES, FROM_CELL_COUNTS, FROM_LOCATION_INDEX, FROM_WORDS } from "./search-sql.ts";
import { inCells, locationValues, textMatch, within, wordRange, t } from "./search-sql.ts";
import type { Location, Text, TextField } from "./search-sql.ts";

export type { BusinessHit, PageHits, PlannedPage } from "./page-rows.ts";
export type { TextField } from "./search-sql.ts";
export { longitudeWindow } from "./search-sql.ts";
/** A column of `businesses` by its drizzle key: any of them can be filtered on or sorted by. */
export type BusinessColumn = keyof typeof businesses.$inferSelect;

export interface BusinessSearch {
  chainId: number;
  /**
   * text search: terms as read by searchTermsOf; a business matches a term when one of `fields`
   * does. No terms (a text without a letter or digit) matches no business.
   */
  text?: Text;
  /** location search; radius in kilometres */
  location?: Location;
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

/** Placeholders of the precompiled statements: the chain, the page's size and start. */
const CHAIN = sql.placeholder("chain");
const LIMIT = sql.placeholder("limit");
const OFFSET = sql.placeholder("offset");
const key = (column: OrderKey["column"], descending = false): OrderKey => ({ column, descending });
/** A count's row as a number (none: 0). */
const countOf = (row: { n: number | string | null } | undefined) => Number(row?.n ?? 0);

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
  const filters = filterConditions(q.filters);
  const indexOnly = filters.length === 0 && (q.sort === undefined || q.sort.column === "id");
  const descending = q.sort?.column === "id" && q.sort.order === "desc";
  let plan: PlannedPage;
  if (indexOnly && q.location && !text) plan = locationPage(db, q.chainId, q.location, q.limit, q.offset, descending);
  else if (indexOnly && text) plan = wordsPage(db, q, text, descending, withTotal);
  else plan = rowPage(db, q, text, filters);

  // The total counts while the page's statement runs (unless that statement counts it).
  const counting = withTotal ? plan.total?.() : undefined;
  const [page, total] = await Promise.all([plan.hits, counting]);
  if (!withTotal) return { hits: page.hits };
  return { hits: page.hits, total: total ?? page.total ?? 0 };
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
      const found = hitsOf(await rowArrays(db, nearest(chainId, { ...at, radiusKm: radius }, limit, offset, descending)));
      if (found.length >= limit || radius >= at.radiusKm) return { hits: found };
      radius = Math.min(at.radiusKm, radius * 4);
    }
  };
  return { hits: hits(), total: () => countWithin(db, chainId, at) };
}

/** Number of live businesses of the chain within the circle (precompiled per number of inner and boundary ranges). */
async function countWithin(db: CoreDb, chainId: number, at: Location): Promise<number> {
  const cover = cellCover(at.latitude, at.longitude, at.radiusKm);
  const inner = padded(cover.inner);
  const boundary = padded(cover.boundary);
  if (!inner.length && !boundary.length) return 0;
  const build = () => {
    const parts: SQL[] = [];
    if (inner.length) {
      parts.push(sql`(SELECT COALESCE(SUM(${c.n}), 0) FROM ${FROM_CELL_COUNTS} WHERE ${c.chainId} = ${CHAIN} AND ${cellSlots(inner.length, c.geoCell, "inner")})`);
    }
    if (boundary.length) {
      parts.push(sql`(SELECT COUNT(*) FROM ${FROM_LOCATION_INDEX}
        WHERE ${b.chainId} = ${CHAIN} AND ${cellSlots(boundary.length, b.geoCell, "boundary")} AND ${within(AT, b.latitude, b.longitude)})`);
    }
    return sql`SELECT ${sql.join(parts, sql` + `)} AS n`;
  };
  const values = { chain: chainId, ...locationValues(at), inner: cellValues(inner), boundary: cellValues(boundary) };
  return countOf(await one(db, precompiled(`within:${inner.length}:${boundary.length}`, build, values)));
}

/**
 * The page of the live businesses of the chain within the circle, nearest first (the first
 * offset + limit of them), with its rows (precompiled per number of cell ranges and order).
 */
function nearest(chainId: number, at: Location, limit: number, offset: number, descending: boolean): Query {
  const ranges = padded(cellRangesWithin(at.latitude, at.longitude, at.radiusKm));
  const build = () =>
    pageWithRows({
      sql: sql`SELECT ${b.id}, ${distance(AT, b.latitude, b.longitude)} AS distance_km FROM ${FROM_LOCATION_INDEX}
        WHERE ${b.chainId} = ${CHAIN} AND ${cellSlots(ranges.length, b.geoCell, "cells")} AND ${within(AT, b.latitude, b.longitude)}
        ORDER BY distance_km ASC, ${descending ? desc(b.id) : asc(b.id)} LIMIT ${LIMIT} OFFSET ${OFFSET}`,
      order: [key("distance_km"), key("id", descending)],
    });
  const values = { chain: chainId, ...locationValues(at), cells: cellValues(ranges), limit, offset };
  return precompiled(`nearest:${ranges.length}:${descending}`, build, values);
}

/** Text, with or without location, from the word index alone. */
function wordsPage(db: CoreDb, q: BusinessSearch, text: Text, descending: boolean, withTotal: boolean): PlannedPage {
  if (text.terms.length === 1 && text.terms[0]!.length === 1 && text.fields.length === 1) {
    // One word in one field, the usual search: every match has the same relevance, and the only
    // duplicates are businesses with two words of that prefix, so no derived table is needed.
    const word = text.terms[0]![0]!;
    if (!q.location) return prefixPage(db, q.chainId, TOKEN_FIELD[text.fields[0]!], word, q.limit, q.offset, descending);
    return nearWordPage(db, q, text.fields[0]!, word, q.location, descending, withTotal);
  }
  const matches = textMatch(q.chainId, text, q.location);
  const order: OrderKey[] = [];
  if (q.location) order.push(key("distance_km"));
  if (q.orderByRelevance) order.push(key("relevance", true));
  order.push(key("id", descending));
  return {
    hits: pageHits(db, {
      sql: sql`SELECT business_id AS id, distance_km, relevance FROM (${matches}) m
        ORDER BY ${orderBy(order)} LIMIT ${q.limit} OFFSET ${q.offset}`,
      order,
    }).then((hits) => ({ hits })),
    total: () => one<{ n: number }>(db, sql`SELECT COUNT(*) AS n FROM (${matches}) m`).then(countOf),
  };
}

/** One word in one field within a circle: the matches grouped per business, nearest first. */
function nearWordPage(db: CoreDb, q: BusinessSearch, field: TextField, word: string, at: Location, descending: boolean, withTotal: boolean): PlannedPage {
  const range = sql`FROM ${FROM_WORDS} WHERE ${wordRange(q.chainId, field, word, at)}`;
  const count = () => one<{ n: number }>(db, sql`SELECT COUNT(DISTINCT ${t.businessId}) AS n ${range}`).then(countOf);
  const grouped = sql`SELECT ${t.businessId} AS id, MIN(${distance(at, t.latitude, t.longitude)}) AS distance_km ${range} GROUP BY ${t.businessId}`;
  const order = [key("distance_km"), key("id", descending)];
  const limited = sql`ORDER BY ${orderBy(order)} LIMIT ${q.limit} OFFSET ${q.offset}`;
  if (!withTotal) return { hits: pageHits(db, { sql: sql`${grouped} ${limited}`, order }).then((hits) => ({ hits })) };
  // The matches are grouped anyway: the window counts them before the page is cut (one scan).
  const counted = sql`SELECT id, distance_km, COUNT(*) OVER () AS total FROM (${grouped}) g ${limited}`;
  const hits = rowArrays(db, pageWithRows({ sql: counted, order }, sql`p.total`)).then(async (found) => ({
    hits: hitsOf(found),
    // No row: no match, or a page past the last (then the total is counted on its own).
    total: found.length ? Number(found[0]![BUSINESS_ROW_COLUMNS + 1]) : q.offset === 0 ? 0 : await count(),
  }));
  return { hits };
}

/** Anything with row filters or a date sort: join the rows; the total counts the same FROM ... WHERE. */
function rowPage(db: CoreDb, q: BusinessSearch, text: Text | undefined, filters: SQL[]): PlannedPage {
  const where: SQL[] = [eq(b.chainId, q.chainId), sql`${b.deleted} = 0`, ...filters];
  const dist = q.location ? distance(q.location, b.latitude, b.longitude) : undefined;
  if (q.location) {
    where.push(inCells(cellRangesWithin(q.location.latitude, q.location.longitude, q.location.radiusKm), b.geoCell));
    where.push(within(q.location, b.latitude, b.longitude));
  }
  const matches = text ? textMatch(q.chainId, text) : undefined;
  const from = matches ? sql`${FROM_BUSINESSES} JOIN (${matches}) m ON m.business_id = ${b.id}` : FROM_BUSINESSES;
  const select: SQL[] = [sql`${b.id}`, sql`${dist ?? sql`NULL`} AS distance_km`];
  const inner: SQL[] = [];
  const outer: OrderKey[] = [];
  if (dist) {
    inner.push(sql`distance_km ASC`);
    outer.push(key("distance_km"));
  }
  if (matches && q.orderByRelevance) {
    select.push(sql`m.relevance AS relevance`);
    inner.push(sql`m.relevance DESC`);
    outer.push(key("relevance", true));
  }
  if (q.sort && q.sort.column !== "id") {
    const column = b[q.sort.column];
    const descending = q.sort.order === "desc";
    select.push(sql`${column} AS sort_key`);
    inner.push(descending ? desc(column) : asc(column));
    outer.push(key("sort_key", descending));
  }
  const idDescending = q.sort?.column === "id" && q.sort.order === "desc";
  inner.push(idDescending ? desc(b.id) : asc(b.id));
  outer.push(key("id", idDescending));
  const condition = and(...where)!;
  const page = {
    sql: sql`SELECT ${sql.join(select, sql`, `)} FROM ${from} WHERE ${condition}
      ORDER BY ${sql.join(inner, sql`, `)} LIMIT ${q.limit} OFFSET ${q.offset}`,
    order: outer,
  };
  return {
    hits: pageHits(db, page).then((hits) => ({ hits })),
    total: () => one<{ n: number }>(db, sql`SELECT COUNT(*) AS n FROM ${from} WHERE ${condition}`).then(countOf),
  };
}

/**
 * The equality filters as conditions on `b`. Each value is bound as given (booleans as 0 / 1),
 * not through the column's encoder: a date column is filtered by its text.
 */
function filterConditions(f: BusinessSearch["filters"]): SQL[] {
  return Object.entries(f ?? {})
    .filter(([, value]) => value !== undefined)
    .map(([column, value]) => sql`${b[column as BusinessColumn]} = ${typeof value === "boolean" ? Number(value) : value}`);
}
