/**
 * Location search geometry (spec, "Location search"): great-circle distances and the grid cells
 * that index business coordinates.
 *
 * The grid splits the globe into CELL_DEGREES x CELL_DEGREES cells numbered row-major
 * (`row * COLUMNS + column`), so the cells of one row that a search circle touches form one
 * contiguous id range. A radius search then reads a handful of index ranges on
 * (chain_id, geo_cell) instead of the whole chain, and needs no spatial index, so it runs on any
 * MySQL-protocol engine. Cells lying wholly inside the circle ("inner") can be counted from the
 * index alone, without computing a distance per business.
 */

/** Mean Earth radius in kilometres (IUGG), the value turf and most GIS tools use. */
export const EARTH_RADIUS_KM = 6371.0088;
/** 0.02 degrees: about 2.2 km north-south; a 25 km search reads about 23 short ranges. */
export const CELL_DEGREES = 0.02;
const COLUMNS = Math.round(360 / CELL_DEGREES);
const ROWS = Math.round(180 / CELL_DEGREES);
const KM_PER_DEGREE_LAT = (Math.PI * EARTH_RADIUS_KM) / 180;
/** Above this many grid rows a search takes its whole latitude band as one range. */
const MAX_ROWS = 400;

export type CellRange = [first: number, last: number];

/** The grid cells a circle touches: `inner` wholly inside it, `boundary` the rest (shared: never changed by a caller). */
export interface CellCover {
  readonly inner: readonly CellRange[];
  readonly boundary: readonly CellRange[];
}

const rad = (deg: number) => (deg * Math.PI) / 180;
const hav = (x: number) => Math.sin(x / 2) ** 2;

/** Haversine distance in kilometres between two points given in decimal degrees. */
export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const a = hav(rad(lat2 - lat1)) + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * hav(rad(lon2 - lon1));
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

const rowOf = (lat: number) => Math.min(ROWS - 1, Math.max(0, Math.floor((lat + 90) / CELL_DEGREES)));
const colOf = (lon: number) => {
  const c = Math.floor((lon + 180) / CELL_DEGREES);
  return ((c % COLUMNS) + COLUMNS) % COLUMNS;
};

/** The grid row of a latitude; null when it is missing. */
export function geoRow(lat: number | null | undefined): number | null {
  return lat === null || lat === undefined ? null : rowOf(lat);
}

/** The grid rows a circle of `radiusKm` around latitude `lat` spans, south to north. */
export function geoRowsWithin(lat: number, radiusKm: number): number[] {
  const dLat = radiusKm / KM_PER_DEGREE_LAT;
  const rows: number[] = [];
  for (let row = rowOf(Math.max(-90, lat - dLat)); row <= rowOf(Math.min(90, lat + dLat)); row++) rows.push(row);
  return rows;
}

/** The grid cell of a point; null when either coordinate is missing. */
export function geoCell(lat: number | null | undefined, lon: number | null | undefined): number | null {
  if (lat === null || lat === undefined || lon === null || lon === undefined) return null;
  return rowOf(lat) * COLUMNS + colOf(lon);
}

/** Every cell-id range that covers the points within `radiusKm` of (lat, lon). */
export function cellRangesWithin(lat: number, lon: number, radiusKm: number): CellRange[] {
  const { inner, boundary } = cellCover(lat, lon, radiusKm);
  return merge([...inner, ...boundary]);
}

/**
 * The cells covering the circle of `radiusKm` around (lat, lon), split into cells wholly inside
 * (every point of them within the radius) and the others. Rows near a pole, or a circle wider
 * than half the globe, take whole rows; a circle crossing the antimeridian takes two ranges in a
 * row; a very large circle takes its whole latitude band as one boundary range.
 */
export function cellCover(lat: number, lon: number, radiusKm: number): CellCover {
  // The same circle is searched again and again (a store finder's own points): computed once.
  const key = `${lat},${lon},${radiusKm}`;
  let cover = covers.get(key);
  if (!cover) {
    if (covers.size >= COVERS_KEPT) covers.clear();
    cover = Object.freeze(computeCellCover(lat, lon, radiusKm));
    covers.set(key, cover);
  }
  return cover;
}

/** Covers of circles searched lately (cellCover is pure: remembering one changes nothing). */
const covers = new Map<string, CellCover>();
const COVERS_KEPT = 256;

