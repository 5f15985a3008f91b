import { describe, expect, it } from "vitest";
import { addBusinessParamsSchema } from "./add-business.ts";
import { alterBusinessParamsSchema } from "./alter-business.ts";
import { getBusinessesParamsSchema } from "./get-businesses.ts";

describe("params contracts of the business calls", () => {
  it("accept requests as JSON and as form text", () => {
    const json = { chain_id: 1, name: "Shop", latitude: 52.1, longitude: 4.3, is_shut_down: false, opening_times: { monday: { open: "08:00", close: "20:00" } } };
    const form = { chain_id: "1", name: "Shop", latitude: "52.1", longitude: "4.3", is_shut_down: "0", countrycode: "nl", opening_times: '{"sunday":{"open":null,"close":null}}' };
    expect(addBusinessParamsSchema.safeParse(json).success).toBe(true);
    expect(addBusinessParamsSchema.safeParse(form).success).toBe(true);
    expect(alterBusinessParamsSchema.safeParse({ business_id: 7, towncity: "", place_id: "p" }).success).toBe(true);
    expect(getBusinessesParamsSchema.safeParse({ chain_id: "1", "search[*]": "ah", lat: "52", lon: 4, radius: "10", limit: 20 }).success).toBe(true);
  });

  it("refuse what the server refuses", () => {
    for (const bad of [
      { chain_id: 1 },
      { chain_id: 1, name: " " },
      { chain_id: "x", name: "Shop" },
      { chain_id: 1, name: "n".repeat(256) },
      { chain_id: 1, name: "Shop", countrycode: "XX" },
      { chain_id: 1, name: "Shop", email_address: "nope" },
      { chain_id: 1, name: "Shop", socialnetwork_c_username: "@shop" },
      { chain_id: 1, name: "Shop", website_url: "ftp://example.com" },
      { chain_id: 1, name: "Shop", opening_times: '{"funday":{}}' },
      { chain_id: 1, name: "Shop", is_shut_down: "maybe" },
      { chain_id: 1, name: "Shop", review_url: "r".repeat(256) },
    ]) expect(addBusinessParamsSchema.safeParse(bad).success, JSON.stringify(bad).slice(0, 80)).toBe(false);
    expect(alterBusinessParamsSchema.safeParse({ business_id: 1, review_url: "r".repeat(512) }).success).toBe(true);
    expect(alterBusinessParamsSchema.safeParse({ business_id: 1, review_url: "r".repeat(513) }).success).toBe(false);
  });
});
