/**
 * Magento's store-code paths (`/rest/default/V1/...`, `/rest/all/V1/...`, `/rest/<store
 * code>/V1/...`) over HTTP against a real database: the code sets the store scope, an unknown
 * code is Magento's 404; and every JSON answer ends with a newline.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNKNOWN_STORE_MESSAGE } from "../http/store-code.ts";
import { addWebsite, snapshot, startHarness, TEST_TOKEN, type Harness } from "../test-support/harness.ts";

let h: Harness;
let second: { websiteId: number; storeId: number };
let other: { websiteId: number; storeId: number };
let baseWebsiteId: number;
/** a customer of the second website, for the tests that read one there (or fail to from elsewhere) */
const SEEN_IN_SECOND = "seen-in-second@example.com";

beforeAll(async () => {
  h = await startHarness("webshop_store_code");
  second = await addWebsite(h, "second", 1); // also serves chain 1
  other = await addWebsite(h, "other"); // serves no chain
  [{ website_id: baseWebsiteId }] = await h.rows("store_website", "code = 'base'");
  expect((await create("second_store", SEEN_IN_SECOND)).status).toBe(200);
});
afterAll(async () => {
  await h?.close();
});

const path = (store: string | null, rest: string) => `/rest/${store === null ? "" : `${store}/`}V1/service/customer${rest}`;
const create = (store: string | null, email: string, extra: Record<string, unknown> = {}) =>
  h.call("POST", path(store, "/update"), {
    user_info: { username: email, first_name: "Store", last_name: "Code", password: "Secret-pass-1" }, create_if_not_exists: true, ...extra,
  });

describe("a store code in the path", () => {
  it("creates a new customer in that store and its website", async () => {
    const res = await create("second_store", "in-second@example.com");
    expect(res.status).toBe(200);
    expect([res.body.website_id, res.body.store_id]).toEqual([second.websiteId, second.storeId]);
    const [row] = await h.rows("customer_entity", `entity_id = ${res.body.id}`);
    expect(row.created_in).toBe("second store view");
  });

  it("default is the default store view's code: the main website, as without a code", async () => {
    const coded = await create("default", "in-default@example.com");
    const plain = await create(null, "no-code@example.com");
    expect([coded.status, coded.body.website_id, coded.body.store_id]).toEqual([200, plain.body.website_id, plain.body.store_id]);
    expect(coded.body.website_id).toBe(baseWebsiteId);
  });

  it("leaves the request's own website_code / store_code in charge", async () => {
    const res = await create("second_store", "own-choice@example.com", { store_code: "default" });
    expect([res.status, res.body.website_id]).toEqual([200, baseWebsiteId]);
  });

  it("all: every store, as without a code (writes and reads)", async () => {
    const made = await create("all", "in-all@example.com");
    expect([made.status, made.body.website_id]).toEqual([200, baseWebsiteId]);
    const read = await h.call("GET", path("all", `/user_info/${made.body.id}`));
    expect([read.status, read.body.username]).toEqual([200, "in-all@example.com"]);
    const auth = await h.call("POST", path("all", "/authenticate"), { email: "in-all@example.com", password: "Secret-pass-1" });
    expect([auth.body.authenticated, auth.body.customer_id]).toEqual([true, made.body.id]);
  });

  it("per-website accounts: the store's website decides which customer an email names", async () => {
    const inBase = await create("default", "twice@example.com");
    const inSecond = await h.call("POST", path("second_store", "/update"), {
      user_info: { username: "twice@example.com", first_name: "Second", last_name: "Site", password: "Other-pass-2" }, create_if_not_exists: true,
    });
    expect(inSecond.status).toBe(200);
    expect(inSecond.body.id).not.toBe(inBase.body.id);
    // Without a code a shop of several websites cannot tell them apart by email alone (400) ...
    expect((await h.call("GET", path(null, "/user_info_by_email/twice@example.com"))).status).toBe(400);
    // ... the store code names the website.
    const read = await h.call("GET", path("second_store", "/user_info_by_email/twice@example.com"));
    expect([read.status, read.body.webshop_customer_id, read.body.first_name]).toEqual([200, inSecond.body.id, "Second"]);
    const auth = await h.call("POST", path("second_store", "/authenticate"), { email: "twice@example.com", password: "Other-pass-2" });
    expect([auth.body.authenticated, auth.body.customer_id]).toEqual([true, inSecond.body.id]);
    const wrongSite = await h.call("POST", path("default", "/authenticate"), { email: "twice@example.com", password: "Other-pass-2" });
    expect(wrongSite.body.authenticated).toBe(false);
  });

  it("a store of a website outside the chain finds nobody and creates nobody", async () => {
    const before = await snapshot(h);
    expect((await h.call("GET", path("other_store", `/user_info_by_email/1/${SEEN_IN_SECOND}`))).status).toBe(404);
    const made = await create("other_store", "outside@example.com");
    expect(made).toEqual({ status: 400, body: { message: 'Website "%websiteCode" is not configured for service chain %chainId.', parameters: { websiteCode: "other", chainId: 1 } } });
    expect(await snapshot(h)).toEqual(before);
    expect(other.websiteId).not.toBe(second.websiteId);
  });

  it("an unknown store code: Magento's 404, nothing written; without a token 401 first", async () => {
    const before = await snapshot(h);
    for (const [method, rest] of [["POST", "/update"], ["POST", "/authenticate"], ["GET", "/user_info/1"], ["GET", "/user_info_by_email/a@example.com"]]) {
      const res = await h.call(method!, path("nosuchstore", rest!), method === "POST" ? { email: "a@example.com", password: "x" } : undefined);
      expect(res, `${method} ${rest}`).toEqual({ status: 404, body: { message: UNKNOWN_STORE_MESSAGE } });
    }
    expect(UNKNOWN_STORE_MESSAGE).toBe("The store that was requested wasn't found. Verify the store and try again.");
    expect((await h.call("GET", path("admin", "/user_info/1"))).status).toBe(404); // the admin store is no store view
    expect((await h.call("GET", path("nosuchstore", "/user_info/1"), undefined, { token: null })).status).toBe(401);
    expect(await snapshot(h)).toEqual(before);
  });
});

describe("the store code in the request log and metrics", () => {
  it("the route is the mount pattern, never the code a request sent", async () => {
    expect((await h.call("GET", path("second_store", `/user_info_by_email/1/${SEEN_IN_SECOND}`))).status).toBe(200);
    const metrics = await (await fetch(`${h.url}/metrics`)).text();
    expect(metrics).toContain('route="/rest/:storeCode/V1/service/customer/user_info_by_email/:serviceChainId/:customerEmail"');
    expect(metrics).not.toMatch(/route="[^"]*second_store/);
  });
});

describe("JSON answers end with a newline", () => {
  it.each([
    ["a read", "/rest/V1/service/customer/user_info_by_email/in-second@example.com?x=1", true],
    ["a Magento error", "/rest/V1/service/customer/user_info/987654", true],
    ["an unknown route", "/rest/V1/nothing", true],
    ["a refused token", "/rest/V1/service/customer/user_info/1", false],
  ])("%s, with a Content-Length that counts it", async (_what, url, withToken) => {
    const res = await fetch(h.url + url, { headers: withToken ? { authorization: `Bearer ${TEST_TOKEN}` } : {} });
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([bytes.at(-1), bytes.at(-2) === 0x0a]).toEqual([0x0a, false]);
    expect(Number(res.headers.get("content-length"))).toBe(bytes.length);
    expect(() => JSON.parse(bytes.toString("utf8"))).not.toThrow();
  });
});
