import { getBusinessesResponseSchema, type ListedBusiness } from "@service/shared/internal/get-businesses";
import turfDistance from "@turf/distance";
import { point } from "@turf/helpers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestAdmin, type TestCore } from "../../../test/helpers/core.ts";
import { query } from "../../../test/helpers/internal-calls.ts";
import { insertBusinesses } from "../businesses/business-repository.ts";

let core: TestCore;
let admin: TestAdmin;
const CENTRAAL = { lat: 52.3791, lon: 4.9003 };

/** Stores around Amsterdam Centraal; distances in km are about Dam 0.8, Closed 2.1, Zaandam 8.4, Haarlem 17.3, Utrecht 35.2, Rotterdam 58.2. */
const PLACES: Array<[name: string, lat: number | null, lon: number | null, shut?: boolean]> = [
  ["Albert Heijn Utrecht", 52.0894, 5.1101],
  ["Jumbo Haarlem", 52.3874, 4.6462],
  ["Albert Heijn Dam", 52.3731, 4.8926],
  ["Albert Heijn Zaandam", 52.4389, 4.8258],
  ["Jumbo Rotterdam", 51.9244, 4.4777],
  ["Albert Heijn Online", null, null],
  ["Albert Heijn Closed", 52.36, 4.9, true],
];

beforeAll(async () => {
  core = await startCore();
  admin = await core.admin({ read: true });
  await insertBusinesses(
    core.db,
    PLACES.map(([name, latitude, longitude, isShutDown]) => ({ chainId: core.chainId, name, latitude, longitude, isShutDown: isShutDown ?? false })),
    new Date("2026-11-21T10:00:00Z"),
  );
});
afterAll(() => core.close());

const get = (params: Record<string, string | number>) =>
  core.json(`/internal/get-businesses?${query({ chain_id: core.chainId, ...params })}`, { headers: admin.headers });

async function found(params: Record<string, string | number>): Promise<ListedBusiness[]> {
  const { status, body } = await get(params);
  expect(status, JSON.stringify(body)).toBe(200);
  return getBusinessesResponseSchema.parse(body).results.businesses;
}

/** Great-circle distance by turf (mean Earth radius 6371.0088 km), independent of the service's code. */
const km = (lat: number, lon: number) => turfDistance(point([CENTRAAL.lon, CENTRAAL.lat]), point([lon, lat]), { units: "kilometers" });

/** The names a radius search should find, nearest first, computed from PLACES with turf. */
function expected(radiusKm: number, filter: (name: string, shut: boolean) => boolean = () => true): string[] {
  return PLACES.filter(([name, lat, lon, shut]) => lat !== null && lon !== null && km(lat, lon) <= radiusKm && filter(name, shut ?? false))
    .sort((a, b) => km(a[1]!, a[2]!) - km(b[1]!, b[2]!))
    .map(([name]) => name);
}

