import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentPages } from "../db/schema.ts";
import { errorOf, startResourcesWorld, type ResourcesWorld } from "./resources-test-support.ts";

let w: ResourcesWorld;
const ids: Record<string, number> = {};

/** Seeds a page row directly (list tests do not depend on POST). */
async function seedPage(name: string, values: Partial<typeof contentPages.$inferInsert> = {}, chainId?: number): Promise<number> {
  const now = w.now();
  const [res] = await w.core.db
    .insert(contentPages)
    .values({ chainId: chainId ?? w.core.chainId, name, createdDate: now, lastModifiedDate: now, ...values });
  return Number(res.insertId);
}

beforeAll(async () => {
  w = await startResourcesWorld();
  w.setNow("2026-01-01T03:00:00Z");
  ids.home = await seedPage("Home", {
    displayName: "Welcome",
    order: 2,
    zones: JSON.stringify([{ title: "Top", show_title: true, mode: null, tag_filter: [], type_filter: [], layout_type: "grid", orientation: null, items: [{ type: "campaign", id: 7 }] }]),
  });
  w.setNow("2026-01-01T01:00:00Z");
  ids.offers = await seedPage("Offers", { parentId: ids.home, order: 1 });
  w.setNow("2026-01-01T02:00:00Z");
  ids.about = await seedPage("About", { order: 3 });
  ids.gone = await seedPage("Gone", { deleted: true });
  const other = await w.core.createChain("Elsewhere");
  ids.foreign = await seedPage("Foreign", {}, other);
});
afterAll(() => w.core.close());

const level = (n: number) => ({ "X-Service-Response-Recursion-Level": String(n) });
const names = (res: { body: any }) => res.body.results.resources.map((r: { name: string }) => r.name);

describe("GET /resources/content-page", () => {
  it("gets one by id at the default level 2 with every property, parent by name and zones parsed", async () => {
    const { status, body } = await w.call("GET", `/resources/content-page/${ids.offers}`);
    expect(status).toBe(200);
    expect(body.results).toEqual({
      deleted: false,
      display_name: null,
      id: ids.offers,
      last_modified_date: "2026-01-01T01:00:00Z",
      name: "Offers",
      order: 1,
      parent: "Home",
      zones: null,
    });
    const home = await w.call("GET", `/resources/content-page/${ids.home}`);
    expect(home.body.results).toMatchObject({ display_name: "Welcome", parent: null, order: 2 });
    expect(home.body.results.zones).toEqual([
      { title: "Top", show_title: true, mode: null, tag_filter: [], type_filter: [], layout_type: "grid", orientation: null, items: [{ type: "campaign", id: 7 }] },
    ]);
  });

  it("gets one by ?name= and by ?id=", async () => {
    for (const q of ["name=Offers", `id=${ids.offers}`]) {
      const { status, body } = await w.call("GET", `/resources/content-page?${q}`);
      expect(status).toBe(200);
      expect(body.results.id).toBe(ids.offers);
    }
  });

  it("renders level 0 without deleted and zones (level 1)", async () => {
    const l0 = (await w.call("GET", `/resources/content-page/${ids.home}`, undefined, level(0))).body.results;
    expect(Object.keys(l0).sort()).toEqual(["display_name", "id", "last_modified_date", "name", "order", "parent"]);
    const l1 = (await w.call("GET", `/resources/content-page/${ids.home}`, undefined, level(1))).body.results;
    expect(Object.keys(l1).sort()).toEqual(["deleted", "display_name", "id", "last_modified_date", "name", "order", "parent", "zones"]);
  });

  it("formats last_modified_date per X-Service-API-version", async () => {
    const old = await w.call("GET", `/resources/content-page/${ids.offers}`, undefined, { "X-Service-API-version": "1.6.1" });
    expect(old.body.results.last_modified_date).toBe("2026-01-01 01:00:00");
  });

  it("answers 544 for an unknown id or name, a deleted page and another chain's page", async () => {
    for (const path of [
      "/resources/content-page/999999",
      "/resources/content-page?name=Nothing",
      `/resources/content-page/${ids.gone}`,
      "/resources/content-page?name=Gone",
      `/resources/content-page/${ids.foreign}`,
      "/resources/content-page?name=Foreign",
      "/resources/content-page/abc",
    ]) {
      expect({ path, ...errorOf(await w.call("GET", path)) }).toEqual({ path, status: 404, code: 544, name: "resource_not_found" });
    }
  });

  it("refuses identifiers that are not I properties and missing identifiers", async () => {
    expect(errorOf(await w.call("GET", "/resources/content-page"))).toEqual({ status: 400, code: 441, name: "parameter_missing" });
    expect(errorOf(await w.call("GET", "/resources/content-page?parent=Home"))).toEqual({ status: 400, code: 419, name: "parameter_invalid" });
    expect(errorOf(await w.call("GET", `/resources/content-page?id=${ids.home}&name=Home`)).code).toBe(419);
  });
});

describe("GET /resources/content-pages", () => {
  it("lists the chain's live pages in id order with the list envelope", async () => {
    const res = await w.call("GET", "/resources/content-pages");
    expect(res.status).toBe(200);
    expect(res.body.results).toMatchObject({ limit: 25, offset: 0, total_count: 3, result_type: "content-pages" });
    expect(names(res)).toEqual(["Home", "Offers", "About"]);
  });

  it("filters by id and by name", async () => {
    expect(names(await w.call("GET", `/resources/content-pages?id=${ids.about}`))).toEqual(["About"]);
    expect(names(await w.call("GET", "/resources/content-pages?name=Offers"))).toEqual(["Offers"]);
    const none = await w.call("GET", "/resources/content-pages?name=Foreign");
    expect(none.body.results).toMatchObject({ resources: [], total_count: 0 });
  });

  it("sorts by name, order, last_modified_date and id, both directions", async () => {
    expect(names(await w.call("GET", "/resources/content-pages?sort_by=name"))).toEqual(["About", "Home", "Offers"]);
    expect(names(await w.call("GET", "/resources/content-pages?sort_by=name&sort_order=desc"))).toEqual(["Offers", "Home", "About"]);
    expect(names(await w.call("GET", "/resources/content-pages?sort_by=order"))).toEqual(["Offers", "Home", "About"]);
    expect(names(await w.call("GET", "/resources/content-pages?sort_by=last_modified_date"))).toEqual(["Offers", "About", "Home"]);
    expect(names(await w.call("GET", "/resources/content-pages?sort_by=id&sort_order=desc"))).toEqual(["About", "Offers", "Home"]);
  });

  it("pages with limit and offset; total_count counts every match", async () => {
    const res = await w.call("GET", "/resources/content-pages?limit=1&offset=1&sort_by=name");
    expect(names(res)).toEqual(["Home"]);
    expect(res.body.results).toMatchObject({ limit: 1, offset: 1, total_count: 3 });
  });

  it("refuses sort keys and filters the spec does not give a content page", async () => {
    for (const q of ["sort_by=created_date", "sort_by=parent", "parent=Home", "display_name=Welcome", "search[name]=Home", "limit=0"]) {
      expect({ q, ...errorOf(await w.call("GET", `/resources/content-pages?${q}`)) }).toEqual({ q, status: 400, code: 419, name: "parameter_invalid" });
    }
  });
});
