import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { TestAdmin } from "../../../test/helpers/core.ts";
import { contentPages } from "../db/schema.ts";
import { errorOf, startResourcesWorld, type ResourcesWorld } from "./resources-test-support.ts";

let w: ResourcesWorld;
beforeAll(async () => {
  w = await startResourcesWorld();
});
afterAll(() => w.core.close());

const rowOf = async (id: number) => (await w.core.db.select().from(contentPages).where(eq(contentPages.id, id)))[0]!;
const allRows = async () => w.core.db.select().from(contentPages).orderBy(contentPages.id);
const create = async (body: Record<string, unknown>) => {
  const res = await w.call("POST", "/resources/content-page", body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.results.id as number;
};
const FULL_ZONE = { title: null, show_title: true, mode: null, tag_filter: [], type_filter: [], layout_type: null, orientation: null, items: [] };

describe("POST /resources/content-page", () => {
  // Each test starts without pages in the chain, and those that need "Home" create it: the first
  // test checks creating "Home", which fails once the name is taken.
  beforeEach(async () => {
    await w.core.db.delete(contentPages).where(eq(contentPages.chainId, w.core.chainId));
  });

  it("creates a top-level page with defaults and records the admin", async () => {
    w.setNow("2026-01-01T01:00:00Z");
    const { status, body } = await w.call("POST", "/resources/content-page", { name: "Home" });
    expect(status).toBe(200);
    expect(body.results).toEqual({
      deleted: false,
      display_name: null,
      id: expect.any(Number),
      last_modified_date: "2026-01-01T01:00:00Z",
      name: "Home",
      order: 0,
      parent: null,
      zones: null,
    });
    expect(await rowOf(body.results.id)).toMatchObject({
      chainId: w.core.chainId,
      name: "Home",
      displayName: null,
      order: 0,
      parentId: null,
      zones: null,
      deleted: false,
      lastUpdatedBy: w.admin.id,
      createdDate: new Date("2026-01-01T01:00:00Z"),
    });
  });

  it("creates a child by its parent's name, with zones completed by their defaults", async () => {
    const home = await create({ name: "Home" });
    const zones = [
      { title: "Deals", mode: "auto", tag_filter: ["summer"], layout_type: "grid", orientation: "horizontal", items: [{ type: "campaign", id: 12, pinned: true }] },
      { show_title: false },
    ];
    const { status, body } = await w.call("POST", "/resources/content-page", { name: "Deals", display_name: "Hot deals", order: 5, parent: "Home", zones });
    expect(status).toBe(200);
    const stored = [
      { ...FULL_ZONE, title: "Deals", mode: "auto", tag_filter: ["summer"], layout_type: "grid", orientation: "horizontal", items: [{ type: "campaign", id: 12, pinned: true }] },
      { ...FULL_ZONE, show_title: false },
    ];
    expect(body.results).toMatchObject({ name: "Deals", display_name: "Hot deals", order: 5, parent: "Home", zones: stored });
    const row = await rowOf(body.results.id);
    expect(row).toMatchObject({ parentId: home, order: 5, displayName: "Hot deals" });
    expect(JSON.parse(row.zones!)).toEqual(stored);
  });

  it("finds the parent by name as the database compares names (case-insensitively)", async () => {
    await create({ name: "Home" });
    const res = await w.call("POST", "/resources/content-page", { name: "Lower", parent: "home" });
    expect(res.status).toBe(200);
    expect(res.body.results.parent).toBe("Home");
  });

  it("accepts a form body (order converted, empty display_name is null)", async () => {
    await create({ name: "Home" });
    const res = await w.core.json("/resources/content-page", {
      method: "POST",
      headers: { ...w.admin.headers, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ name: "Form Page", order: "3", parent: "Home", display_name: "" }).toString(),
    });
    expect(res.status).toBe(200);
    expect(await rowOf(res.body.results.id)).toMatchObject({ name: "Form Page", order: 3, displayName: null });
  });

  it("refuses bad bodies with the spec's errors and writes nothing", async () => {
    await create({ name: "Home" }); // the name the uniqueness cases reuse
    const cases: Array<[unknown, number, string]> = [
      [{ name: "X1", colour: "red" }, 419, "parameter_invalid"],
      [{ name: "X2", id: 5 }, 419, "parameter_invalid"],
      [{ name: "X3", deleted: false }, 419, "parameter_invalid"],
      [{ name: "X4", last_modified_date: "2026-01-01T00:00:00Z" }, 419, "parameter_invalid"],
      [{ name: 12 }, 419, "parameter_invalid"],
      [{ name: "" }, 419, "parameter_invalid"],
      [{ name: null }, 419, "parameter_invalid"],
      [{ name: "X5", order: "first" }, 419, "parameter_invalid"],
      [{ name: "X6", order: 1.5 }, 419, "parameter_invalid"],
      [{ name: "X7", order: 2 ** 31 }, 419, "parameter_invalid"],
      [{ name: "X8", order: null }, 419, "parameter_invalid"],
      [{ name: "X9", parent: 5 }, 419, "parameter_invalid"],
      [{ name: "X10", parent: "" }, 419, "parameter_invalid"],
      [{ name: "X11", parent: { name: "Home" } }, 419, "parameter_invalid"],
      [{ name: "X12", zones: "none" }, 419, "parameter_invalid"],
      [{ name: "X13", zones: { title: "x" } }, 419, "parameter_invalid"],
      [{ name: "X14", zones: [{ colour: "red" }] }, 419, "parameter_invalid"],
      [{ name: "X15", zones: [{ items: [{ type: "campaign" }] }] }, 419, "parameter_invalid"],
      [{ name: "X16", zones: [{ items: [{ type: "campaign", id: "7" }] }] }, 419, "parameter_invalid"],
      [{ name: "X17", zones: [{ items: [{ id: 7 }] }] }, 419, "parameter_invalid"],
      [{ name: "X18", zones: [{ show_title: "yes" }] }, 419, "parameter_invalid"],
      [{ name: "X19", zones: [{ tag_filter: "summer" }] }, 419, "parameter_invalid"],
      [{ name: "X20", zones: [{ title: "t".repeat(256) }] }, 482, "string_parameter_too_long"],
      [{ name: "X21", zones: [{ items: [{ type: "campaign", id: 1, note: "n".repeat(70_000) }] }] }, 419, "parameter_invalid"],
      [{ name: "n".repeat(256) }, 482, "string_parameter_too_long"],
      [{ name: "X22", display_name: "d".repeat(256) }, 482, "string_parameter_too_long"],
      [{ name: "X23", parent: "p".repeat(256) }, 482, "string_parameter_too_long"],
      [{ display_name: "No name" }, 441, "parameter_missing"],
      // the hierarchy and uniqueness rules
      [{ name: "X24", parent: "No Such Page" }, 419, "parameter_invalid"],
      [{ name: "X25", parent: "X25" }, 419, "parameter_invalid"],
      [{ name: "Home" }, 419, "parameter_invalid"],
      [{ name: "HOME" }, 419, "parameter_invalid"],
    ];
    const before = await allRows();
    for (const [body, code, name] of cases) {
      const res = await w.call("POST", "/resources/content-page", body);
      expect({ body: JSON.stringify(body).slice(0, 80), ...errorOf(res) }).toEqual({ body: JSON.stringify(body).slice(0, 80), status: 400, code, name });
    }
    expect(errorOf(await w.call("POST", "/resources/content-page?name=Q", { name: "X26" })).code).toBe(419);
    expect(await allRows()).toEqual(before);
  });

  it("explains the hierarchy errors", async () => {
    await create({ name: "Home" });
    expect((await w.call("POST", "/resources/content-page", { name: "Self", parent: "Self" })).body.error.description).toMatch(/own parent/);
    expect((await w.call("POST", "/resources/content-page", { name: "Orphan", parent: "Nope" })).body.error.description).toMatch(/no content page named "Nope"/);
    expect((await w.call("POST", "/resources/content-page", { name: "Home" })).body.error.description).toMatch(/already used/);
  });

  it("allows a name used in another chain, and a name freed by deletion", async () => {
    const other = await w.core.createChain("Other");
    const otherAdmin = await w.core.admin({ read: true, write: true }, other);
    const res = await w.call("POST", "/resources/content-page", { name: "Home" }, otherAdmin.headers);
    expect(res.status).toBe(200);
    expect((await rowOf(res.body.results.id)).chainId).toBe(other);

    const temp = await create({ name: "Temporary" });
    expect((await w.call("DELETE", `/resources/content-page/${temp}`)).status).toBe(200);
    const again = await create({ name: "Temporary" });
    expect(again).not.toBe(temp);
  });

  it("does not take a parent from another chain", async () => {
    const other = await w.core.createChain("Third");
    const otherAdmin = await w.core.admin({ read: true, write: true }, other);
    await w.call("POST", "/resources/content-page", { name: "Only There" }, otherAdmin.headers);
    const res = await w.call("POST", "/resources/content-page", { name: "Here", parent: "Only There" });
    expect(errorOf(res)).toEqual({ status: 400, code: 419, name: "parameter_invalid" });
    expect(await w.core.db.select().from(contentPages).where(eq(contentPages.name, "Here"))).toEqual([]);
  });
});

