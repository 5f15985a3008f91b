/**
 * Business search: filters, text search, location search, ordering and paging, shared by
 * get-businesses and `GET /resources/businesses` (spec, "List parameters", "Location search",
 * get-businesses).
 *
 * Two plans:
 * - index plan: when the query needs nothing but the search itself (no row filter, ordering by
 *   distance / relevance / id), candidates come from the location index
 *   (chain_id, geo_cell, latitude, longitude) and the word index alone, are ordered and cut to
 *   the page there, and only the page's rows are read;
 * - row plan: otherwise the same candidate set is joined to the rows to filter and sort.
 * Both count the total with a window function in the same statement.
 */
import { sql, type SQL } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { cellRangesWithin, EARTH_RADIUS_KM } from "./geo.ts";
import { findBusinessesByIds, TOKEN_FIELD, type BusinessRow } from "./repository.ts";
import { escapeLike } from "./text.ts";

export type TextField = keyof typeof TOKEN_FIELD;
export type SortColumn = "id" | "created_date" | "last_modified_date";

export interface BusinessSearch {
  chainId: number;
  /** text search: terms as parsed by parseSearchTerms; a business matches a term when one of `fields` does */
  text?: { terms: string[][]; fields: TextField[]; matchAll: boolean };
  /** location search; radius in kilometres */
  location?: { latitude: number; longitude: number; radiusKm: number };
  /** equality filters (spec, filter properties of Business) */
  filters?: {
    id?: number;
    name?: string;
    ownerCode?: string;
    countryCode?: string;
    region?: string;
    towncity?: string;
    isShutDown?: boolean;
  };
  /** order after distance and relevance; id ascending breaks the remaining ties */
  sort?: { column: SortColumn; order: "asc" | "desc" };
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
  /** number of businesses matching, all pages together */
  total: number;
}

/** Relevance weight of a term matched in a field. */
const FIELD_WEIGHT: Record<TextField, number> = { name: 2, owner_code: 1 };

const SORT_SQL: Record<SortColumn, SQL> = {
  id: sql`b.id`,
  created_date: sql`b.created_date`,
  last_modified_date: sql`b.last_modified_date`,
};

/**
 * Runs a business search.
 * @returns the page of hits in order, with the total count
 */
export async function searchBusinesses(db: CoreDb, q: BusinessSearch): Promise<BusinessSearchResult> {
  const text = q.text && q.text.terms.length > 0 ? q.text : undefined;
  const distance = q.location ? distanceSql(q.location.latitude, q.location.longitude) : undefined;
  const matches = text ? textMatchSql(q.chainId, text) : undefined;
  const rowFilters = filterSql(q.filters);
  const sortNeedsRow = q.sort !== undefined && q.sort.column !== "id";
  const indexPlan = (distance || matches) && rowFilters.length === 0 && !sortNeedsRow;

  // Text-only index plan: the word index alone answers (it holds the chain and no deleted business).
  const wordsOnly = indexPlan && !distance;
  const idCol = wordsOnly ? sql`m.business_id` : sql`b.id`;

  const order: SQL[] = [];
  if (distance) order.push(sql`distance_km ASC`);
  if (matches && q.orderByRelevance) order.push(sql`relevance DESC`);
  if (q.sort && q.sort.column !== "id") order.push(sql`${SORT_SQL[q.sort.column]} ${q.sort.order === "desc" ? sql`DESC` : sql`ASC`}`);
  order.push(q.sort?.column === "id" && q.sort.order === "desc" ? sql`${idCol} DESC` : sql`${idCol} ASC`);

  const where: SQL[] = wordsOnly ? [sql`1 = 1`] : [sql`b.chain_id = ${q.chainId}`];
  if (distance && q.location) {
    const ranges = cellRangesWithin(q.location.latitude, q.location.longitude, q.location.radiusKm);
    where.push(sql`(${sql.join(ranges.map(([a, z]) => sql`b.geo_cell BETWEEN ${a} AND ${z}`), sql` OR `)})`);
    where.push(sql`${distance} <= ${q.location.radiusKm}`);
  }
  const columns = sql.join(
    [
      sql`${idCol} AS id`,
      distance ? sql`${distance} AS distance_km` : sql`NULL AS distance_km`,
      matches ? sql`m.relevance AS relevance` : sql`0 AS relevance`,
      sql`COUNT(*) OVER () AS total_count`,
    ],
    sql`, `,
  );
  if (!indexPlan) where.push(sql`b.deleted = 0`, ...rowFilters);
  // The index plan reads only the location index (deleted businesses have no grid cell) or the
  // word index (deleted businesses have no words), so it touches no row before the page.
  let from: SQL;
  let join = sql``;
  if (wordsOnly) from = sql`(${matches}) m`;
  else {
    from = indexPlan ? sql`businesses b FORCE INDEX (businesses_location_search)` : sql`businesses b`;
    if (matches) join = sql`JOIN (${matches}) m ON m.business_id = b.id`;
  }

  const statement = sql`SELECT ${columns} FROM ${from} ${join} WHERE ${sql.join(where, sql` AND `)}
    ORDER BY ${sql.join(order, sql`, `)} LIMIT ${q.limit} OFFSET ${q.offset}`;
  const [rows] = (await db.execute(statement)) as unknown as [Array<{ id: number; distance_km: number | null; total_count: number }>];

  const total = rows.length > 0 ? Number(rows[0]!.total_count) : await countOnly(db, from, join, where, q.offset);
  const found = await findBusinessesByIds(db, rows.map((r) => r.id));
  const distances = new Map(rows.map((r) => [r.id, r.distance_km === null ? null : Number(r.distance_km)]));
  return { hits: found.map((row) => ({ row, distanceKm: distances.get(row.id) ?? null })), total };
}

