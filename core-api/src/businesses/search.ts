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
 *   the words filters by distance too.
 * Anything else (equality filters, sorting by a date) joins the rows: the row plan.
 * Deleted businesses have no grid cell and no words, so the index plans skip them for free.
 */
import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { businesses } from "../db/schema.ts";
import { cellCover, cellRangesWithin, EARTH_RADIUS_KM, geoRowsWithin, type CellRange } from "./geo.ts";
import { findBusinessesByIds, TOKEN_FIELD, type BusinessRow } from "./business-repository.ts";
import { prefixPage } from "./prefix-search.ts";
import { one, rows } from "./query.ts";
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

export interface BusinessHit {
  row: BusinessRow;
  /** kilometres from the search point; null without location search */
  distanceKm: number | null;
}

export interface BusinessSearchResult {
  hits: BusinessHit[];
  /** number of businesses matching, all pages together; undefined when not asked for */
  total?: number;
}

type Location = NonNullable<BusinessSearch["location"]>;
type Text = NonNullable<BusinessSearch["text"]>;
type PageRow = { id: number; distance_km: number | null };
/**
 * A plan's page (its query already sent) and how to count its total: asked for, the count runs
 * side by side with the page on a connection of its own; not asked for, it never runs.
 */
export type PlannedPage = { rows: Promise<PageRow[]>; total: () => Promise<number> };

const countOf = (counted: Promise<{ n: number } | undefined>) => counted.then((c) => Number(c?.n ?? 0));

/** Relevance weight of a term matched in a field. */
const FIELD_WEIGHT: Record<TextField, number> = { name: 2, owner_code: 1 };
/** Up to this many grid rows (about 900 km) a text + location search lists them one by one. */
const MAX_ROW_LIST = 400;
const LOCATION_INDEX = sql`businesses b FORCE INDEX (businesses_location_search)`;

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
  else if (indexOnly && text) plan = wordsPage(db, q, text, descending);
  else plan = rowPage(db, q, text, filters);

  // The page's rows are read as soon as the page is known, while the total is still counting.
  const [hits, total] = await Promise.all([
    plan.rows.then(async (page) => {
      const found = await findBusinessesByIds(db, page.map((r) => r.id));
      const distances = new Map(page.map((r) => [r.id, r.distance_km === null ? null : Number(r.distance_km)]));
      return found.map((row) => ({ row, distanceKm: distances.get(row.id) ?? null }));
    }),
    withTotal ? plan.total() : undefined,
  ]);
  return total === undefined ? { hits } : { hits, total };
}

/** Location only: total from the cells, page from a circle grown until it holds it. */
function locationPage(db: CoreDb, chainId: number, at: Location, limit: number, offset: number, descending: boolean): PlannedPage {
  const wanted = offset + limit;
  // The page starts from a small circle (2 km, what a dense city needs for a page) grown until it
  // holds the page: every business outside it is farther than all inside.
  const page = async () => {
    let radius = Math.min(at.radiusKm, 2 * Math.max(1, Math.sqrt(wanted / 25)));
    for (;;) {
      const found = await nearest(db, chainId, { ...at, radiusKm: radius }, wanted, descending);
      if (found.length >= wanted || radius >= at.radiusKm) return found.slice(offset);
      radius = Math.min(at.radiusKm, radius * 4);
    }
  };
  return { rows: page(), total: () => countWithin(db, chainId, at) };
}

/** Number of live businesses of the chain within the circle. */
async function countWithin(db: CoreDb, chainId: number, at: Location): Promise<number> {
  const { inner, boundary } = cellCover(at.latitude, at.longitude, at.radiusKm);
  const parts: SQL[] = [];
  if (inner.length) {
    parts.push(sql`(SELECT COALESCE(SUM(c.n), 0) FROM business_geo_cell_counts c
      WHERE c.chain_id = ${chainId} AND ${cellsSql(inner, sql`c`)})`);
  }
  if (boundary.length) {
    parts.push(sql`(SELECT COUNT(*) FROM ${LOCATION_INDEX} WHERE b.chain_id = ${chainId} AND ${cellsSql(boundary)}
      AND ${distanceSql(at, sql`b`)} <= ${at.radiusKm})`);
  }
  if (!parts.length) return 0;
  return Number((await one<{ n: number }>(db, sql`SELECT ${sql.join(parts, sql` + `)} AS n`))?.n ?? 0);
}

