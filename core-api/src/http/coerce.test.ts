import { addBusinessCall } from "@service/shared/internal/add-business";
import { addCampaignCall } from "@service/shared/internal/add-campaign";
import { alterBusinessCall } from "@service/shared/internal/alter-business";
import { getBusinessesCall } from "@service/shared/internal/get-businesses";
import { describe, expect, it } from "vitest";
import { readCallParams, requireParams } from "./coerce.ts";
import type { Params } from "./params.ts";
import { thrownErrorName as errorName } from "./thrown-error.test-support.ts";

describe("readCallParams", () => {
  it("reads form text and JSON values alike, trims text, applies defaults and ignores unknown parameters", () => {
    const form: Params = { chain_id: " 7 ", name: " Shop ", latitude: "52.1", longitude: "-4.", is_shut_down: "on", countrycode: "nl", colour: "blue" };
    const json: Params = { chain_id: 7, name: "Shop", latitude: 52.1, longitude: -4, is_shut_down: true, countrycode: "NL", colour: ["blue"] };
    const expected = { chain_id: 7, name: "Shop", latitude: 52.1, longitude: -4, is_shut_down: true, countrycode: "NL", update_if_exists: false };
    expect(readCallParams(addBusinessCall, form)).toEqual(expected);
    expect(readCallParams(addBusinessCall, json)).toEqual(expected);
  });

  it("empty values: null for a nullable text, absent for a number or boolean, refused where a text cannot be emptied", () => {
    expect(readCallParams(alterBusinessCall, { business_id: "1", towncity: " ", region: null, latitude: "", is_shut_down: "" })).toEqual({ business_id: 1, towncity: null, region: null });
    expect(errorName(() => readCallParams(alterBusinessCall, { business_id: "1", name: "" }))).toBe("business_name_invalid");
    expect(readCallParams(getBusinessesCall, { chain_id: "1", limit: "" })).toMatchObject({ limit: 500 });
  });

  it("a required parameter absent or empty gets its missing error, before any other parameter is checked", () => {
    expect(errorName(() => readCallParams(addCampaignCall, { chain_id: "x", title: " " }))).toBe("http_vars_missing");
    expect(errorName(() => requireParams(addCampaignCall, { chain_id: "x" }))).toBe("http_vars_missing");
    expect(errorName(() => requireParams(addCampaignCall, { chain_id: "x", title: "T" }))).toBeUndefined();
    expect(readCallParams(addBusinessCall, { latitude: "1" }, ["latitude"], { present: false })).toEqual({ latitude: 1 });
  });

  it("the own name wins over an alias, and every name sent is checked", () => {
    expect(readCallParams(getBusinessesCall, { chain_id: "1", search_lat: "52", lat: "10", lon: "4" })).toMatchObject({ search_lat: 52, search_long: 4 });
    expect(errorName(() => readCallParams(getBusinessesCall, { chain_id: "1", search_lat: "52", lat: "north" }))).toBe("parameter_invalid");
    expect(readCallParams(alterBusinessCall, { business_id: 1, google_place_id: "g" })).toMatchObject({ place_id: "g" });
    expect(readCallParams(getBusinessesCall, { chain_id: "1", search_radius_km: "7.5" })).toMatchObject({ radius: 7.5 });
  });

  it("answers each refusal with the parameter's declared error", () => {
    const add = (p: Params) => errorName(() => readCallParams(addBusinessCall, { chain_id: 1, name: "Shop", ...p }));
    expect(add({ countrycode: "N" })).toBe("business_country_code_invalid");
    expect(add({ countrycode: "XX" })).toBe("country_code_invalid");
    expect(add({ latitude: 91 })).toBe("latitude_value_error");
    expect(add({ latitude: "91x" })).toBe("business_latitude_invalid");
    expect(add({ format: "f".repeat(65) })).toBe("string_parameter_too_long");
    expect(add({ format: ["f"] })).toBe("parameter_invalid");
    expect(add({ opening_times: { funday: {} } })).toBe("parameter_invalid");
    expect(add({ opening_times: { special_hours: Array.from({ length: 40 }, () => ({ date: "2026-12-25", open: null, close: null, reason: "Christmas" })) } })).toBe("string_parameter_too_long");
    expect(add({ update_if_exists: "sometimes" })).toBe("parameter_supplied_not_boolean");
    const get = (p: Params) => errorName(() => readCallParams(getBusinessesCall, { chain_id: 1, ...p }));
    expect(get({ search: "albert" })).toBe("parameter_invalid");
    expect(get({ search: { name: "s".repeat(256) } })).toBe("string_parameter_too_long");
    expect(get({ search: { name: "a", "*": "b" } })).toBe("parameter_invalid");
    expect(get({ search: { name: "a", "*": "" } })).toBeUndefined();
    expect(get({ limit: "501" })).toBe("parameter_invalid");
    expect(get({ search_lat: "90.5" })).toBe("lat_long_invalid");
  });

  it("stores opening_times sent as an object as its JSON text", () => {
    const hours = { monday: { open: "08:00", close: "20:00" } };
    expect(readCallParams(addBusinessCall, { chain_id: 1, name: "Shop", opening_times: hours }).opening_times).toBe(JSON.stringify(hours));
  });
});
