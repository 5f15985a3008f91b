/**
 * A search text means the same in both APIs (text.ts, searchTermsOf): over HTTP, the Resources
 * list (`search[...]`) and get-businesses (`search[...]`, `name`, `owner_code`) list nothing for
 * a text without a letter or digit, everything for a blank one, and the same businesses for a
 * word wrapped in punctuation as for the word.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestAdmin, type TestCore } from "../../../test/helpers/core.ts";
import { insertBusiness } from "./business-repository.ts";
import { searchTermsOf } from "./text.ts";

let core: TestCore;
let admin: TestAdmin;
const ALL = ["Albert Heijn Dam", "Café Bär", "Jumbo Centrum"];

beforeAll(async () => {
  core = await startCore();
  admin = await core.admin({ super_user: true });
  const now = new Date("2026-01-01T00:00:00Z");
  for (const [i, name] of ALL.entries()) await insertBusiness(core.db, { chainId: core.chainId, name, ownerCode: `OC-${i}` }, now);
});
afterAll(() => core.close());

/** Names listed by `GET /resources/businesses?{key}={text}`, sorted. */
async function viaResources(key: string, text: string): Promise<string[]> {
  const res = await core.json(`/resources/businesses?${key}=${encodeURIComponent(text)}`, { headers: admin.headers });
  expect(res.status, `${key}=${text}: ${JSON.stringify(res.body)}`).toBe(200);
  expect(res.body.results.total_count).toBe(res.body.results.resources.length);
  return res.body.results.resources.map((b: { name: string }) => b.name).sort();
}

/** Names listed by get-businesses with `{key}={text}`, sorted. */
async function viaInternal(key: string, text: string): Promise<string[]> {
  const res = await core.json(`/internal/get-businesses?chain_id=${core.chainId}&${key}=${encodeURIComponent(text)}`, { headers: admin.headers });
  expect(res.status, `${key}=${text}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body.results.businesses.map((b: { name: string }) => b.name).sort();
}

const RESOURCE_KEYS = ["search[name]", "search[owner_code]", "search[*]"];
const INTERNAL_KEYS = ["search[name]", "search[owner_code]", "search[*]", "name", "owner_code"];

describe("a search text without a letter or digit", () => {
  it.each(["!!!", ",", "-- ..", "¡¿?", " ! , ! "])("%j lists no business in either API", async (text) => {
    for (const key of RESOURCE_KEYS) expect(await viaResources(key, text), key).toEqual([]);
    for (const key of INTERNAL_KEYS) expect(await viaInternal(key, text), key).toEqual([]);
  });
});

describe("a blank search text", () => {
  it.each(["", "   "])("%j is no search: every business in either API", async (text) => {
    for (const key of RESOURCE_KEYS) expect(await viaResources(key, text), key).toEqual(ALL);
    for (const key of INTERNAL_KEYS) expect(await viaInternal(key, text), key).toEqual(ALL);
  });
});

describe("punctuation around a word", () => {
  it("searches the word, the same in both APIs", async () => {
    for (const text of ["albert", "!albert!", "(cafe)", "...jumbo,"]) {
      const expected = await viaResources("search[name]", text.replace(/[^\p{L}]/gu, ""));
      expect(expected).toHaveLength(1);
      expect(await viaResources("search[name]", text), text).toEqual(expected);
      expect(await viaInternal("name", text), text).toEqual(expected);
      expect(await viaInternal("search[*]", text), text).toEqual(expected);
    }
  });
});

describe("searchTermsOf", () => {
  it("reads blank as no search and a text without letters or digits as no terms", () => {
    expect(searchTermsOf(undefined)).toBeUndefined();
    expect(searchTermsOf(null)).toBeUndefined();
    expect(searchTermsOf(" \t ")).toBeUndefined();
    expect(searchTermsOf("!!!")).toEqual([]);
    expect(searchTermsOf("ah, 12 !")).toEqual([["ah"], ["12"]]);
  });
});
