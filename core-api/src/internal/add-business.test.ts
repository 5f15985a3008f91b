import { addBusinessResponseSchema } from "@service/shared/internal/add-business";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestAdmin, type TestCore } from "../../../test/helpers/core.ts";
import { businessRow, countBusinesses, encode, ENCODINGS } from "../../../test/helpers/internal-calls.ts";

let core: TestCore;
let admin: TestAdmin;
beforeAll(async () => {
  core = await startCore({ clock: () => new Date("2026-11-21T10:00:00.000Z") });
  admin = await core.admin({ write: true });
});
afterAll(() => core.close());

const add = (params: Record<string, unknown>, encoding: (typeof ENCODINGS)[number] = "json", headers = admin.headers) =>
  core.json("/internal/add-business", encode(encoding, "POST", headers, { chain_id: core.chainId, ...params } as never));

const OPENING = {
  monday: { open: "08:00", close: "20:00" },
  sunday: { open: null, close: null },
  special_hours: [{ date: "2026-12-25", open: null, close: null, reason: "Christmas" }],
};

describe("add-business: creating", () => {
  for (const encoding of ENCODINGS) {
    it(`creates a business with every parameter (${encoding})`, async () => {
      const before = await countBusinesses(core);
      const { status, body } = await add(
        {
          name: `Jumbo Centrum ${encoding}`,
          owner_code: `JC-${encoding}`,
          address_1: "Damrak 1",
          address_2: "2nd floor",
          address_3: "Unit 4",
          towncity: "Amsterdam",
          region: "Noord-Holland",
          postalcode: "1012 LG",
          countrycode: "nl",
          format: "supermarket",
          google_place_id: "ChIJVXealLU_xkcRja_At0z9AGY",
          image_url: "https://img.example.com/jc.png",
          review_url: "https://reviews.example.com/jc",
          opening_times: JSON.stringify(OPENING),
          description: "Flagship store",
          email_address: "store@example.com",
          phone_number: "020 123 4567",
          fax_number: "+31 20 765 4321",
          website_url: "https://www.example.com/stores/jc",
          socialnetwork_a_url: "https://facebook.example.com/jc",
          socialnetwork_b_url: "https://instagram.example.com/jc",
          socialnetwork_c_username: "jumbo_centrum",
          latitude: "52.3791",
          longitude: 4.9003,
          is_shut_down: "false",
          programme_opted_in: encoding === "json" ? false : "0",
        },
        encoding,
      );
      expect(status).toBe(200);
      const { business, result_type } = addBusinessResponseSchema.parse(body).results;
      expect(result_type).toBe("add-business");
      expect(business).toEqual({
        address_1: "Damrak 1",
        address_2: "2nd floor",
        address_3: "Unit 4",
        business_format: "supermarket",
        chain_id: core.chainId,
        created_date: "2026-11-21T10:00:00Z",
        countrycode: "NL",
        deleted: false,
        deleted_by: null,
        email_address: "store@example.com",
        format: "supermarket",
        google_place_id: "ChIJVXealLU_xkcRja_At0z9AGY",
        id: business.id,
        image_url: "https://img.example.com/jc.png",
        is_shut_down: false,
        last_modified_date: "2026-11-21T10:00:00Z",
        latitude: "52.3791",
        longitude: "4.9003",
        name: `Jumbo Centrum ${encoding}`,
        opening_times: JSON.stringify(OPENING),
        owner_code: `JC-${encoding}`,
        phone_number: "020 123 4567",
        postalcode: "1012 LG",
        programme_opted_in: false,
        region: "Noord-Holland",
        towncity: "Amsterdam",
        review_url: "https://reviews.example.com/jc",
        type: "business",
        website_url: "https://www.example.com/stores/jc",
      });
      expect(await countBusinesses(core)).toBe(before + 1);
      const row = (await businessRow(core, business.id))!;
      expect(row).toMatchObject({
        chainId: core.chainId,
        description: "Flagship store",
        faxNumber: "+31 20 765 4321",
        socialnetworkAUrl: "https://facebook.example.com/jc",
        socialnetworkBUrl: "https://instagram.example.com/jc",
        socialnetworkCUsername: "jumbo_centrum",
        lastUpdatedBy: admin.id,
        latitude: 52.3791,
        longitude: 4.9003,
      });
      expect(row.geoCell).not.toBeNull();
    });
  }

  it("starts with the defaults: not shut down, opted in, everything else empty", async () => {
    const { status, body } = await add({ name: "Minimal" }, "form");
    expect(status).toBe(200);
    const { business } = addBusinessResponseSchema.parse(body).results;
    expect(business).toMatchObject({ is_shut_down: false, programme_opted_in: true, owner_code: null, latitude: null, longitude: null, opening_times: null });
  });

  it("takes opening_times as a JSON object in a JSON body and stores its text", async () => {
    const { body } = await add({ name: "Object hours", opening_times: OPENING });
    expect(body.results.business.opening_times).toBe(JSON.stringify(OPENING));
  });

  it("accepts the other NL, DE and BE postal code forms", async () => {
    for (const [countrycode, postalcode] of [["NL", "1012LG"], ["DE", "10115"], ["DE", "D-10115"], ["BE", "1000"], ["BE", "1000 BE"], ["FR", "75001"]]) {
      const { status, body } = await add({ name: `Postal ${postalcode}`, countrycode: countrycode!, postalcode: postalcode! });
      expect(status, `${countrycode} ${postalcode}: ${JSON.stringify(body.error)}`).toBe(200);
    }
  });

  it("renders tiny and negative coordinates as plain decimal text", async () => {
    const { body } = await add({ name: "Tiny", latitude: 0.0000001, longitude: -179.5 });
    expect(body.results.business).toMatchObject({ latitude: "0.0000001", longitude: "-179.5" });
  });

  it("formats datetimes as YYYY-MM-DD HH:MM:SS before API version 1.6.8", async () => {
    const { body } = await add({ name: "Old client" }, "json", { ...admin.headers, "X-Service-API-version": "1.6.1" });
    expect(body.results.business.created_date).toBe("2026-11-21 10:00:00");
  });

  it("ignores unknown parameters and answers on the .json path too", async () => {
    const { status, body } = await core.json(
      "/internal/add-business.json",
      encode("json", "POST", admin.headers, { chain_id: core.chainId, name: "Dotted", colour: "blue" }),
    );
    expect(status).toBe(200);
    expect(body.results.business.name).toBe("Dotted");
  });
});

