/**
 * The baseline: each search as a plain full-scan SQL statement over `businesses`, with every
 * secondary index ignored, so the server reads the whole table, computes the haversine distance
 * for every row and matches the name with a REGEXP (what a straightforward implementation
 * without the grid cells and the word index does).
 *
 * Semantics match core-api's search exactly on the benchmark's (ASCII) names:
 * - distance: haversine on the mean Earth radius 6371.0088 km, written as core-api writes it,
 *   so the values (and the ties) are the same;
 * - text: a word-prefix match, `(^|[^[:alnum:]])prefix` on the lower-cased name (tokenize splits
 *   words at anything that is not a letter or digit);
 * - order: distance, then id; id alone without location (one term in one field gives every
 *   match the same relevance).
 */
import { sql, type SQL } from "drizzle-orm";
import { EARTH_RADIUS_KM } from "../core-api/src/businesses/geo.ts";
import type { CoreDb } from "../core-api/src/db/client.ts";
import type { Page, SearchCase } from "./cases.ts";

/** Every secondary index of `businesses`: the baseline may use none. */
const IGNORED = sql.raw(
  "IGNORE INDEX (businesses_location_search, businesses_unique_owner_code_per_chain, " +
    "businesses_list_by_created, businesses_list_by_modified)",
);

/** Characters with a meaning in a regular expression, escaped in the prefix. */
const escapeRegexp = (s: string) => s.replace(/[\\^$.*+?()[\]{}|]/g, (ch) => `\\${ch}`);

/** The full-scan statement of `c` on chain `chainId` (the page's full rows plus the total). */
export function baselineSql(c: SearchCase, chainId: number): SQL {
  const where: SQL[] = [sql`b.chain_id = ${chainId}`, sql`b.deleted = 0`];
  let distance = sql`NULL`;
  if (c.location) {
    const { latitude: lat, longitude: lon, radiusKm } = c.location;
    distance = sql`(${2 * EARTH_RADIUS_KM} * ASIN(LEAST(1, SQRT(
      POW(SIN(RADIANS(b.latitude - ${lat}) / 2), 2) +
      COS(RADIANS(${lat})) * COS(RADIANS(b.latitude)) * POW(SIN(RADIANS(b.longitude - ${lon}) / 2), 2)))))`;
    where.push(sql`b.latitude IS NOT NULL AND b.longitude IS NOT NULL`, sql`${distance} <= ${radiusKm}`);
  }
  if (c.prefix) where.push(sql`LOWER(b.name) REGEXP ${`(^|[^[:alnum:]])${escapeRegexp(c.prefix.toLowerCase())}`}`);
  const order = c.location ? sql`distance_km ASC, b.id ASC` : sql`b.id ASC`;
  return sql`SELECT b.*, ${distance} AS distance_km, COUNT(*) OVER () AS total_count
    FROM businesses b ${IGNORED}
    WHERE ${sql.join(where, sql` AND `)}
    ORDER BY ${order} LIMIT ${c.limit}`;
}

/**
 * Runs the baseline of `c` once.
 * @returns the page (ids, distances, total) and the milliseconds the statement took
 */
export async function runBaseline(db: CoreDb, c: SearchCase, chainId: number): Promise<{ page: Page; ms: number }> {
  const started = performance.now();
  const [rows] = (await db.execute(baselineSql(c, chainId))) as unknown as [
    Array<{ id: number; distance_km: number | null; total_count: number }>,
  ];
  const ms = performance.now() - started;
  return {
    ms,
    page: {
      ids: rows.map((r) => Number(r.id)),
      distances: rows.map((r) => (r.distance_km === null ? null : Number(r.distance_km))),
      total: rows.length > 0 ? Number(rows[0]!.total_count) : 0,
    },
  };
}

/** EXPLAIN of the baseline of `c`, one line per table access (shows the full scan). */
export async function explainBaseline(db: CoreDb, c: SearchCase, chainId: number): Promise<string[]> {
  const [rows] = (await db.execute(sql`EXPLAIN ${baselineSql(c, chainId)}`)) as unknown as [Array<Record<string, unknown>>];
  return rows.map((r) => `table=${r.table} type=${r.type} key=${r.key ?? "NULL"} rows=${r.rows} extra=${r.Extra ?? ""}`);
}
