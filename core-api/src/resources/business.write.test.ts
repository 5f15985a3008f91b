import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses, businessSearchTokens } from "../db/schema.ts";
import { errorOf, startResourcesWorld, type ResourcesWorld } from "./resources-test-support.ts";

let w: ResourcesWorld;
beforeAll(async () => {
  w = await startResourcesWorld();
});
afterAll(() => w.core.close());

const rowOf = async (id: number) => (await w.core.db.select().from(businesses).where(eq(businesses.id, id)))[0]!;
const countRows = async () => (await w.core.db.select().from(businesses)).length;

describe("POST /resources/business", () => {
  it("creates a business from JSON, applying defaults, and returns it at the requested level", async () => {
    w.setNow("2026-01-01T01:00:00Z");
    const { status, body } = await w.call(
      "POST",
      "/resources/business",
      { name: "Harbour Shop", owner_code: "H-1", chain: { id: w.core.chainId }, latitude: 51.9, longitude: 4.48, country_code: "NL" },
      { "X-Service-Response-Recursion-Level": "4" },
    );
    expect(status).toBe(200);
    const b = body.results;
    expect(b).toMatchObject({ name: "Harbour Shop", owner_code: "H-1", chain_member: true, is_shut_down: false, deleted: false });
    expect(b.created_date).toBe("2026-01-01T01:00:00Z");
    expect(b.last_updated_by).toEqual({ id: w.admin.id });
    const row = await rowOf(b.id);
    expect(row).toMatchObject({
      chainId: w.core.chainId,
      name: "Harbour Shop",
      ownerCode: "H-1",
      latitude: 51.9,
      longitude: 4.48,
      countryCode: "NL",
      chainMember: true,
      isShutDown: false,
      lastUpdatedBy: w.admin.id,
    });
    expect(row.geoCell).not.toBeNull();
    const tokens = await w.core.db.select().from(businessSearchTokens).where(eq(businessSearchTokens.businessId, b.id));
    expect(tokens.map((t) => t.token).sort()).toEqual(["1", "h", "harbour", "shop"]);
  });

  it("accepts a form body (strings converted per property type, chain[id])", async () => {
    const res = await w.core.json("/resources/business", {
      method: "POST",
      headers: { ...w.admin.headers, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        name: "Form Shop",
        owner_code: "FORM-1",
        "chain[id]": String(w.core.chainId),
        is_shut_down: "1",
        chain_member: "false",
        latitude: "52.5",
        address_1: "",
      }).toString(),
    });
    expect(res.status).toBe(200);
    const row = await rowOf(res.body.results.id);
    expect(row).toMatchObject({ ownerCode: "FORM-1", isShutDown: true, chainMember: false, latitude: 52.5, address1: null });
  });

  it("refuses an owner_code already used in the chain with 311, but allows it in another chain", async () => {
    // its own business holds the code, so the test needs no other test's business
    await w.seed({ name: "Taken", ownerCode: "TAKEN-1" });
    const before = await countRows();
    const res = await w.call("POST", "/resources/business", { name: "Dup", owner_code: "TAKEN-1" });
    expect(errorOf(res)).toEqual({ status: 400, code: 311, name: "business_already_exists" });
    expect(await countRows()).toBe(before);
    const other = await w.core.createChain("Other");
    const otherAdmin = await w.core.admin({ write: true, read: true }, other);
    const ok = await w.call("POST", "/resources/business", { name: "Dup", owner_code: "TAKEN-1" }, otherAdmin.headers);
    expect(ok.status).toBe(200);
    expect((await rowOf(ok.body.results.id)).chainId).toBe(other);
  });

  it("refuses bad bodies with the spec's errors and writes nothing", async () => {
    const cases: Array<[unknown, number, string]> = [
      [{ name: "X", owner_code: "B1", colour: "red" }, 419, "parameter_invalid"],
      [{ name: "X", owner_code: "B2", id: 5 }, 419, "parameter_invalid"],
      [{ name: "X", owner_code: "B3", created_date: "2026-01-01T00:00:00Z" }, 419, "parameter_invalid"],
      [{ name: "X", owner_code: "B4", business_distance_km: 1 }, 419, "parameter_invalid"],
      [{ name: "X", owner_code: "B5", deleted: true }, 419, "parameter_invalid"],
      [{ name: 12, owner_code: "B6" }, 419, "parameter_invalid"],
      [{ name: "X", owner_code: "B7", latitude: "north" }, 419, "parameter_invalid"],
      [{ name: "X", owner_code: "B8", latitude: 91 }, 419, "parameter_invalid"],
      [{ name: "X", owner_code: "B9", is_shut_down: "yes" }, 419, "parameter_invalid"],
      [{ name: "X", owner_code: "B10", country_code: "nl" }, 419, "parameter_invalid"],
      [{ name: "X", owner_code: "B11", address_2: "" }, 419, "parameter_invalid"],
      [{ name: "", owner_code: "B12" }, 419, "parameter_invalid"],
      [{ name: null, owner_code: "B12" }, 419, "parameter_invalid"],
      [{ name: "X", owner_code: "B13", chain: { id: 999 } }, 419, "parameter_invalid"],
      [{ name: "X", owner_code: "B14", chain: 1 }, 419, "parameter_invalid"],
      [{ name: "x".repeat(256), owner_code: "B15" }, 482, "string_parameter_too_long"],
      [{ name: "X", owner_code: "o".repeat(65) }, 482, "string_parameter_too_long"],
      [{ name: "X", owner_code: "B16", phone_number: "1".repeat(33) }, 482, "string_parameter_too_long"],
      [{ name: "X", owner_code: "B17", postalcode: "1".repeat(21) }, 482, "string_parameter_too_long"],
      [{ owner_code: "B18" }, 441, "parameter_missing"],
      [{ name: "X" }, 441, "parameter_missing"],
    ];
    const before = await countRows();
    for (const [body, code, name] of cases) {
      const res = await w.call("POST", "/resources/business", body);
      expect({ body, ...errorOf(res) }).toEqual({ body, status: 400, code, name });
    }
    expect(errorOf(await w.call("POST", "/resources/business?name=Q", { name: "X", owner_code: "B19" })).code).toBe(419);
    const broken = await w.core.json("/resources/business", {
      method: "POST",
      headers: { ...w.admin.headers, "content-type": "application/json" },
      body: "{not json",
    });
    expect(errorOf(broken).code).toBe(419);
    expect(await countRows()).toBe(before);
  });

  it("accepts owner_code null (nullable) and chain equal to the header chain", async () => {
    const res = await w.call("POST", "/resources/business", { name: "No Code", owner_code: null, chain: { id: w.core.chainId, name: "ignored" } });
    expect(res.status).toBe(200);
    expect((await rowOf(res.body.results.id)).ownerCode).toBeNull();
  });
});

