import { alterBusinessResponseSchema } from "@service/shared/internal/alter-business";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestAdmin, type TestCore } from "../../../test/helpers/core.ts";
import { businessRow, encode, ENCODINGS, type Encoding } from "../../../test/helpers/internal-calls.ts";
import { insertBusiness } from "../businesses/business-repository.ts";

let core: TestCore;
let admin: TestAdmin;
let seq = 0;
beforeAll(async () => {
  core = await startCore({ clock: () => new Date("2026-11-21T12:30:00Z") });
  admin = await core.admin({ write: true });
});
afterAll(() => core.close());

/** A stored business of the test chain in Amsterdam (NL). */
async function seedBusiness(values: Record<string, unknown> = {}) {
  seq++;
  return insertBusiness(
    core.db,
    { chainId: core.chainId, name: `Shop ${seq}`, ownerCode: `ALT-${seq}`, countryCode: "NL", postalcode: "1012 LG", latitude: 52.37, longitude: 4.89, phoneNumber: "020 123 4567", ...values },
    new Date("2026-01-01T00:00:00Z"),
  );
}

const alter = (params: Record<string, unknown>, encoding: Encoding = "json", headers = admin.headers) =>
  core.json("/internal/alter-business", encode(encoding, "PUT", headers, params as never));

describe("alter-business: changing", () => {
  for (const encoding of ENCODINGS) {
    it(`changes the given fields only (${encoding})`, async () => {
      const shop = await seedBusiness({ towncity: "Amsterdam", description: "old" });
      const { status, body } = await alter(
        {
          business_id: shop.id,
          name: "Renamed",
          address_1: "Kalverstraat 1",
          place_id: "place-123",
          description: "new description",
          email_address: "shop@example.com",
          fax_number: "020 765 4321",
          website_url: "https://example.com",
          socialnetwork_a_url: "https://a.example.com/x",
          socialnetwork_b_url: "https://b.example.com/x",
          socialnetwork_c_username: "shop_x",
          format: "express",
          review_url: `https://reviews.example.com/${"r".repeat(400)}`,
          is_shut_down: encoding === "json" ? true : "1",
          programme_opted_in: "false",
          latitude: "52.1",
          longitude: "5.1",
          owner_code: `ALT-new-${encoding}`,
        },
        encoding,
      );
      expect(status).toBe(200);
      const { business, result_type } = alterBusinessResponseSchema.parse(body).results;
      expect(result_type).toBe("alter-business");
      expect(business).toMatchObject({
        id: shop.id,
        name: "Renamed",
        address_1: "Kalverstraat 1",
        towncity: "Amsterdam",
        google_place_id: "place-123",
        business_format: "express",
        email_address: "shop@example.com",
        website_url: "https://example.com",
        latitude: "52.1",
        longitude: "5.1",
        owner_code: `ALT-new-${encoding}`,
        created_date: "2026-01-01T00:00:00Z",
        last_modified_date: "2026-11-21T12:30:00Z",
        type: "business",
      });
      for (const key of ["deleted", "deleted_by", "format", "is_shut_down", "phone_number", "programme_opted_in"]) expect(business).not.toHaveProperty(key);
      expect(await businessRow(core, shop.id)).toMatchObject({
        description: "new description",
        faxNumber: "020 765 4321",
        socialnetworkAUrl: "https://a.example.com/x",
        socialnetworkBUrl: "https://b.example.com/x",
        socialnetworkCUsername: "shop_x",
        isShutDown: true,
        programmeOptedIn: false,
        phoneNumber: "020 123 4567",
        lastUpdatedBy: admin.id,
      });
    });
  }

  it("an empty value clears a nullable field; an absent one leaves it", async () => {
    const shop = await seedBusiness({ towncity: "Amsterdam", region: "NH" });
    const { body } = await alter({ business_id: shop.id, towncity: "", postalcode: "" }, "form");
    expect(body.results.business).toMatchObject({ towncity: null, postalcode: null, region: "NH" });
    const json = await alter({ business_id: shop.id, region: null });
    expect(json.body.results.business.region).toBeNull();
  });

  it("accepts google_place_id for place_id; place_id wins when both come", async () => {
    const shop = await seedBusiness();
    expect((await alter({ business_id: shop.id, google_place_id: "g-1" })).body.results.business.google_place_id).toBe("g-1");
    expect((await alter({ business_id: shop.id, google_place_id: "g-2", place_id: "p-2" })).body.results.business.google_place_id).toBe("p-2");
  });

  it("checks a new postal code against the stored country, and a new country against the stored postal code", async () => {
    const shop = await seedBusiness();
    expect((await alter({ business_id: shop.id, postalcode: "1234AB" })).status).toBe(200);
    const wrong = await alter({ business_id: shop.id, countrycode: "DE" });
    expect(wrong.body.error).toMatchObject({ code: 278, name: "postalcode_invalid" });
    expect((await alter({ business_id: shop.id, countrycode: "DE", postalcode: "D-10115" })).status).toBe(200);
  });

  it("one coordinate may change alone while the other is stored", async () => {
    const shop = await seedBusiness();
    const { body } = await alter({ business_id: shop.id, latitude: -33.9 });
    expect(body.results.business).toMatchObject({ latitude: "-33.9", longitude: "4.89" });
  });

  it("an owner_code another live business of the chain uses is 311 and changes nothing", async () => {
    const a = await seedBusiness();
    const b = await seedBusiness();
    const { status, body } = await alter({ business_id: a.id, owner_code: b.ownerCode });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: 311, name: "business_already_exists" });
    expect((await businessRow(core, a.id))!.ownerCode).toBe(a.ownerCode);
  });
});

