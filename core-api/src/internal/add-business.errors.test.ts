import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestAdmin, type TestCore } from "../../../test/helpers/core.ts";
import { countBusinesses, encode, type Encoding } from "../../../test/helpers/internal-calls.ts";

let core: TestCore;
let admin: TestAdmin;
beforeAll(async () => {
  core = await startCore();
  admin = await core.admin({ write: true });
});
afterAll(() => core.close());

const long = (n: number, ch = "a") => ch.repeat(n);

/** [what, params (merged over a valid chain_id and name), code, name, encoding] */
const CASES: Array<[string, Record<string, unknown>, number, string, Encoding?]> = [
  ["chain_id missing", { chain_id: undefined }, 3, "http_vars_missing"],
  ["name missing", { name: undefined }, 3, "http_vars_missing"],
  ["name empty", { name: "  " }, 3, "http_vars_missing", "form"],
  ["chain_id not an integer", { chain_id: "one" }, 76, "chain_id_invalid"],
  ["chain_id a decimal", { chain_id: "1.5" }, 76, "chain_id_invalid", "multipart"],
  ["latitude only", { latitude: 52.1 }, 98, "lat_long_both_required"],
  ["longitude only", { longitude: "4.9" }, 98, "lat_long_both_required", "form"],
  ["name over 255", { name: long(256) }, 124, "business_name_invalid"],
  ["description over 512", { description: long(513) }, 125, "business_description_invalid"],
  ["address_1 over 255", { address_1: long(256) }, 126, "business_address_1_invalid"],
  ["address_2 over 255", { address_2: long(256) }, 127, "business_address_2_invalid"],
  ["address_3 over 255", { address_3: long(256) }, 128, "business_address_3_invalid"],
  ["towncity over 255", { towncity: long(256) }, 129, "business_towncity_invalid"],
  ["region over 255", { region: long(256) }, 130, "business_region_invalid"],
  ["postalcode over 20", { postalcode: long(21, "1") }, 131, "business_postalcode_invalid"],
  ["countrycode of 3 characters", { countrycode: "NLD" }, 132, "business_country_code_invalid"],
  ["countrycode of 1 character", { countrycode: "N" }, 132, "business_country_code_invalid", "form"],
  ["latitude not a number", { latitude: "north", longitude: 4 }, 133, "business_latitude_invalid", "form"],
  ["longitude not a number", { latitude: 52, longitude: "4,9" }, 134, "business_longitude_invalid"],
  ["email invalid", { email_address: "not-an-email" }, 135, "business_email_address_invalid"],
  ["email over 255", { email_address: `${long(250)}@example.com` }, 135, "business_email_address_invalid"],
  ["phone with letters", { phone_number: "call us" }, 136, "business_phone_number_invalid"],
  ["phone not valid for its country", { phone_number: "12", countrycode: "NL" }, 136, "business_phone_number_invalid"],
  ["phone over 32", { phone_number: `+31 ${long(30, "1")}` }, 136, "business_phone_number_invalid"],
  ["fax invalid", { fax_number: "+31 1" }, 137, "business_fax_number_invalid"],
  ["website not a URL", { website_url: "www example" }, 138, "business_website_url_invalid"],
  ["website not http(s)", { website_url: "ftp://example.com" }, 138, "business_website_url_invalid", "form"],
  ["social A not a URL", { socialnetwork_a_url: "facebook/jc" }, 139, "business_socialnetwork_a_url_invalid"],
  ["social C username with @", { socialnetwork_c_username: "@jumbo" }, 140, "business_socialnetwork_c_username_invalid"],
  ["social C username over 15", { socialnetwork_c_username: long(16) }, 140, "business_socialnetwork_c_username_invalid"],
  ["social B not a URL", { socialnetwork_b_url: "javascript:alert(1)" }, 141, "business_socialnetwork_b_url_invalid"],
  ["owner_code over 64", { owner_code: long(65) }, 143, "business_owner_code_invalid"],
  ["NL postal code without letters", { countrycode: "NL", postalcode: "1234" }, 278, "postalcode_invalid"],
  ["DE postal code of 4 digits", { countrycode: "DE", postalcode: "1234" }, 278, "postalcode_invalid", "form"],
  ["BE postal code with NL letters", { countrycode: "be", postalcode: "1234 AB" }, 278, "postalcode_invalid"],
  ["is_shut_down not a boolean", { is_shut_down: "maybe" }, 316, "parameter_supplied_not_boolean", "form"],
  ["programme_opted_in not a boolean", { programme_opted_in: 2 }, 316, "parameter_supplied_not_boolean"],
  ["update_if_exists not a boolean", { update_if_exists: "sometimes" }, 316, "parameter_supplied_not_boolean", "multipart"],
  ["business_id not an integer", { update_if_exists: true, business_id: "abc" }, 15, "business_id_invalid"],
  ["opening_times not JSON", { opening_times: "mon-fri 8-20" }, 419, "parameter_invalid", "form"],
  ["opening_times with a bad time", { opening_times: JSON.stringify({ monday: { open: "8am", close: "20:00" } }) }, 419, "parameter_invalid"],
  ["opening_times with an unknown day", { opening_times: { funday: { open: "08:00", close: "20:00" } } }, 419, "parameter_invalid"],
  ["opening_times with half a closed day", { opening_times: { monday: { open: "08:00", close: null } } }, 419, "parameter_invalid"],
  ["special_hours with an impossible date", { opening_times: { special_hours: [{ date: "2026-02-30", open: "10:00", close: "14:00", reason: null }] } }, 419, "parameter_invalid"],
  ["special_hours without reason key", { opening_times: { special_hours: [{ date: "2026-12-24", open: "10:00", close: "14:00" }] } }, 419, "parameter_invalid"],
  ["countrycode not ISO", { countrycode: "XX" }, 420, "country_code_invalid"],
  ["latitude over 90", { latitude: 90.5, longitude: 4 }, 435, "latitude_value_error"],
  ["longitude under -180", { latitude: 52, longitude: "-180.01" }, 436, "longitude_value_error", "form"],
  ["format over 64", { format: long(65) }, 482, "string_parameter_too_long"],
  ["google_place_id over 1024", { google_place_id: long(1025) }, 482, "string_parameter_too_long"],
  ["image_url over 512", { image_url: long(513) }, 482, "string_parameter_too_long"],
  ["review_url over 255", { review_url: long(256) }, 482, "string_parameter_too_long"],
  ["opening_times over 2048", { opening_times: long(2049) }, 482, "string_parameter_too_long"],
];