describe("get-businesses: location search", () => {
  it("finds businesses within 25 km by default, nearest first, with business_distance_km", async () => {
    const list = await found({ search_lat: CENTRAAL.lat, search_long: CENTRAAL.lon });
    expect(list.map((b) => b.name)).toEqual(["Albert Heijn Dam", "Albert Heijn Closed", "Albert Heijn Zaandam", "Jumbo Haarlem"]);
    expect(list.map((b) => b.name)).toEqual(expected(25));
    for (const b of list) {
      expect(b.business_distance_km).toBeCloseTo(km(b.latitude!, b.longitude!), 6);
      expect(typeof b.latitude).toBe("number");
    }
  });

  it("takes an explicit radius and its aliases, and the lat / lon aliases", async () => {
    const names = async (params: Record<string, string | number>) => (await found(params)).map((b) => b.name);
    expect(await names({ search_lat: CENTRAAL.lat, search_long: CENTRAAL.lon, radius: 5 })).toEqual(["Albert Heijn Dam", "Albert Heijn Closed"]);
    expect(await names({ lat: CENTRAAL.lat, lon: CENTRAAL.lon, search_radius: 40 })).toEqual(expected(40));
    expect(expected(40)).toContain("Albert Heijn Utrecht");
    expect(await names({ lat: CENTRAAL.lat, lon: CENTRAAL.lon, search_radius_km: "100" })).toEqual(expected(100));
    expect(await names({ lat: CENTRAAL.lat, lon: CENTRAAL.lon, radius: 0.5 })).toEqual([]);
  });

  it("the spec's names win over the aliases when both are sent", async () => {
    const list = await found({ search_lat: 51.9244, search_long: 4.4777, lat: CENTRAAL.lat, lon: CENTRAAL.lon, radius: 1 });
    expect(list.map((b) => b.name)).toEqual(["Jumbo Rotterdam"]);
  });

  it("combines with text search: both must match, ordered by distance", async () => {
    const list = await found({ search_lat: CENTRAAL.lat, search_long: CENTRAAL.lon, name: "albert" });
    expect(list.map((b) => b.name)).toEqual(expected(25, (name) => name.startsWith("Albert")));
    const structured = await found({ search_lat: CENTRAAL.lat, search_long: CENTRAAL.lon, radius: 100, "search[*]": "jumbo" });
    expect(structured.map((b) => b.name)).toEqual(["Jumbo Haarlem", "Jumbo Rotterdam"]);
  });

  it("combines with exclude_inactive and paging", async () => {
    const at = { search_lat: CENTRAAL.lat, search_long: CENTRAAL.lon };
    expect((await found({ ...at, exclude_inactive: "true" })).map((b) => b.name)).toEqual(expected(25, (_, shut) => !shut));
    expect((await found({ ...at, limit: 2 })).map((b) => b.name)).toEqual(expected(25).slice(0, 2));
    expect((await found({ ...at, limit: 2, offset: 1 })).map((b) => b.name)).toEqual(expected(25).slice(1, 3));
  });

  it("searches across the antimeridian", async () => {
    await insertBusinesses(core.db, [{ chainId: core.chainId, name: "Fiji East", latitude: -17.8, longitude: -179.95 }], new Date());
    const list = await found({ search_lat: -17.8, search_long: 179.95, radius: 20 });
    expect(list.map((b) => b.name)).toEqual(["Fiji East"]);
    const expectedKm = turfDistance(point([179.95, -17.8]), point([-179.95, -17.8]), { units: "kilometers" });
    expect(list[0]!.business_distance_km).toBeCloseTo(expectedKm, 6);
  });
});

describe("get-businesses: location parameter errors", () => {
  const CASES: Array<[string, Record<string, string | number>, number, string]> = [
    ["search_lat only", { search_lat: 52 }, 98, "lat_long_both_required"],
    ["lon only", { lon: 4 }, 98, "lat_long_both_required"],
    ["latitude over 90", { search_lat: 90.1, search_long: 4 }, 99, "lat_long_invalid"],
    ["longitude under -180", { lat: 52, lon: -180.5 }, 99, "lat_long_invalid"],
    ["latitude not a number", { search_lat: "52N", search_long: 4 }, 419, "parameter_invalid"],
    ["alias not a number", { search_lat: 52, search_long: 4, lon: "east" }, 419, "parameter_invalid"],
    ["radius 0", { search_lat: 52, search_long: 4, radius: 0 }, 419, "parameter_invalid"],
    ["radius negative", { search_lat: 52, search_long: 4, search_radius: -3 }, 419, "parameter_invalid"],
    ["radius not a number", { search_lat: 52, search_long: 4, search_radius_km: "far" }, 419, "parameter_invalid"],
    ["radius without coordinates", { radius: 10 }, 441, "parameter_missing"],
  ];
  for (const [what, params, code, name] of CASES) {
    it(`${what}: ${code} ${name}`, async () => {
      const { status, body } = await get(params);
      expect(body.error).toMatchObject({ code, name });
      expect(status).toBe(400);
    });
  }
});