describe("add-business: update_if_exists", () => {
  it("updates the business named by owner_code instead of creating one", async () => {
    const first = addBusinessResponseSchema.parse((await add({ name: "Store A", owner_code: "UPD-1", towncity: "Utrecht" })).body).results.business;
    const before = await countBusinesses(core);
    const { status, body } = await add({ name: "Store A renamed", owner_code: "UPD-1", update_if_exists: "true", region: "Utrecht" }, "form");
    expect(status).toBe(200);
    const updated = addBusinessResponseSchema.parse(body).results.business;
    expect(updated).toMatchObject({ id: first.id, name: "Store A renamed", towncity: "Utrecht", region: "Utrecht" });
    expect(await countBusinesses(core)).toBe(before);
    expect((await businessRow(core, first.id))!.name).toBe("Store A renamed");
  });

  it("updates the business named by business_id, also changing its owner_code", async () => {
    const first = (await add({ name: "Store B", owner_code: "UPD-2" })).body.results.business;
    const before = await countBusinesses(core);
    const { body } = await add({ name: "Store B2", business_id: first.id, owner_code: "UPD-2b", update_if_exists: true }, "multipart");
    expect(body.results.business).toMatchObject({ id: first.id, name: "Store B2", owner_code: "UPD-2b" });
    expect(await countBusinesses(core)).toBe(before);
  });

  it("creates a business when neither business_id nor owner_code names one of the chain", async () => {
    const otherChain = await core.createChain();
    const otherAdmin = await core.admin({ write: true }, otherChain);
    const foreign = (await core.json("/internal/add-business", encode("json", "POST", otherAdmin.headers, { chain_id: otherChain, name: "Foreign", owner_code: "F-1" }))).body.results.business;
    const before = await countBusinesses(core);
    const { body } = await add({ name: "New one", business_id: foreign.id, owner_code: "F-1", update_if_exists: true });
    expect(body.results.business.id).not.toBe(foreign.id);
    expect(body.results.business.chain_id).toBe(core.chainId);
    expect(await countBusinesses(core)).toBe(before + 1);
    expect((await businessRow(core, foreign.id))!.name).toBe("Foreign");
  });

  it("without update_if_exists a used owner_code is business_already_exists (311) and nothing is written", async () => {
    await add({ name: "Store C", owner_code: "DUP-1" });
    const before = await countBusinesses(core);
    const { status, body } = await add({ name: "Store C again", owner_code: "DUP-1", update_if_exists: "no" });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: 311, name: "business_already_exists" });
    expect(await countBusinesses(core)).toBe(before);
  });

  it("an update to an owner_code another business uses is 311 and changes nothing", async () => {
    const a = (await add({ name: "Store D", owner_code: "DUP-2" })).body.results.business;
    await add({ name: "Store E", owner_code: "DUP-3" });
    const { status, body } = await add({ name: "Store D changed", business_id: a.id, owner_code: "DUP-3", update_if_exists: true });
    expect(status).toBe(400);
    expect(body.error.code).toBe(311);
    expect((await businessRow(core, a.id))!).toMatchObject({ name: "Store D", ownerCode: "DUP-2" });
  });

  it("the same owner_code may be used in another chain", async () => {
    const otherChain = await core.createChain();
    const otherAdmin = await core.admin({ write: true }, otherChain);
    await add({ name: "Here", owner_code: "SHARED-1" });
    const { status } = await core.json("/internal/add-business", encode("json", "POST", otherAdmin.headers, { chain_id: otherChain, name: "There", owner_code: "SHARED-1" }));
    expect(status).toBe(200);
  });
});