describe("add-business: errors (nothing is written)", () => {
  for (const [what, params, code, name, encoding = "json"] of CASES) {
    it(`${what}: ${code} ${name}`, async () => {
      const merged: Record<string, unknown> = { chain_id: core.chainId, name: "Valid name", ...params };
      for (const k of Object.keys(merged)) if (merged[k] === undefined) delete merged[k];
      const before = await countBusinesses(core);
      const { status, body } = await core.json("/internal/add-business", encode(encoding, "POST", admin.headers, merged as never));
      expect(body.error).toMatchObject({ code, name });
      expect(body.result).toEqual({ code, status: "error" });
      expect(status).toBe(400);
      expect(await countBusinesses(core)).toBe(before);
    });
  }

  it("any method but POST is 13 http_request_method_non_POST_not_allowed (405)", async () => {
    const before = await countBusinesses(core);
    for (const method of ["GET", "PUT", "DELETE"]) {
      const { status, body } = await core.json(`/internal/add-business?chain_id=${core.chainId}&name=x`, { method, headers: admin.headers });
      expect(status).toBe(405);
      expect(body.error).toMatchObject({ code: 13, name: "http_request_method_non_POST_not_allowed" });
    }
    expect(await countBusinesses(core)).toBe(before);
  });

  it("a body that is not valid JSON is 419", async () => {
    const before = await countBusinesses(core);
    const { status, body } = await core.json("/internal/add-business", {
      method: "POST",
      headers: { ...admin.headers, "content-type": "application/json" },
      body: "{name:",
    });
    expect(status).toBe(400);
    expect(body.error.code).toBe(419);
    expect(await countBusinesses(core)).toBe(before);
  });
});
