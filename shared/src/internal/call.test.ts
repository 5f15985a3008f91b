import { describe, expect, it } from "vitest";
import { z } from "zod";
import { addBusinessCall } from "./add-business.ts";
import { addCampaignCall } from "./add-campaign.ts";
import { alterBusinessCall } from "./alter-business.ts";
import { alterCampaignCall } from "./alter-campaign.ts";
import { defineCall, param } from "./call.ts";
import { getBusinessesCall } from "./get-businesses.ts";
import { loginCall } from "./login.ts";

describe("defineCall", () => {
  it("reads each parameter's kind, requiredness, nullability, aliases and errors back from its metadata", () => {
    const p = (name: string) => addBusinessCall.parameters.get(name)!;
    expect(p("chain_id")).toMatchObject({ kind: "integer", required: true, nullable: false, errors: { missing: "http_vars_missing", type: "chain_id_invalid", range: "chain_id_invalid" } });
    expect(p("name")).toMatchObject({ kind: "string", required: true, errors: { missing: "http_vars_missing", type: "business_name_invalid", length: "business_name_invalid", format: "business_name_invalid" } });
    expect(p("countrycode")).toMatchObject({ kind: "string", required: false, nullable: true, errors: { type: "business_country_code_invalid", length: "business_country_code_invalid", format: "country_code_invalid" } });
    expect(p("latitude")).toMatchObject({ kind: "number", nullable: false, errors: { type: "business_latitude_invalid", range: "latitude_value_error" } });
    expect(alterBusinessCall.parameters.get("latitude")!.errors).toEqual({ type: "business_latitude_invalid", range: "business_latitude_invalid" });
    expect(p("update_if_exists")).toMatchObject({ kind: "boolean", required: false, errors: { type: "parameter_supplied_not_boolean" } });
    expect(p("opening_times")).toMatchObject({ kind: "string", nullable: true, errors: { type: "parameter_invalid", length: "string_parameter_too_long", format: "parameter_invalid" } });
    expect(alterBusinessCall.parameters.get("place_id")!.aliases).toEqual(["google_place_id"]);
    expect(getBusinessesCall.parameters.get("radius")!.aliases).toEqual(["search_radius", "search_radius_km"]);
    expect(getBusinessesCall.parameters.get("search")!.kind).toBe("object");
  });

  it("keeps the declared order of parameters (the order they are checked)", () => {
    expect([...addCampaignCall.parameters.keys()]).toEqual(["chain_id", "title", "is_active", "active_date_from", "active_date_until"]);
    expect([...alterBusinessCall.parameters.keys()].slice(0, 3)).toEqual(["business_id", "name", "owner_code"]);
  });

  it("refuses at load time a parameter without metadata, a required one without its missing error, or an alias that is a parameter", () => {
    const results = z.object({});
    const base = { name: "x", method: "GET", path: "/internal/x", summary: "x", errors: [], results } as const;
    expect(() => defineCall({ ...base, params: { a: z.int() } })).toThrow(/declare the parameter/);
    expect(() => defineCall({ ...base, params: { a: param(z.int(), { invalid: "parameter_invalid" }) } })).toThrow(/missing error/);
    expect(() =>
      defineCall({ ...base, params: { a: param(z.int(), { invalid: "parameter_invalid", aliases: ["b"] }).optional(), b: param(z.int(), { invalid: "parameter_invalid" }).optional() } }),
    ).toThrow(/alias b/);
  });
});

describe("params of a declaration as a JSON contract", () => {
  it("accepts typed JSON requests", () => {
    const json = { chain_id: 1, name: "Shop", latitude: 52.1, longitude: 4.3, is_shut_down: false, countrycode: "nl", opening_times: { monday: { open: "08:00", close: "20:00" } } };
    expect(addBusinessCall.params.parse(json)).toMatchObject({ countrycode: "NL", opening_times: JSON.stringify(json.opening_times), update_if_exists: false });
    expect(alterBusinessCall.params.safeParse({ business_id: 7, towncity: null, place_id: "p" }).success).toBe(true);
    expect(getBusinessesCall.params.parse({ chain_id: 1, search: { "*": "ah" }, search_lat: 52, search_long: 4 })).toMatchObject({ limit: 500, offset: 0, match_all: false });
    expect(addCampaignCall.params.safeParse({ chain_id: 1, title: "T", is_active: true, active_date_until: null }).success).toBe(true);
    expect(loginCall.params.parse({ username: " admin ", password: " secret " })).toEqual({ username: "admin", password: " secret " });
  });

  it.each([
    ["no name", addBusinessCall, { chain_id: 1 }],
    ["blank name", addBusinessCall, { chain_id: 1, name: " " }],
    ["chain_id as text", addBusinessCall, { chain_id: "1", name: "Shop" }],
    ["name over 255", addBusinessCall, { chain_id: 1, name: "n".repeat(256) }],
    ["unknown country", addBusinessCall, { chain_id: 1, name: "Shop", countrycode: "XX" }],
    ["bad email", addBusinessCall, { chain_id: 1, name: "Shop", email_address: "nope" }],
    ["username with @", addBusinessCall, { chain_id: 1, name: "Shop", socialnetwork_c_username: "@shop" }],
    ["ftp website", addBusinessCall, { chain_id: 1, name: "Shop", website_url: "ftp://example.com" }],
    ["unknown day", addBusinessCall, { chain_id: 1, name: "Shop", opening_times: '{"funday":{}}' }],
    ["latitude 91", addBusinessCall, { chain_id: 1, name: "Shop", latitude: 91 }],
    ["review_url over 255", addBusinessCall, { chain_id: 1, name: "Shop", review_url: "r".repeat(256) }],
    ["review_url over 512", alterBusinessCall, { business_id: 1, review_url: "r".repeat(513) }],
    ["two search fields", getBusinessesCall, { chain_id: 1, search: { name: "a", owner_code: "b" } }],
    ["unknown search field", getBusinessesCall, { chain_id: 1, search: { towncity: "a" } }],
    ["limit 501", getBusinessesCall, { chain_id: 1, limit: 501 }],
    ["bad datetime", addCampaignCall, { chain_id: 1, title: "T", active_date_from: "2026-02-30 00:00:00" }],
    ["blank password", loginCall, { username: "a", password: "  " }],
  ])("refuses %s", (_, call, params) => {
    expect(call.params.safeParse(params).success).toBe(false);
  });

  it("counts characters, not UTF-16 units, against a maximum", () => {
    expect(alterBusinessCall.params.safeParse({ business_id: 1, socialnetwork_c_username: "abcdefghijklmno" }).success).toBe(true);
    expect(alterBusinessCall.params.safeParse({ business_id: 1, name: "😀".repeat(255) }).success).toBe(true);
    expect(alterBusinessCall.params.safeParse({ business_id: 1, name: "😀".repeat(256) }).success).toBe(false);
  });
});