describe("PUT and PATCH /resources/content-page", () => {
  // A > B > C, and D top-level
  let a: number, b: number, c: number, d: number;
  beforeAll(async () => {
    a = await create({ name: "A", zones: [{ title: "one" }, { title: "two" }] });
    b = await create({ name: "B", parent: "A" });
    c = await create({ name: "C", parent: "B" });
    d = await create({ name: "D", display_name: "Dee", order: 4 });
  });

  it("PATCH renames a page; its children then render the new parent name", async () => {
    w.setNow("2026-01-01T05:00:00Z");
    const res = await w.call("PATCH", `/resources/content-page/${b}`, { name: "B2" });
    expect(res.status).toBe(200);
    expect(res.body.results).toMatchObject({ name: "B2", parent: "A", last_modified_date: "2026-01-01T05:00:00Z" });
    expect(await rowOf(b)).toMatchObject({ name: "B2", parentId: a, lastUpdatedBy: w.admin.id });
    expect((await w.call("GET", `/resources/content-page/${c}`)).body.results.parent).toBe("B2");
    await w.call("PATCH", `/resources/content-page/${b}`, { name: "B" });
  });

  it("PATCH moves a page under another parent and back to the top level", async () => {
    expect((await w.call("PATCH", `/resources/content-page/${c}`, { parent: "D" })).body.results.parent).toBe("D");
    expect((await rowOf(c)).parentId).toBe(d);
    expect((await w.call("PATCH", `/resources/content-page/${c}`, { parent: null })).body.results.parent).toBeNull();
    expect((await rowOf(c)).parentId).toBeNull();
    await w.call("PATCH", `/resources/content-page/${c}`, { parent: "B" });
    expect((await rowOf(c)).parentId).toBe(b);
  });

  it("PATCH replaces the zones in full and leaves unsent properties alone", async () => {
    const res = await w.call("PATCH", `/resources/content-page?name=A`, { zones: [{ title: "only" }] });
    expect(res.body.results.zones).toEqual([{ ...FULL_ZONE, title: "only" }]);
    expect(JSON.parse((await rowOf(a)).zones!)).toEqual([{ ...FULL_ZONE, title: "only" }]);
    expect((await w.call("PATCH", `/resources/content-page/${a}`, { zones: null })).body.results.zones).toBeNull();
    expect((await rowOf(a)).zones).toBeNull();
    expect((await rowOf(d)).displayName).toBe("Dee");
  });

  it("PUT replaces: unsent properties return to their default or null", async () => {
    await w.call("PATCH", `/resources/content-page/${d}`, { parent: "A", zones: [{}] });
    const res = await w.call("PUT", `/resources/content-page/${d}`, { name: "D" });
    expect(res.status).toBe(200);
    expect(res.body.results).toMatchObject({ name: "D", display_name: null, order: 0, parent: null, zones: null });
    expect(await rowOf(d)).toMatchObject({ displayName: null, order: 0, parentId: null, zones: null });
    const full = await w.call("PUT", `/resources/content-page?name=D`, { name: "D", display_name: "Dee", order: 4, parent: "C", zones: [] });
    expect(full.body.results).toMatchObject({ display_name: "Dee", order: 4, parent: "C", zones: [] });
    expect(await rowOf(d)).toMatchObject({ displayName: "Dee", order: 4, parentId: c, zones: "[]" });
    await w.call("PATCH", `/resources/content-page/${d}`, { parent: null });
  });

  it("refuses a page as its own parent, by its current or its new name, and writes nothing", async () => {
    const before = await allRows();
    for (const [body, target] of [
      [{ parent: "B" }, b],
      [{ parent: "b" }, b],
      [{ name: "B3", parent: "B3" }, b],
    ] as const) {
      const res = await w.call("PATCH", `/resources/content-page/${target}`, body);
      expect(errorOf(res)).toEqual({ status: 400, code: 419, name: "parameter_invalid" });
      expect(res.body.error.description).toMatch(/own parent/);
    }
    expect(await allRows()).toEqual(before);
  });

  it("refuses a descendant as parent (a cycle), directly or deeper, and writes nothing", async () => {
    const before = await allRows();
    for (const [target, parent] of [
      [a, "B"],
      [a, "C"],
      [b, "C"],
    ] as const) {
      const res = await w.call("PATCH", `/resources/content-page/${target}`, { parent });
      expect(errorOf(res)).toEqual({ status: 400, code: 419, name: "parameter_invalid" });
      expect(res.body.error.description).toMatch(/cycle/);
      const put = await w.call("PUT", `/resources/content-page/${target}`, { name: "renamed", parent });
      expect(errorOf(put).code).toBe(419);
    }
    expect(await allRows()).toEqual(before);
  });

  it("refuses an unknown parent, a name in use, and bad values; nothing is written", async () => {
    const before = await allRows();
    const cases: Array<[string, string, unknown, number]> = [
      ["PATCH", `/resources/content-page/${c}`, { parent: "Nowhere" }, 419],
      ["PATCH", `/resources/content-page/${c}`, { name: "A" }, 419],
      ["PATCH", `/resources/content-page/${c}`, { name: "d" }, 419],
      ["PATCH", `/resources/content-page/${c}`, { deleted: true }, 419],
      ["PATCH", `/resources/content-page/${c}`, { last_modified_date: "2026-01-01T00:00:00Z" }, 419],
      ["PATCH", `/resources/content-page/${c}`, { id: c + 1000 }, 419],
      ["PATCH", `/resources/content-page/${c}`, { colour: "red" }, 419],
      ["PATCH", `/resources/content-page/${c}`, { order: "1" }, 419],
      ["PATCH", `/resources/content-page/${c}`, { name: null }, 419],
      ["PATCH", `/resources/content-page/${c}`, { zones: [{ items: [{ type: "campaign", id: 1.5 }] }] }, 419],
      ["PATCH", `/resources/content-page/${c}`, { display_name: "d".repeat(256) }, 482],
      ["PUT", `/resources/content-page/${c}`, { parent: "B" }, 441],
      ["PUT", `/resources/content-page/${c}`, { name: "C", parent: "Nowhere" }, 419],
    ];
    for (const [method, path, body, code] of cases) {
      const res = await w.call(method, path, body);
      expect({ method, body, code: errorOf(res).code, status: res.status }).toEqual({ method, body, code, status: 400 });
    }
    expect(await allRows()).toEqual(before);
  });

  it("tolerates the page's own id in the body", async () => {
    const res = await w.call("PATCH", `/resources/content-page/${d}`, { id: d, order: 9 });
    expect(res.status).toBe(200);
    expect((await rowOf(d)).order).toBe(9);
  });
});