// A page past the end has no row to carry the window count, so count separately (rare).
async function countOnly(db: CoreDb, from: SQL, join: SQL, where: SQL[], offset: number): Promise<number> {
  if (offset === 0) return 0;
  const [rows] = (await db.execute(
    sql`SELECT COUNT(*) AS n FROM ${from} ${join} WHERE ${sql.join(where, sql` AND `)}`,
  )) as unknown as [Array<{ n: number }>];
  return Number(rows[0]?.n ?? 0);
}

/** Haversine distance in km from the search point to the business, as SQL. */
function distanceSql(lat: number, lon: number): SQL {
  return sql`(${2 * EARTH_RADIUS_KM} * ASIN(LEAST(1, SQRT(
    POW(SIN(RADIANS(b.latitude - ${lat}) / 2), 2) +
    COS(RADIANS(${lat})) * COS(RADIANS(b.latitude)) * POW(SIN(RADIANS(b.longitude - ${lon}) / 2), 2)))))`;
}

/**
 * The businesses matching the text search, one row each: (business_id, relevance).
 * A term matches in a field when every word of the term prefixes some word of the field.
 */
function textMatchSql(chainId: number, text: NonNullable<BusinessSearch["text"]>): SQL {
  const parts: SQL[] = [];
  text.terms.forEach((words, termIndex) => {
    for (const field of text.fields) {
      const code = TOKEN_FIELD[field];
      const weight = FIELD_WEIGHT[field];
      if (words.length === 1) {
        parts.push(sql`SELECT DISTINCT business_id, ${termIndex} AS term, ${weight} AS weight
          FROM business_search_tokens
          WHERE chain_id = ${chainId} AND field = ${code} AND token LIKE ${`${escapeLike(words[0]!)}%`}`);
      } else {
        const perWord = words.map(
          (w, i) => sql`SELECT DISTINCT business_id, ${i} AS word FROM business_search_tokens
            WHERE chain_id = ${chainId} AND field = ${code} AND token LIKE ${`${escapeLike(w)}%`}`,
        );
        parts.push(sql`SELECT business_id, ${termIndex} AS term, ${weight} AS weight
          FROM (${sql.join(perWord, sql` UNION ALL `)}) w GROUP BY business_id HAVING COUNT(*) = ${words.length}`);
      }
    }
  });
  const having = text.matchAll ? sql`HAVING COUNT(DISTINCT term) = ${text.terms.length}` : sql``;
  return sql`SELECT business_id, SUM(weight) AS relevance FROM (${sql.join(parts, sql` UNION ALL `)}) t
    GROUP BY business_id ${having}`;
}

function filterSql(f: BusinessSearch["filters"]): SQL[] {
  if (!f) return [];
  const out: SQL[] = [];
  if (f.id !== undefined) out.push(sql`b.id = ${f.id}`);
  if (f.name !== undefined) out.push(sql`b.name = ${f.name}`);
  if (f.ownerCode !== undefined) out.push(sql`b.owner_code = ${f.ownerCode}`);
  if (f.countryCode !== undefined) out.push(sql`b.country_code = ${f.countryCode}`);
  if (f.region !== undefined) out.push(sql`b.region = ${f.region}`);
  if (f.towncity !== undefined) out.push(sql`b.towncity = ${f.towncity}`);
  if (f.isShutDown !== undefined) out.push(sql`b.is_shut_down = ${f.isShutDown ? 1 : 0}`);
  return out;
}
