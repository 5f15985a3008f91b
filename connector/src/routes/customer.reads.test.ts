/**
 * The three user info reads over HTTP against a real database (spec, "Webshop connector
 * endpoints"; not-found and chain errors from "Errors").
 */
import { userInfoObjectSchema } from "@service/shared/connector";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addWebsite, setConfig, startHarness, type Harness } from "../test-support/harness.ts";

const BASE = "/rest/V1/service/customer";
let h: Harness;
let annId: number;

beforeAll(async () => {
  h = await startHarness("webshop_reads");
  const res = await h.call("POST", `${BASE}/update`, {
    user_info: {
      user_id: 5, username: "ann@example.com", first_name: "Ann", last_name: "Lee", birthday: "1991-12-31", gender: "nonbinary",
      address_streetname: "Kade", address_housenumber: "1", address_postalcode: "1011 AA", address_towncity: "Amsterdam",
      country_code: "NL", phone_number: "+31201234567",
      mailing_list: { mailing_list_sub_offered: true, mailing_list_subscribed: true, printed_mailing_list_subscribed: true },
      opt_in_programme: { programme_opted_in: true },
    },
    create_if_not_exists: true,
  });
  annId = res.body.id;
});
afterAll(async () => {
  await h?.close();
});

const expectedAnn = () => ({
  first_name: "Ann", last_name: "Lee", birthday: "1991-12-31", username: "ann@example.com", webshop_customer_id: annId,
  gender: "other", printed_mailing_list_subscribed: true, mailing_list_subscribed: true, mailing_list_sub_offered: true,
  programme_opted_in: true, address_streetname: "Kade", address_housenumber: "1", address_housenumber_extension: null,
  address_postalcode: "1011 AA", address_towncity: "Amsterdam", country_code: "NL", phone_number: "+31201234567",
});

describe("user info reads, one chain and one website", () => {
  it("reads by id with exactly the spec's keys", async () => {
    const res = await h.call("GET", `${BASE}/user_info/${annId}`);
    expect(res.status).toBe(200);
    expect(userInfoObjectSchema.parse(res.body)).toEqual(res.body);
    expect(res.body).toEqual(expectedAnn());
  });

  it("reads by email, with and without chain id", async () => {
    expect(await h.call("GET", `${BASE}/user_info_by_email/ann%40example.com`)).toEqual({ status: 200, body: expectedAnn() });
    expect(await h.call("GET", `${BASE}/user_info_by_email/1/ann@example.com`)).toEqual({ status: 200, body: expectedAnn() });
  });

  it("reflects a subscription changed in the shop", async () => {
    await h.exec("UPDATE newsletter_subscriber SET subscriber_status = 3 WHERE customer_id = ?", [annId]);
    expect((await h.call("GET", `${BASE}/user_info/${annId}`)).body.mailing_list_subscribed).toBe(false);
    await h.exec("UPDATE newsletter_subscriber SET subscriber_status = 1 WHERE customer_id = ?", [annId]);
  });

  it("404 in Magento's shape for unknown customers", async () => {
    expect(await h.call("GET", `${BASE}/user_info/987654`)).toEqual({
      status: 404, body: { message: "No such entity with %fieldName = %fieldValue", parameters: { fieldName: "customerId", fieldValue: 987654 } },
    });
    expect(await h.call("GET", `${BASE}/user_info_by_email/nobody@example.com`)).toEqual({
      status: 404, body: { message: "No such entity with %fieldName = %fieldValue", parameters: { fieldName: "email", fieldValue: "nobody@example.com" } },
    });
    expect((await h.call("GET", `${BASE}/user_info_by_email/1/nobody@example.com`)).status).toBe(404);
  });

  it("400 for a malformed id and an unconfigured chain", async () => {
    const bad = await h.call("GET", `${BASE}/user_info/abc`);
    expect(bad.status).toBe(400);
    expect(bad.body.parameters.fieldName).toBe("customerId");
    expect(await h.call("GET", `${BASE}/user_info_by_email/3/ann@example.com`)).toEqual({
      status: 400, body: { message: "Service chain %chainId is not configured in this shop.", parameters: { chainId: 3 } },
    });
  });
});

// Each test takes away the website (and setting) it adds: the reads above need one website and one chain.
describe("user info reads, several websites and chains", () => {
  /** Takes away a website addWebsite added, with its store views, group and chain. */
  const removeWebsite = async (websiteId: number) => {
    for (const table of ["service_chain_website", "store", "store_group", "store_website"]) {
      await h.exec(`DELETE FROM ${table} WHERE website_id = ?`, [websiteId]);
    }
  };

  it("per-website accounts with several websites: 400 by email without chain id, fine with it", async () => {
    const extra = await addWebsite(h, "extra"); // not serving any chain yet
    try {
      const res = await h.call("GET", `${BASE}/user_info_by_email/ann@example.com`);
      expect(res.status).toBe(400);
      expect(res.body.parameters).toEqual({ fieldName: "service_chain_id" });
      expect((await h.call("GET", `${BASE}/user_info_by_email/1/ann@example.com`)).status).toBe(200);
      // with global account sharing the email is unambiguous again
      await setConfig(h, "customer/account_share/scope", "0");
      expect((await h.call("GET", `${BASE}/user_info_by_email/ann@example.com`)).status).toBe(200);
    } finally {
      await h.exec("DELETE FROM core_config_data WHERE path = 'customer/account_share/scope'"); // Magento's default again: per website
      await removeWebsite(extra.websiteId);
    }
  });

  it("several chains: the chain id is required by email, the chain scopes the lookup, ids need none", async () => {
    const chain2 = await addWebsite(h, "chain2site", 2);
    try {
      const missing = await h.call("GET", `${BASE}/user_info_by_email/ann@example.com`);
      expect(missing).toEqual({ status: 400, body: { message: '"%fieldName" is required. Enter and try again.', parameters: { fieldName: "service_chain_id" } } });
      expect((await h.call("GET", `${BASE}/user_info_by_email/1/ann@example.com`)).body).toEqual(expectedAnn());
      expect((await h.call("GET", `${BASE}/user_info_by_email/2/ann@example.com`)).status).toBe(404);
      expect((await h.call("GET", `${BASE}/user_info/${annId}`)).status).toBe(200);
    } finally {
      await removeWebsite(chain2.websiteId);
    }
  });
});