describe("DELETE /resources/content-page", () => {
  it("soft-deletes the page and every descendant, and nothing else", async () => {
    const root = await create({ name: "Root" });
    const kid1 = await create({ name: "Kid 1", parent: "Root" });
    const kid2 = await create({ name: "Kid 2", parent: "Root" });
    const grandkid = await create({ name: "Grandkid", parent: "Kid 2" });
    const sibling = await create({ name: "Sibling" });
    w.setNow("2026-01-01T06:00:00Z");
    const res = await w.call("DELETE", `/resources/content-page?name=Root`);
    expect(res.status).toBe(200);
    expect(res.body.results).toMatchObject({ id: root, name: "Root", deleted: true, last_modified_date: "2026-01-01T06:00:00Z" });
    for (const id of [root, kid1, kid2, grandkid]) {
      expect(await rowOf(id)).toMatchObject({ deleted: true, lastUpdatedBy: w.admin.id, lastModifiedDate: new Date("2026-01-01T06:00:00Z") });
      expect(errorOf(await w.call("GET", `/resources/content-page/${id}`)).code).toBe(544);
    }
    expect((await rowOf(sibling)).deleted).toBe(false);
    const listed = (await w.call("GET", "/resources/content-pages?limit=500")).body.results.resources.map((p: { id: number }) => p.id);
    expect(listed).toContain(sibling);
    expect(listed).not.toContain(kid1);
  });

  it("deleting a middle page keeps its parent", async () => {
    const top = await create({ name: "Top" });
    const mid = await create({ name: "Mid", parent: "Top" });
    const leaf = await create({ name: "Leaf", parent: "Mid" });
    expect((await w.call("DELETE", `/resources/content-page/${mid}`)).status).toBe(200);
    expect((await rowOf(top)).deleted).toBe(false);
    expect((await rowOf(mid)).deleted).toBe(true);
    expect((await rowOf(leaf)).deleted).toBe(true);
  });

  it("answers 544 for an unknown or already deleted page and changes nothing", async () => {
    const gone = await create({ name: "Gone" });
    expect((await w.call("DELETE", `/resources/content-page/${gone}`)).status).toBe(200);
    const before = await allRows();
    for (const path of ["/resources/content-page/999999", `/resources/content-page/${gone}`, "/resources/content-page?name=Nothing"]) {
      expect(errorOf(await w.call("DELETE", path))).toEqual({ status: 404, code: 544, name: "resource_not_found" });
    }
    expect(await allRows()).toEqual(before);
  });
});

