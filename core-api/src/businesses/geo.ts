/**
 * Location search geometry (spec, "Location search"): great-circle distances and the grid cells
 * that index business coordinates.
 *
 * The grid splits the globe into CELL_DEGREES x CELL_DEGREES cells numbered row-major
 * (`row * COLUMNS + column`), so the cells of one row that a search circle touches form one
 * contiguous id range. A radius search then reads a handful of index ranges on
 * (chain_id, geo_cell) instead of the whole chain, and needs no spatial index, so it runs on any
 * MySQL-protocol engine.
 */

/** Mean Earth radius in kilometres (IUGG), the value turf and most GIS tools use. */
export const EARTH_RADIUS_KM = 6371.0088;
export const CELL_DEGREES = 0.1;
const COLUMNS = Math.round(360 / CELL_DEGREES);
const ROWS = Math.round(180 / CELL_DEGREES);
const KM_PER_DEGREE_LAT = (Math.PI * EARTH_RADIUS_KM) / 180;

const rad = (deg: number) => (deg * Math.PI) / 180;

/** Haversine distance in kilometres between two points given in decimal degrees. */
export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = rad(lat2 - lat1);
  const dLon = rad(lon2 - lon1);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

const rowOf = (lat: number) => Math.min(ROWS - 1, Math.max(0, Math.floor((lat + 90) / CELL_DEGREES)));
const colOf = (lon: number) => {
  const c = Math.floor((lon + 180) / CELL_DEGREES);
  return ((c % COLUMNS) + COLUMNS) % COLUMNS;
};

/** The grid cell of a point; null when either coordinate is missing. */
export function geoCell(lat: number | null | undefined, lon: number | null | undefined): number | null {
  if (lat === null || lat === undefined || lon === null || lon === undefined) return null;
  return rowOf(lat) * COLUMNS + colOf(lon);
}

/**
 * The inclusive cell-id ranges that cover every point within `radiusKm` of (lat, lon).
 * Rows near a pole, or a circle wider than half the globe, take whole rows; a circle crossing
 * the antimeridian takes two ranges in a row.
 */
export function cellRangesWithin(lat: number, lon: number, radiusKm: number): Array<[number, number]> {
  const dLat = radiusKm / KM_PER_DEGREE_LAT;
  const south = Math.max(-90, lat - dLat);
  const north = Math.min(90, lat + dLat);
  const ranges: Array<[number, number]> = [];
  for (let row = rowOf(south); row <= rowOf(north); row++) {
    // Widest longitude span of the circle within this row: at the row edge nearest the pole.
    const rowSouth = row * CELL_DEGREES - 90;
    const rowNorth = rowSouth + CELL_DEGREES;
    // The centre's own latitude counts too: the bound needs cos(centre) and cos(point) >= cosLat.
    const poleward = Math.max(Math.abs(lat), Math.abs(Math.max(rowSouth, south)), Math.abs(Math.min(rowNorth, north)));
    const cosLat = Math.cos(rad(Math.min(90, poleward)));
    const sinHalf = Math.sin(radiusKm / (2 * EARTH_RADIUS_KM)) / Math.max(cosLat, 1e-12);
    const base = row * COLUMNS;
    if (sinHalf >= 1 || north >= 90 || south <= -90) {
      ranges.push([base, base + COLUMNS - 1]);
      continue;
    }
    const dLon = (2 * Math.asin(sinHalf) * 180) / Math.PI;
    if (dLon >= 180) {
      ranges.push([base, base + COLUMNS - 1]);
      continue;
    }
    const west = colOf(lon - dLon);
    const east = colOf(lon + dLon);
    if (west <= east) ranges.push([base + west, base + east]);
    else ranges.push([base + west, base + COLUMNS - 1], [base, base + east]);
  }
  return ranges;
}
