import { describe, expect, it } from "vitest";
import { z } from "zod";
import { businessResource } from "./business.ts";
import { chainResource } from "./chain.ts";
import { RESOURCES } from "./resource-registry.ts";
import { defineResource, field, reference, VENDOR } from "./meta.ts";

const prop = (name: string) => businessResource.properties.get(name)!;

describe("field metadata", () => {
  it("stores the vendor keys with .meta() so z.globalRegistry and z.toJSONSchema carry them", () => {
    const s = field(z.string().max(64).nullable(), { level: 1, filter: true, identifier: true, fulltext: true, requiredOnPost: true, ops: ["get", "post"] });
    expect(z.globalRegistry.get(s)).toEqual({
      "x-service-recursion-level": 1,
      "x-service-filter-property": true,
      "x-service-identifier": true,
      "x-service-fulltext-search": true,
      "x-service-required-on-post": true,
      "x-service-operations": ["get", "post"],
    });
    const json = z.toJSONSchema(z.object({ code: s })) as any;
    expect(json.properties.code).toMatchObject({ "x-service-recursion-level": 1, "x-service-operations": ["get", "post"] });
  });

  it("refuses a declaration with a field that has no metadata", () => {
    expect(() => defineResource({ name: "bad", plural: "bads", fields: z.object({ x: z.string() }) })).toThrow(/bad\.x/);
  });

  it("a write-only field is JSON Schema's writeOnly, and cannot be read-only, filtered, sorted or an identifier", () => {
    const secretive = defineResource({
      name: "secretive",
      plural: "secretives",
      fields: z.object({ id: field(z.int(), { level: 0, readOnly: true }), secret: field(z.string(), { level: 1, writeOnly: true }) }),
    });
    expect(secretive.properties.get("secret")).toMatchObject({ writeOnly: true, readOnly: false });
    expect(secretive.properties.get("id")!.writeOnly).toBe(false);
    expect(z.toJSONSchema(secretive.fields.shape.secret)).toMatchObject({ writeOnly: true });
    for (const bad of [{ readOnly: true }, { filter: true }, { sort: true }, { identifier: true }]) {
      expect(
        () => defineResource({ name: "bad", plural: "bads", fields: z.object({ secret: field(z.string(), { level: 1, writeOnly: true, ...bad }) }) }),
        JSON.stringify(bad),
      ).toThrow("bad.secret: a write-only field cannot be");
    }
  });

  it("adding a field is one line: its metadata is read back", () => {
    const r = defineResource({
      name: "shop",
      plural: "shops",
      fields: z.object({
        id: field(z.int(), { level: 0, readOnly: true }),
        note: field(z.string().max(10).nullable(), { level: 3, sort: true }),
      }),
    });
    expect(r.properties.get("note")).toMatchObject({ level: 3, sort: true, kind: "string", nullable: true, readOnly: false });
    expect([...r.properties.get("note")!.writeOps].sort()).toEqual(["patch", "post", "put"]);
    expect(r.path).toBe("/resources/shop");
    expect(r.pluralPath).toBe("/resources/shops");
    expect(r.identifiers).toEqual(["id"]);
  });
});

