/**
 * Demo step 2: the stores within a radius of a point, read through get-businesses and through
 * `GET /resources/businesses` location search (spec, "Location search"), checked against a
 * distance computed independently with turf (`@turf/distance`, same mean Earth radius).
 */
import distance from "@turf/distance";
import { point } from "@turf/helpers";
import type { CoreApiClient } from "../lib/http-client.ts";
import type { Town } from "../lib/towns.ts";
import { townOwnerCode } from "./import-towns.ts";

/** Largest difference tolerated between a service's distance and turf's, in km (1 mm). */
const DISTANCE_TOLERANCE_KM = 1e-6;

export interface Found {
  id: number;
  name: string;
  ownerCode: string | null;
  latitude: number;
  longitude: number;
  /** business_distance_km as the service returned it */
  km: number;
}

export interface LocationCheck {
  viaGetBusinesses: Found[];
  viaResources: Found[];
  /** total_count of the Resources list */
  resourcesTotal: number;
  /** owner codes of the demo towns turf puts inside the radius */
  expected: Set<string>;
  /** everything that disagrees; empty when both reads agree with turf and with each other */
  problems: string[];
}

/** Great-circle distance in km by turf (haversine on the mean Earth radius 6371.0088 km). */
export function turfKm(from: { latitude: number; longitude: number }, lat: number, lon: number): number {
  return distance(point([from.longitude, from.latitude]), point([lon, lat]), { units: "kilometers" });
}

const toFound = (b: any): Found => ({
  id: Number(b.id),
  name: String(b.name),
  ownerCode: b.owner_code ?? null,
  latitude: Number(b.latitude),
  longitude: Number(b.longitude),
  km: Number(b.business_distance_km),
});

/** Every page of get-businesses with `search_lat` / `search_long` / `radius`. */
async function readGetBusinesses(core: CoreApiClient, chainId: number, at: Center, radiusKm: number): Promise<Found[]> {
  const out: Found[] = [];
  for (let offset = 0; ; offset += 500) {
    const results = await core.get("/internal/get-businesses", {
      chain_id: chainId,
      search_lat: at.latitude,
      search_long: at.longitude,
      radius: radiusKm,
      limit: 500,
      offset,
    });
    const page = (results.businesses as any[]).map(toFound);
    out.push(...page);
    if (page.length < 500) return out;
  }
}

/** Every page of `/resources/businesses` with `location[...]`. */
async function readResources(core: CoreApiClient, at: Center, radiusKm: number): Promise<{ found: Found[]; total: number }> {
  const found: Found[] = [];
  let total = 0;
  for (let offset = 0; ; offset += 500) {
    const results = await core.get("/resources/businesses", {
      "location[latitude]": at.latitude,
      "location[longitude]": at.longitude,
      "location[radius_km]": radiusKm,
      limit: 500,
      offset,
    });
    total = Number(results.total_count);
    const page = (results.resources as any[]).map(toFound);
    found.push(...page);
    if (page.length < 500 || found.length >= total) return { found, total };
  }
}

type Center = { latitude: number; longitude: number };

/** Checks one read: nearest first, every distance equal to turf's, and the demo towns as turf expects. */
function checkRead(label: string, found: Found[], at: Center, radiusKm: number, expected: Set<string>): string[] {
  const problems: string[] = [];
  found.forEach((b, i) => {
    const km = turfKm(at, b.latitude, b.longitude);
    if (Math.abs(km - b.km) > DISTANCE_TOLERANCE_KM) problems.push(`${label}: ${b.name} at ${b.km} km, turf says ${km} km`);
    if (km > radiusKm + DISTANCE_TOLERANCE_KM) problems.push(`${label}: ${b.name} is ${km} km away, outside ${radiusKm} km`);
    if (i > 0 && found[i - 1]!.km > b.km) problems.push(`${label}: not nearest first at position ${i}`);
  });
  const demo = new Set(found.flatMap((b) => (b.ownerCode && expected.has(b.ownerCode) ? [b.ownerCode] : [])));
  const missing = [...expected].filter((c) => !demo.has(c));
  if (missing.length) problems.push(`${label}: ${missing.length} towns inside the radius missing (${missing.slice(0, 5).join(", ")})`);
  return problems;
}

/**
 * Reads the stores within `radiusKm` of `at` both ways and compares them with turf.
 * @param towns the imported towns (their demo stores are expected exactly when turf puts them inside)
 */
export async function checkLocationSearch(
  core: CoreApiClient,
  chainId: number,
  towns: readonly Town[],
  at: Center,
  radiusKm: number,
): Promise<LocationCheck> {
  const expected = new Set(towns.filter((t) => turfKm(at, t.latitude, t.longitude) <= radiusKm).map(townOwnerCode));
  const viaGetBusinesses = await readGetBusinesses(core, chainId, at, radiusKm);
  const { found: viaResources, total } = await readResources(core, at, radiusKm);
  const problems = [
    ...checkRead("get-businesses", viaGetBusinesses, at, radiusKm, expected),
    ...checkRead("/resources/businesses", viaResources, at, radiusKm, expected),
  ];
  if (total !== viaResources.length) problems.push(`total_count ${total} but ${viaResources.length} resources listed`);
  const a = viaGetBusinesses.map((b) => b.id).join(",");
  const b = viaResources.map((r) => r.id).join(",");
  if (a !== b) problems.push("get-businesses and /resources/businesses list different stores or orders");
  return { viaGetBusinesses, viaResources, resourcesTotal: total, expected, problems };
}
