import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorOf, startResourcesWorld, type ResourcesWorld } from "./resources-test-support.ts";

let w: ResourcesWorld;
let shopId: number;
beforeAll(async () => {
  w = await startResourcesWorld();
  w.setNow("2026-01-01T04:05:06Z");
  const row = await w.seed({
    name: "Central Store",
    ownerCode: "C-001",
    address1: "Main Street 1",
    towncity: "Amsterdam",
    region: "NH",
    postalcode: "1011 AB",
    countryCode: "NL",
    latitude: 52.37,
    longitude: 4.89,
    phoneNumber: "+31201234567",
  });
  shopId = row.id;
});
afterAll(() => w.core.close());

const level = (n: number | string) => ({ "X-Service-Response-Recursion-Level": String(n) });

describe("GET /resources/business", () => {
  it("gets one by id at the default level 2, with the chain rendered at level 1", async () => {
    const { status, body } = await w.call("GET", `/resources/business/${shopId}`);
    expect(status).toBe(200);
    expect(body.result).toEqual({ code: 1, status: "ok" });
    expect(body.results).toEqual({
      address_1: "Main Street 1",
      address_2: null,
      address_3: null,
      chain: { id: w.core.chainId, name: "Test Chain", deleted: false, app: null },
      country_code: "NL",
      created_date: "2026-01-01T04:05:06Z",
      deleted: false,
      deleted_by: null,
      id: shopId,
      is_shut_down: false,
      last_modified_date: "2026-01-01T04:05:06Z",
      last_updated_by: null,
      latitude: 52.37,
      longitude: 4.89,
      name: "Central Store",
      owner_code: "C-001",
      phone_number: "+31201234567",
      postalcode: "1011 AB",
      region: "NH",
      towncity: "Amsterdam",
    });
  });

  it("gets one by ?owner_code= and by ?id=", async () => {
    for (const q of ["owner_code=C-001", `id=${shopId}`]) {
      const { status, body } = await w.call("GET", `/resources/business?${q}`);
      expect(status).toBe(200);
      expect(body.results.id).toBe(shopId);
    }
  });

  it("renders each recursion level 0..4 by the level <= requested rule; the chain one level down", async () => {
    const keys = async (n: number) => (await w.call("GET", `/resources/business/${shopId}`, undefined, level(n))).body.results;
    const chainAt = async (n: number) => (await w.call("GET", "/resources/chain", undefined, level(n))).body.results;
    expect(await keys(0)).toEqual({ id: shopId });
    expect(await keys(1)).toEqual({ chain: { id: w.core.chainId }, id: shopId, name: "Central Store", owner_code: "C-001" });
    const l2 = await keys(2);
    expect(l2.chain).toEqual({ id: w.core.chainId, name: "Test Chain", deleted: false, app: null });
    expect(l2).not.toHaveProperty("chain_member");
    const l3 = await keys(3);
    // The chain inside a business at level 3 is the Chain resource at level 2, not a summary.
    expect(l3.chain).toEqual(await chainAt(2));
    expect(l3.chain).toMatchObject({ currency: null, last_updated_by: null, created_date: expect.stringMatching(/Z$/) });
    expect(l3).not.toHaveProperty("chain_member");
    const l4 = await keys(4);
    expect(l4.chain_member).toBe(true);
    expect(l4.chain).toEqual(await chainAt(3));
    expect(l4.chain).toHaveProperty("allowed_ip_ranges", []);
    // business_distance_km only comes with location search
    expect(l4).not.toHaveProperty("business_distance_km");
  });

  it("refuses recursion levels outside 0-4 with 419", async () => {
    for (const bad of ["5", "-1", "two", "1.5"]) {
      const res = await w.call("GET", `/resources/business/${shopId}`, undefined, level(bad));
      expect(errorOf(res)).toEqual({ status: 400, code: 419, name: "parameter_invalid" });
    }
  });

  it("formats datetimes per X-Service-API-version", async () => {
    const old = await w.call("GET", `/resources/business/${shopId}`, undefined, { "X-Service-API-version": "1.6.1" });
    expect(old.body.results.created_date).toBe("2026-01-01 04:05:06");
    const cur = await w.call("GET", `/resources/business/${shopId}`, undefined, { "X-Service-API-version": "1.6.8" });
    expect(cur.body.results.created_date).toBe("2026-01-01T04:05:06Z");
  });

  it("answers 544 for an unknown id, a deleted business and another chain's business", async () => {
    const otherChain = await w.core.createChain("Elsewhere");
    const foreign = await w.seed({ name: "Foreign", ownerCode: "F-1" }, otherChain);
    const gone = await w.seed({ name: "Gone", ownerCode: "G-1" });
    expect((await w.call("DELETE", `/resources/business/${gone.id}`)).status).toBe(200);
    for (const path of [
      "/resources/business/999999",
      `/resources/business/${gone.id}`,
      "/resources/business?owner_code=G-1",
      `/resources/business/${foreign.id}`,
      "/resources/business?owner_code=F-1",
      "/resources/business/abc",
    ]) {
      expect(errorOf(await w.call("GET", path))).toEqual({ status: 404, code: 544, name: "resource_not_found" });
    }
  });

  it("needs exactly one identifier on the singular path", async () => {
    expect(errorOf(await w.call("GET", "/resources/business"))).toEqual({ status: 400, code: 441, name: "parameter_missing" });
    expect(errorOf(await w.call("GET", `/resources/business?id=${shopId}&owner_code=C-001`)).code).toBe(419);
    expect(errorOf(await w.call("GET", "/resources/business?name=Central%20Store")).code).toBe(419);
    expect(errorOf(await w.call("GET", "/resources/business?id=abc")).code).toBe(419);
    expect(errorOf(await w.call("GET", `/resources/business/${shopId}?owner_code=C-001`)).code).toBe(419);
  });

  it("answers 544 for unknown resource paths and methods a path does not offer", async () => {
    expect(errorOf(await w.call("GET", "/resources/nothing"))).toEqual({ status: 404, code: 544, name: "resource_not_found" });
    expect(errorOf(await w.call("GET", "/resources/chains"))).toMatchObject({ code: 544 });
    expect(errorOf(await w.call("POST", "/resources/businesses", { name: "x" }))).toMatchObject({ status: 404, code: 544 });
    expect(errorOf(await w.call("DELETE", "/resources/businesses"))).toMatchObject({ code: 544 });
    expect(errorOf(await w.call("POST", `/resources/business/${shopId}`, { name: "x" }))).toMatchObject({ code: 544 });
    expect(errorOf(await w.call("OPTIONS", `/resources/business/${shopId}`))).toMatchObject({ code: 544 });
  });
});
