/**
 * A write body nested thousands of levels deep (8,000 levels is about 42 KB, far under the 1 MiB
 * body limit) is refused with 419 parameter_invalid before anything recurses over it, and nothing
 * is written: JSON and form bodies alike, and a JSON property stored as text (content-page zones).
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_PARAM_DEPTH } from "../http/params.ts";
import { errorOf, startResourcesWorld, type ResourcesWorld } from "./resources-test-support.ts";

let w: ResourcesWorld;
beforeAll(async () => {
  w = await startResourcesWorld();
});
afterAll(() => w.core.close());

const rows = async (table: "businesses" | "content_pages") => {
  const [result] = (await w.core.db.execute(sql.raw(`SELECT COUNT(*) AS n FROM ${table}`))) as unknown as [Array<{ n: number }>];
  return Number(result[0]!.n);
};
/** `[[...[]...]]` nested `levels` deep. */
const deepArray = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;
const REFUSED = { status: 400, code: 419, name: "parameter_invalid" };

describe("Resources writes nested too deep", () => {
  it("POST with an 8,000-level JSON property: 419, nothing written", async () => {
    const body = `{"name":"Deep","owner_code":"D-1","address_1":${deepArray(8_000)}}`;
    expect(body.length).toBeGreaterThan(16_000);
    const before = await rows("businesses");
    const res = await w.core.json("/resources/business", { method: "POST", headers: { ...w.admin.headers, "content-type": "application/json" }, body });
    expect(errorOf(res)).toEqual(REFUSED);
    expect(await rows("businesses")).toBe(before);
  });

  it("about 42 KB of nested objects (8,000 levels) in a PATCH: 419, the business unchanged", async () => {
    const shop = await w.seed({ name: "Kept" });
    const body = `{"region":${'{"a":'.repeat(8_000)}1${"}".repeat(8_000)}}`;
    expect(body.length).toBeGreaterThan(40_000);
    const res = await w.core.json(`/resources/business/${shop.id}`, { method: "PATCH", headers: { ...w.admin.headers, "content-type": "application/json" }, body });
    expect(errorOf(res)).toEqual(REFUSED);
    expect((await w.call("GET", `/resources/business/${shop.id}`)).body.results.region).toBeNull();
  });

  it("a form body whose bracket keys nest past the limit: 419, nothing written", async () => {
    const before = await rows("businesses");
    const key = `address_1${"[x]".repeat(MAX_PARAM_DEPTH)}`;
    const res = await w.core.json("/resources/business", {
      method: "POST",
      headers: { ...w.admin.headers, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams([["name", "Deep form"], ["owner_code", "D-2"], [key, "1"]]).toString(),
    });
    expect(errorOf(res)).toEqual(REFUSED);
    expect(await rows("businesses")).toBe(before);
  });

  it("content-page zones just past the limit: 419, no page written", async () => {
    const before = await rows("content_pages");
    const res = await w.core.json("/resources/content-page", {
      method: "POST",
      headers: { ...w.admin.headers, "content-type": "application/json" },
      body: `{"name":"Deep zones","zones":${deepArray(MAX_PARAM_DEPTH)}}`,
    });
    expect(errorOf(res)).toEqual(REFUSED);
    expect(await rows("content_pages")).toBe(before);
  });
});
