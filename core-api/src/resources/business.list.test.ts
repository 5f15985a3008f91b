import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorOf, startResourcesWorld, type ResourcesWorld } from "./resources-test-support.ts";

let w: ResourcesWorld;
const ids: Record<string, number> = {};
beforeAll(async () => {
  w = await startResourcesWorld();
  // Amsterdam centre 52.3731, 4.8925; created one minute apart, modified in another order later.
  const shops = [
    { key: "dam", name: "Dam Square Store", ownerCode: "AMS-01", latitude: 52.3731, longitude: 4.8925, towncity: "Amsterdam", region: "NH", countryCode: "NL" },
    { key: "zuid", name: "Zuid Express", ownerCode: "AMS-02", latitude: 52.339, longitude: 4.873, towncity: "Amsterdam", region: "NH", countryCode: "NL" },
    { key: "haarlem", name: "Haarlem Market Store", ownerCode: "HLM-01", latitude: 52.3874, longitude: 4.6462, towncity: "Haarlem", region: "NH", countryCode: "NL" },
    { key: "utrecht", name: "Utrecht Central", ownerCode: "UTR-01", latitude: 52.0907, longitude: 5.1214, towncity: "Utrecht", region: "UT", countryCode: "NL", isShutDown: true },
    { key: "antwerp", name: "Antwerp Market", ownerCode: "ANT-01", latitude: 51.2194, longitude: 4.4025, towncity: "Antwerpen", region: "VAN", countryCode: "BE" },
    { key: "web", name: "Webshop Store", ownerCode: "WEB-01", countryCode: "NL" },
  ];
  for (const [i, { key, ...values }] of shops.entries()) {
    w.setNow(`2026-01-01T00:0${i}:00Z`);
    ids[key] = (await w.seed(values)).id;
  }
  // Modify in reverse creation order so last_modified_date sorts differently from created_date.
  for (const [i, key] of ["web", "antwerp", "utrecht", "haarlem", "zuid", "dam"].entries()) {
    w.setNow(`2026-01-01T01:0${i}:00Z`);
    expect((await w.call("PATCH", `/resources/business/${ids[key]}`, { phone_number: `+3100${i}` })).status).toBe(200);
  }
  const other = await w.core.createChain("Other Chain");
  await w.seed({ name: "Dam Other Chain", ownerCode: "AMS-01", latitude: 52.3731, longitude: 4.8925 }, other);
});
afterAll(() => w.core.close());

const list = (query = "", headers?: Record<string, string>) => w.call("GET", `/resources/businesses${query ? `?${query}` : ""}`, undefined, headers);
const names = (res: { body: any }) => res.body.results.resources.map((r: any) => r.name);
const keysOf = (res: { body: any }) => res.body.results.resources.map((r: any) => Object.keys(ids).find((k) => ids[k] === r.id));