/** [what, params (merged over business_id of a fresh business), code, name, encoding] */
const CASES: Array<[string, Record<string, unknown>, number, string, Encoding?]> = [
  ["name empty", { name: "" }, 124, "business_name_invalid", "form"],
  ["name over 255", { name: "n".repeat(256) }, 124, "business_name_invalid"],
  ["description over 512", { description: "d".repeat(513) }, 125, "business_description_invalid"],
  ["address_1 over 255", { address_1: "a".repeat(256) }, 126, "business_address_1_invalid"],
  ["address_2 over 255", { address_2: "a".repeat(256) }, 127, "business_address_2_invalid"],
  ["address_3 over 255", { address_3: "a".repeat(256) }, 128, "business_address_3_invalid"],
  ["towncity over 255", { towncity: "t".repeat(256) }, 129, "business_towncity_invalid"],
  ["region over 255", { region: "r".repeat(256) }, 130, "business_region_invalid"],
  ["postalcode over 20", { postalcode: "1".repeat(21) }, 131, "business_postalcode_invalid"],
  ["countrycode of 3", { countrycode: "DEU" }, 132, "business_country_code_invalid"],
  ["latitude not a decimal", { latitude: "52°N" }, 133, "business_latitude_invalid", "multipart"],
  ["latitude out of range", { latitude: -91 }, 133, "business_latitude_invalid"],
  ["longitude not a decimal", { longitude: "east" }, 134, "business_longitude_invalid", "form"],
  ["longitude out of range", { longitude: 180.5 }, 134, "business_longitude_invalid"],
  ["email invalid", { email_address: "a@b" }, 135, "business_email_address_invalid"],
  ["phone invalid", { phone_number: "+31 12" }, 136, "business_phone_number_invalid"],
  ["fax over 56", { fax_number: "1".repeat(57) }, 137, "business_fax_number_invalid"],
  ["website invalid", { website_url: "example" }, 138, "business_website_url_invalid"],
  ["social A invalid", { socialnetwork_a_url: "not a url" }, 139, "business_socialnetwork_a_url_invalid"],
  ["social C username with a space", { socialnetwork_c_username: "my shop" }, 140, "business_socialnetwork_c_username_invalid"],
  ["social B invalid", { socialnetwork_b_url: "mailto:x@example.com" }, 141, "business_socialnetwork_b_url_invalid"],
  ["owner_code over 64", { owner_code: "o".repeat(65) }, 143, "business_owner_code_invalid"],
  ["NL postal code in DE form", { postalcode: "10115" }, 278, "postalcode_invalid"],
  ["is_shut_down not a boolean", { is_shut_down: "closed" }, 316, "parameter_supplied_not_boolean", "form"],
  ["programme_opted_in not a boolean", { programme_opted_in: "y" }, 316, "parameter_supplied_not_boolean"],
  ["opening_times of the wrong shape", { opening_times: "[1,2]" }, 419, "parameter_invalid"],
  ["countrycode not ISO", { countrycode: "ZZ" }, 420, "country_code_invalid"],
  ["review_url over 512", { review_url: "r".repeat(513) }, 482, "string_parameter_too_long"],
  ["place_id over 1024", { place_id: "p".repeat(1025) }, 482, "string_parameter_too_long"],
  ["google_place_id alias over 1024 beside a valid place_id", { place_id: "p", google_place_id: "g".repeat(1025) }, 482, "string_parameter_too_long"],
  ["image_url over 512", { image_url: "i".repeat(513) }, 482, "string_parameter_too_long"],
  ["format over 64", { format: "f".repeat(65) }, 482, "string_parameter_too_long"],
  ["opening_times over 2048", { opening_times: "o".repeat(2049) }, 482, "string_parameter_too_long"],
];

describe("alter-business: errors (the business is unchanged)", () => {
  for (const [what, params, code, name, encoding = "json"] of CASES) {
    it(`${what}: ${code} ${name}`, async () => {
      const shop = await seedBusiness();
      const { status, body } = await alter({ business_id: shop.id, address_2: "changed?", ...params }, encoding);
      expect(body.error).toMatchObject({ code, name });
      expect(status).toBe(400);
      expect(await businessRow(core, shop.id)).toEqual(shop);
    });
  }

  it("business_id missing is 3 http_vars_missing; not an integer is 15 business_id_invalid", async () => {
    const missing = await alter({ name: "x" });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 3, name: "http_vars_missing" });
    const invalid = await alter({ business_id: "12a" }, "form");
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toMatchObject({ code: 15, name: "business_id_invalid" });
  });

  it("a lone coordinate for a business without coordinates is 98 lat_long_both_required", async () => {
    const unlocated = await seedBusiness({ latitude: null, longitude: null });
    const { status, body } = await alter({ business_id: unlocated.id, latitude: 10 });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: 98, name: "lat_long_both_required" });
    expect(await businessRow(core, unlocated.id)).toEqual(unlocated);
  });

  it("an empty coordinate reads as absent (numbers are not cleared) and leaves the stored one", async () => {
    const shop = await seedBusiness();
    expect((await alter({ business_id: shop.id, latitude: "" }, "form")).body.results.business.latitude).toBe("52.37");
  });

  it("any method but PUT is 13 http_request_method_non_PUT_not_allowed (405)", async () => {
    const shop = await seedBusiness();
    for (const method of ["GET", "POST", "PATCH", "DELETE"]) {
      const init = method === "GET" ? { method, headers: admin.headers } : encode("json", method, admin.headers, { business_id: shop.id, name: "no" });
      const { status, body } = await core.json("/internal/alter-business", init);
      expect(status).toBe(405);
      expect(body.error).toMatchObject({ code: 13, name: "http_request_method_non_PUT_not_allowed" });
    }
    expect((await businessRow(core, shop.id))!.name).toBe(shop.name);
  });
});