describe("content page access", () => {
  let reader: TestAdmin, writer: TestAdmin, otherChain: number, foreign: number, mine: number;
  beforeAll(async () => {
    reader = await w.core.admin({ read: true });
    writer = await w.core.admin({ read: true, write: true });
    otherChain = await w.core.createChain("Foreign Chain");
    const [res] = await w.core.db.insert(contentPages).values({ chainId: otherChain, name: "Foreign Page" });
    foreign = Number(res.insertId);
    mine = await create({ name: "Mine" });
  });

  it("lets a reader read, and refuses the reader's writes with 544, writing nothing", async () => {
    expect((await w.call("GET", `/resources/content-page/${mine}`, undefined, reader.headers)).status).toBe(200);
    expect((await w.call("GET", "/resources/content-pages", undefined, reader.headers)).status).toBe(200);
    const before = await allRows();
    for (const [method, path, body] of [
      ["POST", "/resources/content-page", { name: "By Reader" }],
      ["PATCH", `/resources/content-page/${mine}`, { order: 1 }],
      ["PUT", `/resources/content-page/${mine}`, { name: "Mine" }],
      ["DELETE", `/resources/content-page/${mine}`, undefined],
    ] as const) {
      expect(errorOf(await w.call(method, path, body, reader.headers))).toEqual({ status: 404, code: 544, name: "resource_not_found" });
    }
    expect(errorOf(await w.call("DELETE", `/resources/content-page/${mine}`, undefined, writer.headers)).code).toBe(544);
    expect(await allRows()).toEqual(before);
  });

  it("lets a writer without delete access create and update", async () => {
    const res = await w.call("POST", "/resources/content-page", { name: "By Writer" }, writer.headers);
    expect(res.status).toBe(200);
    expect((await rowOf(res.body.results.id)).lastUpdatedBy).toBe(writer.id);
  });

  it("answers 544 for another chain's page on every method and leaves it alone", async () => {
    const before = await rowOf(foreign);
    for (const [method, body] of [["GET"], ["PATCH", { order: 3 }], ["PUT", { name: "Taken" }], ["DELETE"]] as const) {
      expect(errorOf(await w.call(method, `/resources/content-page/${foreign}`, body))).toEqual({ status: 404, code: 544, name: "resource_not_found" });
    }
    expect(await rowOf(foreign)).toEqual(before);
    // an admin of the chain only sees the chain named in the header
    const other = await w.call("GET", `/resources/content-page/${foreign}`, undefined, { "X-Service-Chain-ID": String(otherChain) });
    expect(errorOf(other).code).toBe(544);
  });

  it("needs a session (6, 401) and answers 544 for unoffered methods", async () => {
    const anon = await w.core.json(`/resources/content-page/${mine}`, { headers: { "X-Service-Chain-ID": String(w.core.chainId) } });
    expect(errorOf(anon)).toEqual({ status: 401, code: 6, name: "no_valid_session" });
    expect(errorOf(await w.call("POST", `/resources/content-page/${mine}`, { name: "x" })).code).toBe(544);
    expect(errorOf(await w.call("POST", "/resources/content-pages", { name: "x" })).code).toBe(544);
    expect(errorOf(await w.call("DELETE", "/resources/content-pages")).code).toBe(544);
    expect(await w.core.db.select().from(contentPages).where(and(eq(contentPages.name, "x")))).toEqual([]);
  });
});
