/**
 * A value of the wrong JSON type is refused with that parameter's own error and nothing is
 * written (add-business took `"latitude":[52.1]` as NULL, `"is_shut_down":["true"]` as false and
 * `owner_code: 1e309` as "Infinity"). Each case is a raw JSON body, so numbers such as 1e309 reach
 * the server as written.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestAdmin, type TestCore } from "../../../test/helpers/core.ts";
import { businessRow, countBusinesses } from "../../../test/helpers/internal-calls.ts";
import { insertBusiness } from "../businesses/business-repository.ts";
import { countRows } from "../campaigns/campaign-test-support.ts";
import { MAX_PARAM_DEPTH } from "../http/params.ts";

let core: TestCore;
let admin: TestAdmin;
beforeAll(async () => {
  core = await startCore();
  admin = await core.admin({ write: true, read: true });
});
afterAll(() => core.close());

const send = (method: string, path: string, body: string, headers = admin.headers) =>
  core.json(path, { method, headers: { ...headers, "content-type": "application/json" }, body });

/** `{"a":{"a":...{"a":1}}}` nested `levels` deep (the top-level object is level 1). */
const deepObject = (levels: number) => `${'{"a":'.repeat(levels - 1)}1${"}".repeat(levels - 1)}`;

/** [what, the parameters after `{"chain_id":<id>,"name":"Valid",` as raw JSON, code, name] */
const ADD_BUSINESS: Array<[string, string, number, string]> = [
  ["an array for a number", '"latitude":[52.1],"longitude":4.9', 133, "business_latitude_invalid"],
  ["an object for a number", '"latitude":52.1,"longitude":{"deg":4}', 134, "business_longitude_invalid"],
  ["a boolean for a number", '"latitude":true,"longitude":4.9', 133, "business_latitude_invalid"],
  ["1e309 for a number", '"latitude":1e309,"longitude":4.9', 133, "business_latitude_invalid"],
  ["1e309 as text for a number", '"latitude":"1e309","longitude":4.9', 133, "business_latitude_invalid"],
  ["an array for a boolean", '"is_shut_down":["true"]', 316, "parameter_supplied_not_boolean"],
  ["a number for a boolean", '"programme_opted_in":1', 316, "parameter_supplied_not_boolean"],
  ["an object for a boolean", '"update_if_exists":{}', 316, "parameter_supplied_not_boolean"],
  ["an object for a text", '"owner_code":{"code":"A-1"}', 143, "business_owner_code_invalid"],
  ["1e309 for a text", '"owner_code":1e309', 143, "business_owner_code_invalid"],
  ["a number for a text", '"towncity":12', 129, "business_towncity_invalid"],
  ["a boolean for a text without its own error", '"format":true', 419, "parameter_invalid"],
  ["an array for a text", '"countrycode":["NL"]', 132, "business_country_code_invalid"],
  ["an array for opening_times", '"opening_times":[1,2]', 419, "parameter_invalid"],
  ["an array for an integer", '"update_if_exists":true,"business_id":[1]', 15, "business_id_invalid"],
  [`JSON nested ${MAX_PARAM_DEPTH + 1} levels`, `"opening_times":${deepObject(MAX_PARAM_DEPTH)}`, 419, "parameter_invalid"],
  ["JSON nested 8,000 levels", `"opening_times":${deepObject(8_000)}`, 419, "parameter_invalid"],
];

describe("add-business: a value of the wrong JSON type gets the parameter's error; nothing is written", () => {
  it("has its cases", () => expect(ADD_BUSINESS).toHaveLength(17));
  for (const [what, rest, code, name] of ADD_BUSINESS) {
    it(`${what}: ${code} ${name}`, async () => {
      const before = await countBusinesses(core);
      const { status, body } = await send("POST", "/internal/add-business", `{"chain_id":${core.chainId},"name":"Valid",${rest}}`);
      expect(body.error).toMatchObject({ code, name });
      expect(status).toBe(400);
      expect(await countBusinesses(core)).toBe(before);
    });
  }

  it("chain_id of the wrong type is 76 before the access check", async () => {
    for (const chain of ["[1]", "true", "1e309", `"${core.chainId}.0"`]) {
      const { body } = await send("POST", "/internal/add-business", `{"chain_id":${chain},"name":"Valid"}`);
      expect(body.error, chain).toMatchObject({ code: 76, name: "chain_id_invalid" });
    }
  });
});

describe("alter-business: the business is unchanged", () => {
  it.each([
    ['"latitude":[52.1]', 133, "business_latitude_invalid"],
    ['"is_shut_down":["true"]', 316, "parameter_supplied_not_boolean"],
    ['"name":{"text":"x"}', 124, "business_name_invalid"],
    ['"owner_code":1e309', 143, "business_owner_code_invalid"],
    ['"place_id":"p","google_place_id":[1]', 419, "parameter_invalid"],
  ])("%s: %i %s", async (rest, code, name) => {
    const shop = await insertBusiness(core.db, { chainId: core.chainId, name: "Kept", latitude: 52, longitude: 4 }, new Date("2026-01-01T00:00:00Z"));
    const { status, body } = await send("PUT", "/internal/alter-business", `{"business_id":${shop.id},"address_1":"changed?",${rest}}`);
    expect(body.error).toMatchObject({ code, name });
    expect(status).toBe(400);
    expect(await businessRow(core, shop.id)).toEqual(shop);
  });
});

describe("add-campaign and login", () => {
  it.each([
    ['"is_active":[true]', 316, "parameter_supplied_not_boolean"],
    ['"title":["Spring"]', 419, "parameter_invalid"],
    ['"title":"T","active_date_from":{"at":"2026-01-01 00:00:00"}', 419, "parameter_invalid"],
    ['"title":"T","active_date_until":20260101', 419, "parameter_invalid"],
    [`"title":"T","is_active":${deepObject(8_000)}`, 419, "parameter_invalid"],
  ])("add-campaign %s: %i %s, nothing written", async (rest, code, name) => {
    const before = await countRows(core);
    const body = rest.startsWith('"title"') ? `{"chain_id":${core.chainId},${rest}}` : `{"chain_id":${core.chainId},"title":"T",${rest}}`;
    const res = await send("POST", "/internal/add-campaign", body);
    expect(res.body.error).toMatchObject({ code, name });
    expect(res.status).toBe(400);
    expect(await countRows(core)).toEqual(before);
  });

  it.each([
    ['{"username":["admin"],"password":"x"}', 419, "parameter_invalid"],
    ['{"username":"admin","password":12345}', 419, "parameter_invalid"],
    ['{"username":"admin","password":null}', 441, "parameter_missing"],
  ])("login %s: %i %s", async (body, code, name) => {
    const res = await send("POST", "/auth/login", body, {});
    expect(res.body.error).toMatchObject({ code, name });
  });
});
