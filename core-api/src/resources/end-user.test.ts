/**
 * End-user (shopper) availability per resource and method (spec, "Authentication": availability
 * table; "Resource-specific behaviour"): GET only on Business, Content page and own Vouchers, with
 * the end-user omissions; every write and every other resource 544, refused before the body is
 * read; the chain is the app's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedClient } from "../clients/client-test-support.ts";
import { insertContentPage } from "../content-pages/content-page-repository.ts";
import { insertBusiness } from "../businesses/business-repository.ts";
import { seedCampaign, seedUser, seedVoucher } from "../vouchers/voucher-test-support.ts";
import { startTwoChains, type TwoChains } from "../auth/two-chains.test-support.ts";
import { CHANGE_LOG_RESOURCE, RESOURCE_ACCESS } from "../auth/access-table.ts";
import { ADAPTERS } from "./resource-routes.ts";
import { rendererCompilations } from "./render.ts";

let w: TwoChains;
const ids = { business: 0, page: 0, generated: 0, claimed: 0, redeemed: 0, othersVoucher: 0, othersKey: "", othersUser: 0, client: 0 };
beforeAll(async () => {
  w = await startTwoChains();
  const db = w.core.db;
  ids.business = (await insertBusiness(db, { chainId: w.chainA, name: "A Store", ownerCode: "A-1" }, w.now)).id;
  const page = { displayName: null, order: 0, parentName: null, zones: null, lastUpdatedBy: null };
  ids.page = (await insertContentPage(db, w.chainA, { ...page, name: "a-page" }, w.now)).id;
  const campaignId = await seedCampaign(db, w.chainA);
  const mine = { chainId: w.chainA, campaignId, userId: w.shopperAId };
  ids.generated = (await seedVoucher(db, mine, w.now)).id;
  ids.claimed = (await seedVoucher(db, { ...mine, status: "claimed" }, w.now)).id;
  ids.redeemed = (await seedVoucher(db, { ...mine, status: "redeemed" }, w.now)).id;
  ids.othersUser = await seedUser(db, w.chainA);
  const other = await seedVoucher(db, { ...mine, userId: ids.othersUser }, w.now);
  ids.othersVoucher = other.id;
  ids.othersKey = other.key;
  ids.client = (await seedClient(db, w.chainA, w.now)).id;
}, 60_000);
afterAll(() => w.core.close());

const get = (path: string, extra: Record<string, string> = {}) => w.core.json(path, { headers: { ...w.shopperA, ...extra } });
const code = (res: { status: number; body: any }) => [res.status, res.body?.error?.code ?? res.body?.result?.code];

describe("the access table", () => {
  it("has a row for every resource served and for the change log", () => {
    const rows = RESOURCE_ACCESS as Record<string, unknown>;
    for (const a of ADAPTERS) expect(rows[a.declaration.name], a.declaration.name).toBeDefined();
    expect(Object.keys(rows).sort()).toEqual([...ADAPTERS.map((a) => a.declaration.name), CHANGE_LOG_RESOURCE].sort());
    expect(RESOURCE_ACCESS[CHANGE_LOG_RESOURCE].get!.callers).not.toContain("end_user");
  });
});

describe("reads open to end-users", () => {
  it("businesses of the app's chain without the omitted properties", async () => {
    const list = await get("/resources/businesses");
    expect(code(list)).toEqual([200, 1]);
    expect(list.body.results.resources.map((r: any) => r.id)).toEqual([ids.business]);
    const one = await get(`/resources/business/${ids.business}`, { "X-Service-Response-Recursion-Level": "4" });
    expect(one.body.results.name).toBe("A Store");
    for (const p of ["chain_member", "created_date", "deleted", "deleted_by", "last_modified_date", "last_updated_by"]) {
      expect(one.body.results, p).not.toHaveProperty(p);
    }
  });

  it("content pages without `deleted`", async () => {
    const one = await get(`/resources/content-page/${ids.page}`, { "X-Service-Response-Recursion-Level": "4" });
    expect(code(one)).toEqual([200, 1]);
    expect(one.body.results).not.toHaveProperty("deleted");
    expect((await get("/resources/content-pages")).body.results.total_count).toBe(1);
  });

  it("an explicit X-Service-Chain-ID of the app's chain is accepted", async () => {
    expect(code(await get("/resources/businesses", { "X-Service-Chain-ID": String(w.chainA) }))).toEqual([200, 1]);
  });
});

describe("vouchers: own only", () => {
  const listIds = async (query = "") => (await get(`/resources/vouchers${query}`)).body.results.resources.map((v: any) => v.id).sort();

  it("the list shows own generated and claimed vouchers unless filtered by status", async () => {
    expect(await listIds()).toEqual([ids.generated, ids.claimed].sort());
    expect(await listIds("?status=redeemed")).toEqual([ids.redeemed]);
  });

  it("a repeated list generates no renderer: the shopper's omissions are cached with the level", async () => {
    expect(await listIds()).toHaveLength(2);
    const compiled = rendererCompilations();
    expect(await listIds()).toEqual([ids.generated, ids.claimed].sort());
    expect(rendererCompilations()).toBe(compiled);
  });

  it("single retrieval is not restricted by status, and omits the end-user properties", async () => {
    const one = await get(`/resources/voucher/${ids.redeemed}`, { "X-Service-Response-Recursion-Level": "4" });
    expect(code(one)).toEqual([200, 1]);
    for (const p of ["creating_user", "db_redeemed_date", "deleted", "user"]) expect(one.body.results, p).not.toHaveProperty(p);
  });

  it("another user's voucher by id or key is 544, as a missing one", async () => {
    const byId = await w.core.request(`/resources/voucher/${ids.othersVoucher}`, { headers: w.shopperA });
    const missing = await w.core.request(`/resources/voucher/99999999`, { headers: w.shopperA });
    expect([byId.status, await byId.text()]).toEqual([missing.status, await missing.text()]);
    expect(code(await get(`/resources/voucher?key=${ids.othersKey}`))).toEqual([404, 544]);
    // filtering by the other user shows nothing: the own-vouchers rule comes on top of any filter
    expect(await listIds(`?user=${ids.othersUser}`)).toEqual([]);
  });
});

describe("refused to end-users: 544 before the body is read", () => {
  // A body that every write would reject as 419: a 544 proves the refusal came first.
  const BAD_BODY = JSON.stringify({ no_such_property: true });
  const writes: Array<[string, string]> = [
    ["POST", "/resources/business"],
    ["PUT", "/resources/business/ID_BUSINESS"],
    ["PATCH", "/resources/business/ID_BUSINESS"],
    ["DELETE", "/resources/business/ID_BUSINESS"],
    ["POST", "/resources/voucher"],
    ["PATCH", "/resources/voucher/ID_VOUCHER"],
    ["DELETE", "/resources/voucher/ID_VOUCHER"],
    ["POST", "/resources/content-page"],
    ["PATCH", "/resources/content-page/ID_PAGE"],
    ["DELETE", "/resources/content-page/ID_PAGE"],
    ["GET", "/resources/allowed_ip_ranges"],
    ["POST", "/resources/allowed_ip_range"],
    ["GET", "/resources/chain"],
    ["PATCH", "/resources/chain"],
    ["GET", "/resources/access_tokens"],
    ["POST", "/resources/access_token"],
    ["GET", "/resources/service_clients"],
    ["GET", "/resources/service_client/ID_CLIENT"],
    ["GET", "/resources/campaign/1/change_log"],
  ];
  it.each(writes)("%s %s", async (method, template) => {
    const path = template
      .replace("ID_BUSINESS", String(ids.business))
      .replace("ID_VOUCHER", String(ids.generated))
      .replace("ID_PAGE", String(ids.page))
      .replace("ID_CLIENT", String(ids.client));
    const res = await w.core.json(path, { method, headers: { ...w.shopperA, "content-type": "application/json" }, ...(method === "GET" ? {} : { body: BAD_BODY }) });
    expect(code(res)).toEqual([404, 544]);
  });

  it("nothing was written", async () => {
    expect((await get(`/resources/business/${ids.business}`)).body.results.name).toBe("A Store");
    expect(code(await get(`/resources/voucher/${ids.generated}`))).toEqual([200, 1]);
  });

  it("a read_businesses token is refused writes the same way", async () => {
    const res = await w.core.json("/resources/business", {
      method: "POST",
      headers: { ...w.readBusinessesA, "X-Service-Chain-ID": String(w.chainA), "content-type": "application/json" },
      body: BAD_BODY,
    });
    expect(code(res)).toEqual([404, 544]);
  });
});