describe("GET /resources/businesses", () => {
  it("lists the header chain's businesses with the list wrapper, default limit 25, id order", async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body.results).toMatchObject({ limit: 25, offset: 0, total_count: 6, result_type: "businesses" });
    expect(keysOf(res)).toEqual(["dam", "zuid", "haarlem", "utrecht", "antwerp", "web"]);
    expect(res.body.results.resources[0]).not.toHaveProperty("business_distance_km");
    expect(res.body.results.resources[0].chain).toEqual({ id: w.core.chainId, name: "Test Chain", deleted: false, app: null });
  });

  it("pages with limit and offset; limit bounds 1..500", async () => {
    const page = await list("limit=2&offset=2");
    expect(page.body.results).toMatchObject({ limit: 2, offset: 2, total_count: 6 });
    expect(keysOf(page)).toEqual(["haarlem", "utrecht"]);
    expect((await list("limit=1")).body.results.resources).toHaveLength(1);
    expect((await list("limit=500")).body.results.limit).toBe(500);
    const past = await list("offset=100");
    expect(past.body.results).toMatchObject({ resources: [], total_count: 6, offset: 100 });
    for (const bad of ["limit=0", "limit=501", "limit=-1", "limit=ten", "offset=-1", "offset=1.5"]) {
      expect({ bad, ...errorOf(await list(bad)) }).toEqual({ bad, status: 400, code: 419, name: "parameter_invalid" });
    }
  });

  it("sorts by each S property in both directions; sort_order alone reverses the id order", async () => {
    expect(keysOf(await list("sort_by=created_date&sort_order=desc"))).toEqual(["web", "antwerp", "utrecht", "haarlem", "zuid", "dam"]);
    expect(keysOf(await list("sort_by=created_date"))).toEqual(["dam", "zuid", "haarlem", "utrecht", "antwerp", "web"]);
    expect(keysOf(await list("sort_by=last_modified_date&sort_order=asc"))).toEqual(["web", "antwerp", "utrecht", "haarlem", "zuid", "dam"]);
    expect(keysOf(await list("sort_by=last_modified_date&sort_order=desc"))).toEqual(["dam", "zuid", "haarlem", "utrecht", "antwerp", "web"]);
    expect(keysOf(await list("sort_order=desc"))).toEqual(["web", "antwerp", "utrecht", "haarlem", "zuid", "dam"]);
    for (const bad of ["sort_by=name", "sort_by=id", "sort_by=nothing", "sort_order=up"]) {
      expect(errorOf(await list(bad)).code).toBe(419);
    }
  });

  it("filters on every F property, combined", async () => {
    expect(keysOf(await list(`id=${ids.zuid}`))).toEqual(["zuid"]);
    expect(keysOf(await list("name=Utrecht%20Central"))).toEqual(["utrecht"]);
    expect(keysOf(await list("owner_code=HLM-01"))).toEqual(["haarlem"]);
    expect(keysOf(await list("country_code=BE"))).toEqual(["antwerp"]);
    expect(keysOf(await list("region=UT"))).toEqual(["utrecht"]);
    expect(keysOf(await list("towncity=Amsterdam"))).toEqual(["dam", "zuid"]);
    expect(keysOf(await list("is_shut_down=true"))).toEqual(["utrecht"]);
    expect(keysOf(await list("is_shut_down=1"))).toEqual(["utrecht"]);
    expect((await list("is_shut_down=0")).body.results.total_count).toBe(5);
    expect((await list("is_shut_down=false&region=NH&country_code=NL")).body.results.total_count).toBe(3);
    expect((await list(`chain=${w.core.chainId}`)).body.results.total_count).toBe(6);
    expect((await list(`chain[id]=${w.core.chainId}`)).body.results.total_count).toBe(6);
    expect((await list(`chain=${w.core.chainId + 1}`)).body.results).toMatchObject({ resources: [], total_count: 0 });
    for (const bad of ["is_shut_down=maybe", "id=abc", "chain=abc", "latitude=52", "created_date=2026-01-01", "nothing=1", "region[id]=1"]) {
      expect({ bad, ...errorOf(await list(bad)) }).toEqual({ bad, status: 400, code: 419, name: "parameter_invalid" });
    }
  });

  it("searches text in name, owner_code or all FT properties by word prefix, with match_all", async () => {
    expect(keysOf(await list("search[name]=market"))).toEqual(expect.arrayContaining(["haarlem", "antwerp"]));
    expect((await list("search[name]=market")).body.results.total_count).toBe(2);
    expect(keysOf(await list("search[owner_code]=ams"))).toEqual(["dam", "zuid"]);
    expect((await list("search[name]=ams")).body.results.total_count).toBe(0);
    expect((await list("search[*]=ams")).body.results.total_count).toBe(2);
    // several terms: any by default, all with match_all
    expect((await list("search[name]=market%20store")).body.results.total_count).toBe(4);
    expect(keysOf(await list("search[name]=market,store&match_all=true"))).toEqual(["haarlem"]);
    expect(keysOf(await list("search[name]=market%20store&match_all=1&towncity=Haarlem"))).toEqual(["haarlem"]);
    // relevance first: both terms beat one term; then sort_by
    expect(keysOf(await list("search[name]=market%20store&sort_by=created_date&sort_order=desc"))[0]).toBe("haarlem");
    expect(keysOf(await list("search[name]=store&sort_by=created_date&sort_order=desc"))).toEqual(["web", "haarlem", "dam"]);
    expect(keysOf(await list("search[name]=store&sort_by=created_date&sort_order=asc"))).toEqual(["dam", "haarlem", "web"]);
  });

  it("refuses two search keys, a non-FT search key and a bad match_all", async () => {
    for (const bad of ["search[name]=a&search[owner_code]=b", "search[name]=a&search[*]=b", "search[towncity]=x", "search[id]=1", "search[name]=a&match_all=sure"]) {
      expect({ bad, ...errorOf(await list(bad)) }).toEqual({ bad, status: 400, code: 419, name: "parameter_invalid" });
    }
  });

  it("location search: within the radius (default 25 km), nearest first, with business_distance_km", async () => {
    const res = await list("location[latitude]=52.3731&location[longitude]=4.8925");
    expect(keysOf(res)).toEqual(["dam", "zuid", "haarlem"]);
    expect(res.body.results.total_count).toBe(3);
    const [dam, zuid, haarlem] = res.body.results.resources;
    expect(dam.business_distance_km).toBeCloseTo(0, 5);
    expect(zuid.business_distance_km).toBeGreaterThan(3.5);
    expect(zuid.business_distance_km).toBeLessThan(4.5);
    expect(haarlem.business_distance_km).toBeGreaterThan(16);
    expect(haarlem.business_distance_km).toBeLessThan(18);
    expect(keysOf(await list("location[latitude]=52.3731&location[longitude]=4.8925&location[radius_km]=5"))).toEqual(["dam", "zuid"]);
    // businesses without coordinates (web) are never found, whatever the radius
    const far = await list("location[latitude]=52.3731&location[longitude]=4.8925&location[radius_km]=500");
    expect(keysOf(far)).toEqual(["dam", "zuid", "haarlem", "utrecht", "antwerp"]);
    // distance overrides sort_by
    expect(keysOf(await list("location[latitude]=52.3731&location[longitude]=4.8925&sort_by=created_date&sort_order=desc"))).toEqual(["dam", "zuid", "haarlem"]);
    // business_distance_km is level 1: present at level 1, absent at level 0
    const l1 = await list("location[latitude]=52.3731&location[longitude]=4.8925", { "X-Service-Response-Recursion-Level": "1" });
    expect(Object.keys(l1.body.results.resources[0]).sort()).toEqual(["business_distance_km", "chain", "id", "name", "owner_code"]);
    const l0 = await list("location[latitude]=52.3731&location[longitude]=4.8925", { "X-Service-Response-Recursion-Level": "0" });
    expect(l0.body.results.resources[0]).toEqual({ id: ids.dam });
  });

  it("accepts the legacy search_lat / search_long / search_radius_km names", async () => {
    expect(keysOf(await list("search_lat=52.3731&search_long=4.8925"))).toEqual(["dam", "zuid", "haarlem"]);
    expect(keysOf(await list("search_lat=52.3731&search_long=4.8925&search_radius_km=5"))).toEqual(["dam", "zuid"]);
    expect(keysOf(await list("location[latitude]=52.3731&search_long=4.8925&search_radius_km=5"))).toEqual(["dam", "zuid"]);
  });

  it("combines location and text search: distance, then relevance, then sort_by; filters apply", async () => {
    const near = "location[latitude]=52.3731&location[longitude]=4.8925&location[radius_km]=100";
    expect(keysOf(await list(`${near}&search[name]=store`))).toEqual(["dam", "haarlem"]);
    expect(keysOf(await list(`${near}&search[*]=market%20utr&towncity=Utrecht`))).toEqual(["utrecht"]);
    expect(keysOf(await list(`${near.replace("=100", "=200")}&search[name]=market`))).toEqual(["haarlem", "antwerp"]);
  });

  // It adds businesses at one shared point to tie the distance, in a chain of its own (listed by
  // an admin of that chain), so the six above stay the header chain's only businesses.
  it("breaks distance ties by relevance, and relevance ties by sort_by", async () => {
    const twins = await w.core.createChain("Twins Chain");
    const { headers } = await w.core.admin({ super_user: true }, twins);
    const at = { latitude: 10, longitude: 10 };
    w.setNow("2026-01-01T02:00:00Z");
    const one = (await w.seed({ name: "Twin Alpha", ownerCode: "TW-1", ...at }, twins)).id;
    w.setNow("2026-01-01T02:01:00Z");
    const both = (await w.seed({ name: "Twin Alpha Beta", ownerCode: "TW-2", ...at }, twins)).id;
    w.setNow("2026-01-01T02:02:00Z");
    const later = (await w.seed({ name: "Twin Beta", ownerCode: "TW-3", ...at }, twins)).id;
    const here = "location[latitude]=10&location[longitude]=10&location[radius_km]=1";
    const idsOf = (res: { body: any }) => res.body.results.resources.map((r: any) => r.id);
    expect(idsOf(await list(`${here}&search[name]=alpha%20beta&sort_by=created_date&sort_order=asc`, headers))).toEqual([both, one, later]);
    expect(idsOf(await list(`${here}&search[name]=alpha%20beta&sort_by=created_date&sort_order=desc`, headers))).toEqual([both, later, one]);
    // text only: relevance ("Twin Alpha" matches one term of two), then sort_by
    expect(idsOf(await list("search[name]=twin%20beta&sort_by=created_date&sort_order=asc", headers))).toEqual([both, later, one]);
    expect(idsOf(await list("search[name]=twin%20beta&sort_by=created_date&sort_order=desc", headers))).toEqual([later, both, one]);
  });

  it("refuses one coordinate, out-of-range coordinates, a bad radius and a radius alone", async () => {
    for (const bad of [
      "location[latitude]=52",
      "location[longitude]=4",
      "search_lat=52",
      "search_long=4&search_radius_km=3",
      "location[latitude]=91&location[longitude]=4",
      "location[latitude]=52&location[longitude]=-181",
      "location[latitude]=52&location[longitude]=4&location[radius_km]=0",
      "location[latitude]=52&location[longitude]=4&location[radius_km]=far",
      "location[radius_km]=5",
      "location[latitude]=52&search_lat=52&location[longitude]=4",
      "location[latitude]=north&location[longitude]=4",
    ]) {
      expect({ bad, ...errorOf(await list(bad)) }).toEqual({ bad, status: 400, code: 419, name: "parameter_invalid" });
    }
  });
});