describe("PATCH and PUT /resources/business", () => {
  it("PATCH changes only the given properties, by id and by ?owner_code=", async () => {
    const shop = await w.seed({ name: "Patch Me", ownerCode: "P-1", towncity: "Delft", phoneNumber: "123" });
    w.setNow("2026-01-01T02:00:00Z");
    const res = await w.call("PATCH", `/resources/business/${shop.id}`, { towncity: "Leiden", id: shop.id });
    expect(res.status).toBe(200);
    expect(res.body.results).toMatchObject({ towncity: "Leiden", phone_number: "123", last_modified_date: "2026-01-01T02:00:00Z" });
    expect(await rowOf(shop.id)).toMatchObject({ towncity: "Leiden", phoneNumber: "123", name: "Patch Me", lastUpdatedBy: w.admin.id });
    const byCode = await w.call("PATCH", "/resources/business?owner_code=P-1", { owner_code: "P-2", is_shut_down: true });
    expect(byCode.status).toBe(200);
    expect(await rowOf(shop.id)).toMatchObject({ ownerCode: "P-2", isShutDown: true });
  });

  it("PUT replaces: omitted writable properties reset to their default or null", async () => {
    const shop = await w.seed({ name: "Put Me", ownerCode: "PUT-1", towncity: "Utrecht", isShutDown: true, chainMember: false, latitude: 52, longitude: 5 });
    const res = await w.call("PUT", `/resources/business/${shop.id}`, { name: "Put Again", owner_code: "PUT-1", region: "UT" });
    expect(res.status).toBe(200);
    expect(await rowOf(shop.id)).toMatchObject({
      name: "Put Again",
      ownerCode: "PUT-1",
      region: "UT",
      towncity: null,
      latitude: null,
      longitude: null,
      geoCell: null,
      isShutDown: false,
      chainMember: true,
      chainId: w.core.chainId,
    });
    expect(errorOf(await w.call("PUT", `/resources/business/${shop.id}`, { name: "Only name" }))).toEqual({
      status: 400,
      code: 441,
      name: "parameter_missing",
    });
  });

  it("refuses read-only, immutable, unknown and badly typed properties, and writes nothing", async () => {
    const shop = await w.seed({ name: "Guarded", ownerCode: "GD-1" });
    const cases: Array<[string, unknown, number]> = [
      ["PATCH", { chain: { id: w.core.chainId } }, 419],
      ["PUT", { name: "G", owner_code: "GD-1", chain: { id: w.core.chainId } }, 419],
      ["PATCH", { last_modified_date: "2026-01-01T00:00:00Z" }, 419],
      ["PATCH", { created_date: "2026-01-01T00:00:00Z" }, 419],
      ["PATCH", { id: shop.id + 1 }, 419],
      ["PATCH", { deleted_by: 1 }, 419],
      ["PATCH", { nickname: "x" }, 419],
      ["PATCH", { chain_member: "maybe" }, 419],
      ["PATCH", { longitude: 181 }, 419],
      ["PATCH", { name: "n".repeat(256) }, 482],
      ["PATCH", { region: "r".repeat(256) }, 482],
    ];
    const before = await rowOf(shop.id);
    for (const [method, body, code] of cases) {
      const res = await w.call(method, `/resources/business/${shop.id}`, body);
      expect({ method, body, code: errorOf(res).code, status: res.status }).toEqual({ method, body, code, status: 400 });
    }
    expect(await rowOf(shop.id)).toEqual(before);
  });

  it("refuses a duplicate owner_code with 311 and answers 544 for a missing target", async () => {
    const a = await w.seed({ name: "A", ownerCode: "DUP-A" });
    await w.seed({ name: "B", ownerCode: "DUP-B" });
    expect(errorOf(await w.call("PATCH", `/resources/business/${a.id}`, { owner_code: "DUP-B" })).code).toBe(311);
    expect((await rowOf(a.id)).ownerCode).toBe("DUP-A");
    expect(errorOf(await w.call("PATCH", "/resources/business/999999", { name: "Z" })).code).toBe(544);
    expect(errorOf(await w.call("PUT", "/resources/business?owner_code=NOPE", { name: "Z", owner_code: "Z" })).code).toBe(544);
  });
});

describe("DELETE /resources/business", () => {
  it("soft-deletes and answers with the deleted business at the requested level", async () => {
    const shop = await w.seed({ name: "Closing", ownerCode: "DEL-1", latitude: 52, longitude: 4 });
    w.setNow("2026-01-01T03:00:00Z");
    const res = await w.call("DELETE", "/resources/business?owner_code=DEL-1", undefined, { "X-Service-Response-Recursion-Level": "2" });
    expect(res.status).toBe(200);
    expect(res.body.results).toMatchObject({
      id: shop.id,
      deleted: true,
      deleted_by: { id: w.admin.id },
      last_updated_by: { id: w.admin.id },
      last_modified_date: "2026-01-01T03:00:00Z",
    });
    expect(await rowOf(shop.id)).toMatchObject({ deleted: true, deletedBy: w.admin.id, geoCell: null });
    expect(errorOf(await w.call("DELETE", `/resources/business/${shop.id}`)).code).toBe(544);
    // the owner code is free again
    expect((await w.call("POST", "/resources/business", { name: "Reopened", owner_code: "DEL-1" })).status).toBe(200);
  });
});
