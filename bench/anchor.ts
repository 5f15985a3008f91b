/**
 * The anchor: what a competent developer would build instead of our grid cells and word index,
 * on the same server and the same data. A copy of the chain's businesses with a POINT column
 * under a SPATIAL index and a FULLTEXT index on (name, owner_code), searched the obvious way:
 * - location: the circle's bounding box through the spatial index (MBRContains), then the exact
 *   haversine distance (written as core-api and the full scan write it, so distances and ties are
 *   identical), nearest first;
 * - text: MATCH ... AGAINST ('+bak*' IN BOOLEAN MODE), by id;
 * - both: the two conditions together (the optimizer picks the index).
 * Each search is one statement returning the page's full rows and the total (COUNT(*) OVER ()),
 * like the full-scan baseline, so its page compares with the baseline's for identity.
 *
 * The table (`bench_anchor_businesses`) holds one chain; it is rebuilt when it holds another
 * chain or another number of stores: rows copied first, the two indexes built afterwards.
 */
import { sql, type SQL } from "drizzle-orm";
import { EARTH_RADIUS_KM } from "../core-api/src/businesses/geo.ts";
import type { CoreDb } from "../core-api/src/db/client.ts";
import type { Page, SearchCase } from "./cases.ts";

export const ANCHOR_TABLE = "bench_anchor_businesses";
const TABLE = sql.raw(ANCHOR_TABLE);
/** Our grid-cell index, which the anchor must not have (the copy takes the table's other indexes). */
const OUR_INDEXES = ["businesses_location_search"];
/** Rows per INSERT ... SELECT when copying. */
const COPY_CHUNK = 50_000;

const rowsOf = async <T>(db: CoreDb, q: SQL): Promise<T[]> => ((await db.execute(q)) as unknown as [T[]])[0];

/**
 * Makes sure the anchor table holds exactly the live businesses of `chainId` (`count` of them),
 * rebuilding it otherwise.
 * @returns seconds the build took (0 when the table was reused)
 */
export async function ensureAnchor(db: CoreDb, chainId: number, count: number): Promise<{ seconds: number; reused: boolean }> {
  const [exists] = await rowsOf<{ n: number }>(
    db,
    sql`SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = ${ANCHOR_TABLE}`,
  );
  if (Number(exists?.n) > 0) {
    const [held] = await rowsOf<{ n: number; other: number }>(
      db,
      sql`SELECT SUM(chain_id = ${chainId}) AS n, SUM(chain_id <> ${chainId}) AS other FROM ${TABLE}`,
    );
    const [indexes] = await rowsOf<{ n: number }>(
      db,
      sql`SELECT COUNT(*) AS n FROM information_schema.statistics WHERE table_schema = DATABASE() AND table_name = ${ANCHOR_TABLE} AND index_name IN ('anchor_location', 'anchor_text')`,
    );
    if (Number(held?.n ?? 0) === count && Number(held?.other ?? 0) === 0 && Number(indexes?.n) > 0) return { seconds: 0, reused: true };
  }
  const started = performance.now();
  await db.execute(sql`DROP TABLE IF EXISTS ${TABLE}`);
  await db.execute(sql`CREATE TABLE ${TABLE} LIKE businesses`);
  for (const index of OUR_INDEXES) await db.execute(sql`ALTER TABLE ${TABLE} DROP INDEX ${sql.raw(index)}`);
  await db.execute(sql`ALTER TABLE ${TABLE} ADD COLUMN location POINT NOT NULL`);
  const columns = await rowsOf<{ name: string }>(
    db,
    sql`SELECT column_name AS name FROM information_schema.columns
        WHERE table_schema = DATABASE() AND table_name = 'businesses' AND extra NOT LIKE '%GENERATED%'
        ORDER BY ordinal_position`,
  );
  const list = sql.raw(columns.map((c) => `\`${c.name}\``).join(", "));
  const [range] = await rowsOf<{ lo: number | null; hi: number | null }>(
    db,
    sql`SELECT MIN(id) AS lo, MAX(id) AS hi FROM businesses WHERE chain_id = ${chainId}`,
  );
  for (let from = Number(range?.lo ?? 1); range?.hi !== null && from <= Number(range?.hi); from += COPY_CHUNK) {
    await db.execute(sql`INSERT INTO ${TABLE} (${list}, location)
      SELECT ${list}, POINT(COALESCE(longitude, 0), COALESCE(latitude, 0)) FROM businesses
      WHERE chain_id = ${chainId} AND deleted = 0 AND id >= ${from} AND id < ${from + COPY_CHUNK}`);
  }
  await db.execute(sql`ALTER TABLE ${TABLE} ADD SPATIAL INDEX anchor_location (location), ADD FULLTEXT INDEX anchor_text (name, owner_code)`);
  await db.execute(sql`ANALYZE TABLE ${TABLE}`);
  return { seconds: (performance.now() - started) / 1000, reused: false };
}