function computeCellCover(lat: number, lon: number, radiusKm: number): CellCover {
  const dLat = radiusKm / KM_PER_DEGREE_LAT;
  const south = Math.max(-90, lat - dLat);
  const north = Math.min(90, lat + dLat);
  const firstRow = rowOf(south);
  const lastRow = rowOf(north);
  if (lastRow - firstRow + 1 > MAX_ROWS) {
    return { inner: [], boundary: [[firstRow * COLUMNS, lastRow * COLUMNS + COLUMNS - 1]] };
  }
  const inner: CellRange[] = [];
  const boundary: CellRange[] = [];
  // Inner cells are found by their corners, which bound the distance of every point of a cell
  // only while distance is convex over the cell: true for circles well under a quarter of the
  // globe, which is why large circles count everything as boundary.
  const innerAllowed = radiusKm <= 3000 && Math.abs(lat) <= 80;
  const havR = hav(radiusKm / EARTH_RADIUS_KM) * (1 - 1e-9);
  for (let row = firstRow; row <= lastRow; row++) {
    const base = row * COLUMNS;
    const rowSouth = row * CELL_DEGREES - 90;
    const rowNorth = rowSouth + CELL_DEGREES;
    const outer = rowSpan(lat, lon, radiusKm, Math.max(rowSouth, south), Math.min(rowNorth, north), north >= 90 || south <= -90);
    if (outer === "all") {
      boundary.push([base, base + COLUMNS - 1]);
      continue;
    }
    const [west, east] = outer;
    const innerCols = innerAllowed ? innerSpan(lat, lon, havR, rowSouth, rowNorth) : null;
    if (!innerCols || west > east) {
      pushRow(boundary, base, west, east);
      continue;
    }
    const [iw, ie] = innerCols;
    pushRow(inner, base, iw, ie);
    if (iw > west) pushRow(boundary, base, west, iw - 1);
    if (ie < east) pushRow(boundary, base, ie + 1, east);
  }
  return { inner: merge(inner), boundary: merge(boundary) };
}

/**
 * Columns [west, east] of a row (clipped to the circle's latitudes as [south, north]) that the
 * circle may touch, or "all" for the whole row.
 *
 * The circle's longitude half-width at latitude p, from hav(r) = hav(p - lat) +
 * cos(lat) cos(p) hav(dLon), is unimodal in p with its maximum at asin(sin(lat) / cos(r)); so
 * within a row it is widest at the row latitude nearest that maximum.
 */
function rowSpan(lat: number, lon: number, radiusKm: number, south: number, north: number, pole: boolean): [number, number] | "all" {
  const r = radiusKm / EARTH_RADIUS_KM;
  if (pole || r >= Math.PI / 2 - Math.abs(rad(lat))) return "all";
  const widest = (Math.asin(Math.sin(rad(lat)) / Math.cos(r)) * 180) / Math.PI;
  const p = Math.min(north, Math.max(south, widest));
  const h = (hav(r) - hav(rad(p - lat))) / (Math.cos(rad(lat)) * Math.cos(rad(p)));
  if (h >= 1) return "all";
  // A hair wider than exact, so rounding can never drop a cell the circle touches.
  const dLon = (2 * Math.asin(Math.sqrt(Math.max(0, h))) * 180) / Math.PI + 1e-7;
  if (dLon >= 180) return "all";
  return [colOf(lon - dLon), colOf(lon + dLon)];
}

/**
 * Columns of the row [rowSouth, rowNorth] whose four corners all lie within the radius, or null.
 * Both row edges must allow the longitude offset; the columns must not wrap the antimeridian.
 */
function innerSpan(lat: number, lon: number, havR: number, rowSouth: number, rowNorth: number): [number, number] | null {
  let maxDLon = Infinity;
  for (const edge of [rowSouth, rowNorth]) {
    const rest = havR - hav(rad(edge - lat));
    if (rest <= 0) return null;
    const h = rest / (Math.cos(rad(lat)) * Math.cos(rad(edge)));
    if (h >= 1) return null;
    maxDLon = Math.min(maxDLon, (2 * Math.asin(Math.sqrt(h)) * 180) / Math.PI);
  }
  const westEdge = lon - maxDLon;
  const eastEdge = lon + maxDLon;
  if (westEdge < -180 || eastEdge > 180 || maxDLon > 60) return null;
  // Rounding may only shrink the span: a cell wrongly left out is merely counted the slow way.
  const first = Math.ceil((westEdge + 180) / CELL_DEGREES + 1e-9);
  const last = Math.floor((eastEdge + 180) / CELL_DEGREES - 1e-9) - 1;
  return first <= last ? [first, last] : null;
}

/** Adds the columns [west, east] of a row, as two ranges when they wrap the antimeridian. */
function pushRow(out: CellRange[], base: number, west: number, east: number): void {
  if (west <= east) out.push([base + west, base + east]);
  else out.push([base + west, base + COLUMNS - 1], [base, base + east]);
}

/** Sorts ranges and joins the ones that touch. */
function merge(ranges: CellRange[]): CellRange[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: CellRange[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}
