/**
 * The searches the benchmark measures, and how each is asked of the core API: through
 * `GET /resources/businesses` (spec, "List parameters", "Location search") and through
 * `GET /internal/get-businesses`.
 */
import type { Params } from "../scripts/lib/http-client.ts";

export interface SearchCase {
  key: "location" | "text" | "combined";
  label: string;
  /** location search: centre and radius in km */
  location?: { latitude: number; longitude: number; radiusKm: number };
  /** one-term word-prefix search on the name */
  prefix?: string;
  /** page size */
  limit: number;
}

export type Endpoint = "resources" | "get-businesses";

/** The three cases: location, one-term prefix on the name, and both together. */
export function benchCases(
  at: { latitude: number; longitude: number },
  radiusKm: number,
  prefix: string,
  limit: number,
): SearchCase[] {
  const location = { latitude: at.latitude, longitude: at.longitude, radiusKm };
  return [
    { key: "location", label: `location ${radiusKm} km around Amsterdam Centraal`, location, limit },
    { key: "text", label: `name prefix "${prefix}"`, prefix, limit },
    { key: "combined", label: `location ${radiusKm} km + name prefix "${prefix}"`, location, prefix, limit },
  ];
}

/** The path and query of `c` on `endpoint`, for chain `chainId`. */
export function requestFor(c: SearchCase, endpoint: Endpoint, chainId: number): { path: string; params: Params } {
  if (endpoint === "resources") {
    const params: Params = { limit: c.limit };
    if (c.location) {
      params["location[latitude]"] = c.location.latitude;
      params["location[longitude]"] = c.location.longitude;
      params["location[radius_km]"] = c.location.radiusKm;
    }
    if (c.prefix) params["search[name]"] = c.prefix;
    return { path: "/resources/businesses", params };
  }
  const params: Params = { chain_id: chainId, limit: c.limit };
  if (c.location) {
    params.search_lat = c.location.latitude;
    params.search_long = c.location.longitude;
    params.radius = c.location.radiusKm;
  }
  if (c.prefix) params.name = c.prefix;
  return { path: "/internal/get-businesses", params };
}

/** One page as the benchmark compares it: ids in order, distances, and the total when known. */
export interface Page {
  ids: number[];
  distances: Array<number | null>;
  /** total_count; null when the endpoint does not report one (get-businesses) */
  total: number | null;
}

/** Reads the page out of the `results` of either endpoint. */
export function pageOf(endpoint: Endpoint, results: any): Page {
  const list: any[] = endpoint === "resources" ? results.resources : results.businesses;
  return {
    ids: list.map((b) => Number(b.id)),
    distances: list.map((b) => (b.business_distance_km === undefined || b.business_distance_km === null ? null : Number(b.business_distance_km))),
    total: endpoint === "resources" ? Number(results.total_count) : null,
  };
}
