import { getBusinessesResponseSchema } from "@service/shared/internal/get-businesses";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestAdmin, type TestCore } from "../../../test/helpers/core.ts";
import { query } from "../../../test/helpers/internal-calls.ts";
import { deleteBusiness, insertBusinesses, type BusinessRow } from "../businesses/business-repository.ts";

let core: TestCore;
let admin: TestAdmin;
let shops: BusinessRow[];
const NOW = new Date("2026-11-21T10:00:00Z");

beforeAll(async () => {
  core = await startCore();
  admin = await core.admin({ read: true });
  const chainId = core.chainId;
  shops = await insertBusinesses(
    core.db,
    [
      { chainId, name: "Albert Heijn Centrum", ownerCode: "AH-1001" },
      { chainId, name: "Albert Heijn XL", ownerCode: "AH-1002" },
      { chainId, name: "Jumbo Foodmarkt", ownerCode: "JU-2001" },
      { chainId, name: "Heijnen Bakkerij", ownerCode: "HB-3001" },
      { chainId, name: "Café Bär", ownerCode: "ALB-9" },
      { chainId, name: "De Jumbo Shop", ownerCode: "JU-2002", isShutDown: true },
      { chainId, name: "Albert Heijn Deleted", ownerCode: "AH-DEL" },
    ],
    NOW,
  );
  await deleteBusiness(core.db, chainId, shops[6]!.id, null, NOW);
  const other = await core.createChain();
  await insertBusinesses(core.db, [{ chainId: other, name: "Albert Heijn Elsewhere", ownerCode: "AH-1001" }], NOW);
});
afterAll(() => core.close());

const get = (params: Record<string, string | number | boolean>) =>
  core.json(`/internal/get-businesses?${query({ chain_id: core.chainId, ...params })}`, { headers: admin.headers });

/** Names of the businesses found, in order (the response parsed with the contract). */
async function names(params: Record<string, string | number | boolean>): Promise<string[]> {
  const { status, body } = await get(params);
  expect(status, JSON.stringify(body)).toBe(200);
  const { results } = getBusinessesResponseSchema.parse(body);
  expect(results.result_type).toBe("get-businesses");
  return results.businesses.map((b) => b.name);
}

const ALL_LIVE = ["Albert Heijn Centrum", "Albert Heijn XL", "Jumbo Foodmarkt", "Heijnen Bakkerij", "Café Bär", "De Jumbo Shop"];

describe("get-businesses: listing", () => {
  it("lists the chain's live businesses in id order, with numeric coordinates and no distance", async () => {
    expect(await names({})).toEqual(ALL_LIVE);
    const { body } = await get({});
    expect(body.results.businesses[0]).toMatchObject({ id: shops[0]!.id, owner_code: "AH-1001", type: "business", latitude: null, deleted: false });
    expect(body.results.businesses[0]).not.toHaveProperty("business_distance_km");
  });

  it("exclude_inactive leaves out shut-down businesses", async () => {
    expect(await names({ exclude_inactive: "true" })).toEqual(ALL_LIVE.filter((n) => n !== "De Jumbo Shop"));
    expect(await names({ exclude_inactive: "false" })).toEqual(ALL_LIVE);
  });

  it("pages with limit and offset", async () => {
    expect(await names({ limit: 2 })).toEqual(ALL_LIVE.slice(0, 2));
    expect(await names({ limit: 2, offset: 2 })).toEqual(ALL_LIVE.slice(2, 4));
    expect(await names({ offset: 5 })).toEqual(ALL_LIVE.slice(5));
    expect(await names({ offset: 50 })).toEqual([]);
  });

  it("returns 500 businesses when limit is absent", async () => {
    const big = await core.createChain("Big");
    const bigAdmin = await core.admin({ read: true }, big);
    await insertBusinesses(core.db, Array.from({ length: 503 }, (_, i) => ({ chainId: big, name: `Store ${i}` })), NOW);
    const { body } = await core.json(`/internal/get-businesses.json?chain_id=${big}`, { headers: bigAdmin.headers });
    expect(body.results.businesses).toHaveLength(500);
    const last = await core.json(`/internal/get-businesses?chain_id=${big}&offset=500`, { headers: bigAdmin.headers });
    expect(last.body.results.businesses.map((b: { name: string }) => b.name)).toEqual(["Store 500", "Store 501", "Store 502"]);
  });
});