/** The boolean-mode query of a word prefix: every word of `prefix` required, as a prefix. */
export function fulltextQuery(prefix: string): string {
  return prefix
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map((w) => `+${w}*`)
    .join(" ");
}

/** The anchor's statement for `c` on chain `chainId`. */
export function anchorSql(c: SearchCase, chainId: number): SQL {
  const where: SQL[] = [sql`b.chain_id = ${chainId}`, sql`b.deleted = 0`];
  let distance = sql`NULL`;
  if (c.location) {
    const { latitude: lat, longitude: lon, radiusKm } = c.location;
    const dLat = radiusKm / 111.195;
    const dLon = radiusKm / (111.195 * Math.cos((lat * Math.PI) / 180));
    const box = `POLYGON((${lon - dLon} ${lat - dLat}, ${lon + dLon} ${lat - dLat}, ${lon + dLon} ${lat + dLat}, ${lon - dLon} ${lat + dLat}, ${lon - dLon} ${lat - dLat}))`;
    distance = sql`(${2 * EARTH_RADIUS_KM} * ASIN(LEAST(1, SQRT(
      POW(SIN(RADIANS(b.latitude - ${lat}) / 2), 2) +
      COS(RADIANS(${lat})) * COS(RADIANS(b.latitude)) * POW(SIN(RADIANS(b.longitude - ${lon}) / 2), 2)))))`;
    where.push(sql`MBRContains(ST_GeomFromText(${box}), b.location)`);
    where.push(sql`b.latitude IS NOT NULL AND b.longitude IS NOT NULL`, sql`${distance} <= ${radiusKm}`);
  }
  if (c.prefix) where.push(sql`MATCH (b.name, b.owner_code) AGAINST (${fulltextQuery(c.prefix)} IN BOOLEAN MODE)`);
  const order = c.location ? sql`distance_km ASC, b.id ASC` : sql`b.id ASC`;
  return sql`SELECT b.*, ${distance} AS distance_km, COUNT(*) OVER () AS total_count
    FROM ${TABLE} b
    WHERE ${sql.join(where, sql` AND `)}
    ORDER BY ${order} LIMIT ${c.limit}`;
}

/**
 * Runs the anchor's search `c` once.
 * @returns the page (ids, distances, total) and the milliseconds the statement took
 */
export async function runAnchor(db: CoreDb, c: SearchCase, chainId: number): Promise<{ page: Page; ms: number }> {
  const started = performance.now();
  const rows = await rowsOf<{ id: number; distance_km: number | null; total_count: number }>(db, anchorSql(c, chainId));
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

/** EXPLAIN of the anchor's search `c`, one line per table access (shows the index it uses). */
export async function explainAnchor(db: CoreDb, c: SearchCase, chainId: number): Promise<string[]> {
  const rows = await rowsOf<Record<string, unknown>>(db, sql`EXPLAIN ${anchorSql(c, chainId)}`);
  return rows.map((r) => `table=${r.table} type=${r.type} key=${r.key ?? "NULL"} rows=${r.rows} extra=${r.Extra ?? ""}`);
}