/** The `limit` nearest live businesses of the chain within the circle, nearest first. */
async function nearest(db: CoreDb, chainId: number, at: Location, limit: number, descending: boolean): Promise<PageRow[]> {
  const distance = distanceSql(at, sql`b`);
  return rows<PageRow>(
    db,
    sql`SELECT b.id, ${distance} AS distance_km FROM ${LOCATION_INDEX}
      WHERE b.chain_id = ${chainId} AND ${cellsSql(cellRangesWithin(at.latitude, at.longitude, at.radiusKm))}
        AND ${distance} <= ${at.radiusKm}
      ORDER BY distance_km ASC, b.id ${descending ? sql`DESC` : sql`ASC`} LIMIT ${limit}`,
  );
}

/** Text, with or without location, from the word index alone. */
function wordsPage(db: CoreDb, q: BusinessSearch, text: Text, descending: boolean): PlannedPage {
  const idOrder = descending ? sql`DESC` : sql`ASC`;
  if (text.terms.length === 1 && text.terms[0]!.length === 1 && text.fields.length === 1) {
    // One word in one field, the usual search: every match has the same relevance, and the only
    // duplicates are businesses with two words of that prefix, so no derived table is needed.
    const word = text.terms[0]![0]!;
    if (!q.location) return prefixPage(db, q.chainId, TOKEN_FIELD[text.fields[0]!], word, q.limit, q.offset, descending);
    const range = wordRangeSql(q.chainId, text.fields[0]!, word, q.location);
    return {
      rows: rows<PageRow>(
        db,
        sql`SELECT t.business_id AS id, MIN(${distanceSql(q.location, sql`t`)}) AS distance_km ${range} GROUP BY t.business_id
          ORDER BY distance_km ASC, t.business_id ${idOrder} LIMIT ${q.limit} OFFSET ${q.offset}`,
      ),
      total: () => countOf(one<{ n: number }>(db, sql`SELECT COUNT(DISTINCT t.business_id) AS n ${range}`)),
    };
  }
  const matches = textMatchSql(q.chainId, text, q.location);
  const order: SQL[] = [];
  if (q.location) order.push(sql`distance_km ASC`);
  if (q.orderByRelevance) order.push(sql`relevance DESC`);
  order.push(sql`business_id ${idOrder}`);
  return {
    rows: rows<PageRow>(
      db,
      sql`SELECT business_id AS id, distance_km FROM (${matches}) m
        ORDER BY ${sql.join(order, sql`, `)} LIMIT ${q.limit} OFFSET ${q.offset}`,
    ),
    total: () => countOf(one<{ n: number }>(db, sql`SELECT COUNT(*) AS n FROM (${matches}) m`)),
  };
}

/** Anything with row filters or a date sort: join the rows. */
function rowPage(db: CoreDb, q: BusinessSearch, text: Text | undefined, filters: SQL[]): PlannedPage {
  const where: SQL[] = [sql`b.chain_id = ${q.chainId}`, sql`b.deleted = 0`, ...filters];
  const distance = q.location ? distanceSql(q.location, sql`b`) : undefined;
  if (q.location && distance) {
    where.push(cellsSql(cellRangesWithin(q.location.latitude, q.location.longitude, q.location.radiusKm)));
    where.push(sql`${distance} <= ${q.location.radiusKm}`);
  }
  const matches = text ? textMatchSql(q.chainId, text) : undefined;
  const from = sql`businesses b ${matches ? sql`JOIN (${matches}) m ON m.business_id = b.id` : sql``}`;
  const order: SQL[] = [];
  if (distance) order.push(sql`distance_km ASC`);
  if (matches && q.orderByRelevance) order.push(sql`m.relevance DESC`);
  if (q.sort && q.sort.column !== "id") {
    order.push(sql`${columnSql(q.sort.column)} ${q.sort.order === "desc" ? sql`DESC` : sql`ASC`}`);
  }
  order.push(q.sort?.column === "id" && q.sort.order === "desc" ? sql`b.id DESC` : sql`b.id ASC`);
  const condition = sql.join(where, sql` AND `);
  return {
    rows: rows<PageRow>(
      db,
      sql`SELECT b.id, ${distance ?? sql`NULL`} AS distance_km FROM ${from} WHERE ${condition}
        ORDER BY ${sql.join(order, sql`, `)} LIMIT ${q.limit} OFFSET ${q.offset}`,
    ),
    total: () => countOf(one<{ n: number }>(db, sql`SELECT COUNT(*) AS n FROM ${from} WHERE ${condition}`)),
  };
}