describe("get-businesses: text search", () => {
  it("name matches a prefix of any word of the name, folding case and accents", async () => {
    expect(await names({ name: "alb" })).toEqual(["Albert Heijn Centrum", "Albert Heijn XL"]);
    expect(await names({ name: "heijn" })).toEqual(["Albert Heijn Centrum", "Albert Heijn XL", "Heijnen Bakkerij"]);
    expect(await names({ name: "CAFE" })).toEqual(["Café Bär"]);
    expect(await names({ name: "bakkerij" })).toEqual(["Heijnen Bakkerij"]);
    expect(await names({ name: "eijn" })).toEqual([]);
  });

  it("several terms (spaces or commas) match any term, or all with match_all", async () => {
    expect(await names({ name: "jumbo,bakk" })).toEqual(["Jumbo Foodmarkt", "Heijnen Bakkerij", "De Jumbo Shop"]);
    expect(await names({ name: "albert xl" })).toEqual(["Albert Heijn Centrum", "Albert Heijn XL"]);
    expect(await names({ name: "albert xl", match_all: "true" })).toEqual(["Albert Heijn XL"]);
    expect(await names({ name: "albert, heijn", match_all: 1 })).toEqual(["Albert Heijn Centrum", "Albert Heijn XL"]);
  });

  it("owner_code searches owner codes word by word; name wins when both are given", async () => {
    expect(await names({ owner_code: "AH" })).toEqual(["Albert Heijn Centrum", "Albert Heijn XL"]);
    expect(await names({ owner_code: "1001" })).toEqual(["Albert Heijn Centrum"]);
    expect(await names({ name: "jumbo", owner_code: "AH" })).toEqual(["Jumbo Foodmarkt", "De Jumbo Shop"]);
  });

  it("search[*] searches name and owner_code; results ordered by relevance", async () => {
    // "alb" is a name word of two shops (weight 2) and an owner-code word of one (weight 1).
    expect(await names({ "search[*]": "alb" })).toEqual(["Albert Heijn Centrum", "Albert Heijn XL", "Café Bär"]);
    // Matching two terms outranks matching one, whatever the id order.
    expect(await names({ "search[name]": "albert xl" })).toEqual(["Albert Heijn XL", "Albert Heijn Centrum"]);
    expect(await names({ "search[owner_code]": "1002 3001" })).toEqual(["Albert Heijn XL", "Heijnen Bakkerij"]);
  });

  it("a search[...] field takes precedence over name and owner_code", async () => {
    expect(await names({ "search[owner_code]": "JU", name: "albert", owner_code: "AH" })).toEqual(["Jumbo Foodmarkt", "De Jumbo Shop"]);
  });

  it("combines with exclude_inactive and paging; deleted businesses and other chains never match", async () => {
    expect(await names({ name: "jumbo", exclude_inactive: "yes" })).toEqual(["Jumbo Foodmarkt"]);
    expect(await names({ name: "heijn", limit: 1, offset: 1 })).toEqual(["Albert Heijn XL"]);
    expect(await names({ name: "deleted" })).toEqual([]);
    expect(await names({ name: "elsewhere" })).toEqual([]);
  });

  it("a search text without letters or digits matches nothing; an empty one is no search", async () => {
    expect(await names({ name: "&!" })).toEqual([]);
    expect(await names({ name: "" })).toEqual(ALL_LIVE);
  });
});

describe("get-businesses: parameter errors", () => {
  const CASES: Array<[string, Record<string, string | number>, number, string]> = [
    ["two search fields", { "search[name]": "a", "search[owner_code]": "b" }, 419, "parameter_invalid"],
    ["unknown search field", { "search[towncity]": "ams" }, 419, "parameter_invalid"],
    ["search without a field", { search: "albert" }, 419, "parameter_invalid"],
    ["limit 0", { limit: 0 }, 419, "parameter_invalid"],
    ["limit 501", { limit: 501 }, 419, "parameter_invalid"],
    ["limit not an integer", { limit: "ten" }, 419, "parameter_invalid"],
    ["offset negative", { offset: -1 }, 419, "parameter_invalid"],
    ["match_all not a boolean", { name: "a", match_all: "all" }, 316, "parameter_supplied_not_boolean"],
    ["exclude_inactive not a boolean", { exclude_inactive: "2" }, 316, "parameter_supplied_not_boolean"],
    ["name over 255", { name: "n".repeat(256) }, 482, "string_parameter_too_long"],
    ["owner_code over 64", { owner_code: "o".repeat(65) }, 482, "string_parameter_too_long"],
    ["search value over 255", { "search[*]": "s".repeat(256) }, 482, "string_parameter_too_long"],
  ];
  for (const [what, params, code, name] of CASES) {
    it(`${what}: ${code} ${name}`, async () => {
      const { status, body } = await get(params);
      expect(body.error).toMatchObject({ code, name });
      expect(status).toBe(400);
    });
  }

  it("chain_id missing is 3, not an integer 76", async () => {
    const missing = await core.json("/internal/get-businesses?name=a", { headers: admin.headers });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 3, name: "http_vars_missing" });
    const invalid = await core.json("/internal/get-businesses?chain_id=first", { headers: admin.headers });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toMatchObject({ code: 76, name: "chain_id_invalid" });
  });

  it("any method but GET is 13 http_request_method_non_GET_not_allowed (405)", async () => {
    const { status, body } = await core.json(`/internal/get-businesses?chain_id=${core.chainId}`, { method: "POST", headers: admin.headers });
    expect(status).toBe(405);
    expect(body.error).toMatchObject({ code: 13, name: "http_request_method_non_GET_not_allowed" });
  });
});