describe("Business declaration (spec field table)", () => {
  it("has every field of the table plus deleted, deleted_by, last_updated_by", () => {
    expect([...businessResource.properties.keys()].sort()).toEqual(
      [
        "address_1", "address_2", "address_3", "business_distance_km", "chain", "chain_member", "country_code", "created_date",
        "deleted", "deleted_by", "id", "is_shut_down", "last_modified_date", "last_updated_by", "latitude", "longitude", "name",
        "owner_code", "phone_number", "postalcode", "region", "towncity",
      ].sort(),
    );
  });

  it("carries the levels of the table", () => {
    const levels = Object.fromEntries([...businessResource.properties.values()].map((p) => [p.name, p.level]));
    expect(levels).toMatchObject({
      id: 0, business_distance_km: 1, chain: 1, name: 1, owner_code: 1, chain_member: 4,
      address_1: 2, address_2: 2, address_3: 2, country_code: 2, created_date: 2, is_shut_down: 2, last_modified_date: 2,
      latitude: 2, longitude: 2, phone_number: 2, postalcode: 2, region: 2, towncity: 2, deleted: 2, deleted_by: 2, last_updated_by: 2,
    });
  });

  it("carries the flags of the table", () => {
    const having = (flag: "filter" | "sort" | "identifier" | "immutable" | "readOnly" | "fulltext" | "requiredOnPost") =>
      [...businessResource.properties.values()].filter((p) => p[flag]).map((p) => p.name).sort();
    expect(having("filter")).toEqual(["chain", "country_code", "id", "is_shut_down", "name", "owner_code", "region", "towncity"]);
    expect(having("sort")).toEqual(["created_date", "last_modified_date"]);
    expect(having("identifier")).toEqual(["owner_code"]);
    expect(businessResource.identifiers).toEqual(["id", "owner_code"]);
    expect(having("immutable")).toEqual(["chain", "last_modified_date"]);
    expect(having("fulltext")).toEqual(["name", "owner_code"]);
    expect(having("requiredOnPost")).toEqual(["name", "owner_code"]);
    expect(having("readOnly")).toEqual(["business_distance_km", "created_date", "deleted", "deleted_by", "id", "last_modified_date", "last_updated_by"]);
    expect(prop("owner_code").meta[VENDOR.operations]).toEqual(["get", "post", "put", "patch", "delete"]);
    expect(prop("id").meta[VENDOR.operations]).toEqual(["get", "put", "patch", "delete"]);
    expect(prop("id").writeOps.size).toBe(0);
    expect([...prop("chain_member").writeOps]).toEqual(["post", "put", "patch"]);
  });

  it("carries types, nullability, defaults and constraints", () => {
    expect(prop("chain_member")).toMatchObject({ kind: "boolean", nullable: false, default: true });
    expect(prop("is_shut_down")).toMatchObject({ kind: "boolean", default: false });
    expect(prop("chain")).toMatchObject({ kind: "reference", reference: "chain", nullable: false });
    expect(prop("created_date").kind).toBe("date-time");
    expect(prop("latitude")).toMatchObject({ kind: "number", nullable: true });
    expect(prop("id").kind).toBe("integer");
    expect(prop("name").nullable).toBe(false);
    const ok = (name: string, v: unknown) => prop(name).schema.safeParse(v).success;
    expect(ok("name", "x".repeat(255))).toBe(true);
    expect(ok("name", "x".repeat(256))).toBe(false);
    expect(ok("name", "")).toBe(false);
    expect(ok("owner_code", "x".repeat(65))).toBe(false);
    expect(ok("owner_code", null)).toBe(true);
    expect(ok("address_2", "")).toBe(false);
    expect(ok("country_code", "NL")).toBe(true);
    expect(ok("country_code", "nl")).toBe(false);
    expect(ok("latitude", -90.5)).toBe(false);
    expect(ok("longitude", 180)).toBe(true);
    expect(ok("phone_number", "1".repeat(33))).toBe(false);
    expect(ok("postalcode", "1".repeat(21))).toBe(false);
    expect(ok("chain", { id: 3, name: "echoed" })).toBe(true);
    expect(ok("chain", 3)).toBe(false);
  });

  it("converts to JSON Schema with the vendor extensions (the base of GET /resources/schema)", () => {
    const json = z.toJSONSchema(businessResource.fields, { io: "input", unrepresentable: "any" }) as any;
    expect(json.properties.owner_code).toMatchObject({ "x-service-identifier": true, "x-service-fulltext-search": true, "x-service-recursion-level": 1 });
    expect(json.properties.chain_member).toMatchObject({ type: "boolean", default: true, "x-service-recursion-level": 4 });
    expect(json.properties.id).toMatchObject({ readOnly: true, "x-service-operations": ["get", "put", "patch", "delete"] });
  });

  it("lists the end-user omissions of the spec", () => {
    expect([...(businessResource.omitFor?.end_user ?? [])].sort()).toEqual(
      ["chain_member", "created_date", "deleted", "deleted_by", "last_modified_date", "last_updated_by"],
    );
  });
});

describe("Chain declaration", () => {
  it("has the spec's fields, levels and W flags", () => {
    // the spec's 51 and the referral code submission window's two (quantity and unit)
    expect(chainResource.properties.size).toBe(53);
    const c = (n: string) => chainResource.properties.get(n)!;
    expect(c("id")).toMatchObject({ level: 0, readOnly: true, identifier: true });
    expect(c("name")).toMatchObject({ level: 1 });
    expect(c("deleted")).toMatchObject({ level: 1, readOnly: true });
    expect(c("app")).toMatchObject({ level: 1, readOnly: true, kind: "reference", nullable: true });
    expect(c("allowed_ip_ranges")).toMatchObject({ level: 3, readOnly: true, immutable: true, kind: "array", reference: "allowed_ip_range" });
    expect([...c("name").writeOps]).toEqual(["put", "patch"]);
    expect(c("receipts_service_active").writeOps.size).toBe(0);
    expect(c("jwt_jwks_url").schema.safeParse("not a url").success).toBe(false);
    const ro = [...chainResource.properties.values()].filter((p) => p.readOnly).map((p) => p.name).sort();
    expect(ro).toEqual(["allowed_ip_ranges", "app", "authentication_point", "created_date", "deleted", "id", "last_modified_date", "last_updated_by", "non_payment_state"]);
    expect(reference().safeParse({ id: 1 }).success).toBe(true);
  });

  it("is registered with Business for reference lookups", () => {
    expect([...RESOURCES.keys()]).toEqual(expect.arrayContaining(["business", "chain"]));
  });
});