/**
 * The businesses matching the text search, one row each: (business_id, relevance, distance_km).
 * A term matches in a field when every word of the term prefixes some word of the field. With a
 * location, only words of businesses within the circle count (the word index has coordinates).
 */
function textMatchSql(chainId: number, text: Text, at?: Location): SQL {
  const distance = at ? distanceSql(at, sql`t`) : sql`NULL`;
  const words = (field: TextField, word: string) => wordRangeSql(chainId, field, word, at);
  const parts: SQL[] = [];
  text.terms.forEach((term, termIndex) => {
    for (const field of text.fields) {
      const weight = FIELD_WEIGHT[field];
      if (term.length === 1) {
        parts.push(sql`SELECT DISTINCT t.business_id, ${termIndex} AS term, ${weight} AS weight, ${distance} AS distance_km ${words(field, term[0]!)}`);
      } else {
        const perWord = term.map((w, i) => sql`SELECT DISTINCT t.business_id, ${i} AS word, ${distance} AS distance_km ${words(field, w)}`);
        parts.push(sql`SELECT business_id, ${termIndex} AS term, ${weight} AS weight, MIN(distance_km) AS distance_km
          FROM (${sql.join(perWord, sql` UNION ALL `)}) w GROUP BY business_id HAVING COUNT(DISTINCT word) = ${term.length}`);
      }
    }
  });
  const having = text.matchAll ? sql`HAVING COUNT(DISTINCT term) = ${text.terms.length}` : sql``;
  return sql`SELECT business_id, SUM(weight) AS relevance, MIN(distance_km) AS distance_km
    FROM (${sql.join(parts, sql` UNION ALL `)}) t GROUP BY business_id ${having}`;
}

/**
 * `FROM business_search_tokens t WHERE ...`: the words of `field` starting with `word` in the
 * chain, and with a location only those of businesses within the circle.
 */
function wordRangeSql(chainId: number, field: TextField, word: string, at?: Location): SQL {
  return sql`FROM business_search_tokens t WHERE t.chain_id = ${chainId} AND t.field = ${TOKEN_FIELD[field]}
    AND t.token LIKE ${`${escapeLike(word)}%`} ${at ? locationFilterSql(at) : sql``}`;
}

/**
 * Grid rows and exact distance on the word index's copied coordinates: with the index
 * (chain_id, field, geo_row, token) a word prefix is one short range per row of the circle.
 */
function locationFilterSql(at: Location): SQL {
  const rows = geoRowsWithin(at.latitude, at.radiusKm);
  const band =
    rows.length <= MAX_ROW_LIST
      ? sql`t.geo_row IN (${sql.join(rows.map((r) => sql`${r}`), sql`, `)})`
      : sql`t.geo_row BETWEEN ${rows[0]!} AND ${rows[rows.length - 1]!}`;
  return sql`AND ${band} AND ${distanceSql(at, sql`t`)} <= ${at.radiusKm}`;
}

/** Haversine distance in km from the search point to the row `alias`, as SQL. */
function distanceSql(at: Location, alias: SQL): SQL {
  const lat = sql`${alias}.latitude`;
  const lon = sql`${alias}.longitude`;
  return sql`(${2 * EARTH_RADIUS_KM} * ASIN(LEAST(1, SQRT(
    POW(SIN(RADIANS(${lat} - ${at.latitude}) / 2), 2) +
    COS(RADIANS(${at.latitude})) * COS(RADIANS(${lat})) * POW(SIN(RADIANS(${lon} - ${at.longitude}) / 2), 2)))))`;
}

function cellsSql(ranges: CellRange[], alias: SQL = sql`b`): SQL {
  return sql`(${sql.join(ranges.map(([a, z]) => sql`${alias}.geo_cell BETWEEN ${a} AND ${z}`), sql` OR `)})`;
}

function filterSql(f: BusinessSearch["filters"]): SQL[] {
  return Object.entries(f ?? {})
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => sql`${columnSql(key as BusinessColumn)} = ${typeof value === "boolean" ? Number(value) : value}`);
}

const COLUMNS = getTableColumns(businesses);

/** `b.<column>`: the row plan reads `businesses` as `b`. */
function columnSql(key: BusinessColumn): SQL {
  return sql`b.${sql.identifier(COLUMNS[key].name)}`;
}
