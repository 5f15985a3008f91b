/**
 * searchBusinesses against a brute-force oracle: a few hundred stores at random places with
 * random names, every plan (location, text, text + location, filters, paging, both orders)
 * compared with the same search done in plain JavaScript over all stores.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestCore } from "../../../test/helpers/core.ts";
import { businesses } from "../db/schema.ts";
import { distanceKm } from "./geo.ts";
import { deleteBusiness, insertBusinesses, updateBusiness, type BusinessRow } from "./business-repository.ts";
import { useSearchShapes } from "./query.ts";
import { searchBusinesses, type BusinessSearch } from "./search.ts";
import { parseSearchTerms, tokenize } from "./text.ts";

let core: TestCore;
let stores: BusinessRow[] = [];
const NOW = new Date("2026-11-21T10:00:00Z");
const CENTRE = { latitude: 52.3791, longitude: 4.9003 };
const WORDS = ["Bakkerij", "Bakery", "Jumbo", "Albert", "Heijn", "Baker", "Slager", "Café", "Bar", "Markt"];

function random(seed: number) {
  return () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

beforeAll(async () => {
  core = await startCore();
  const rand = random(7);
  const pick = () => WORDS[Math.floor(rand() * WORDS.length)]!;
  const values = Array.from({ length: 400 }, (_, i) => ({
    chainId: core.chainId,
    name: `${pick()} ${pick()} ${i}`,
    ownerCode: `ST-${String(i).padStart(4, "0")}`,
    // Clustered near the centre, some far away, some without coordinates.
    latitude: i % 17 === 0 ? null : CENTRE.latitude + (rand() - 0.5) * (i % 5 === 0 ? 4 : 0.6),
    longitude: i % 17 === 0 ? null : CENTRE.longitude + (rand() - 0.5) * (i % 5 === 0 ? 6 : 0.9),
    isShutDown: i % 7 === 0,
    countryCode: i % 3 === 0 ? "BE" : "NL",
  }));
  stores = await insertBusinesses(core.db, values, NOW);
  // Moves and deletions must reach the indexes too.
  await updateBusiness(core.db, core.chainId, stores[1]!.id, { latitude: CENTRE.latitude + 0.001, longitude: CENTRE.longitude }, NOW);
  await updateBusiness(core.db, core.chainId, stores[2]!.id, { name: "Bakkerij Verhuisd" }, NOW);
  await deleteBusiness(core.db, core.chainId, stores[3]!.id, null, NOW);
  stores = (await core.db.select().from(businesses)).filter((s) => !s.deleted);
  // Another chain's stores at the same places never show up.
  const other = await core.createChain();
  await insertBusinesses(core.db, values.slice(0, 50).map((v) => ({ ...v, chainId: other, ownerCode: null })), NOW);
});
afterAll(() => core.close());

/** The search done by hand over every live store of the chain. */
function oracle(q: BusinessSearch) {
  let hits = stores.map((row) => ({
    row,
    distanceKm: q.location && row.latitude !== null && row.longitude !== null
      ? distanceKm(q.location.latitude, q.location.longitude, row.latitude, row.longitude)
      : null,
    relevance: 0,
  }));
  if (q.location) hits = hits.filter((h) => h.distanceKm !== null && h.distanceKm <= q.location!.radiusKm);
  if (q.text) {
    const fieldWords = (row: BusinessRow, f: string) => tokenize(f === "name" ? row.name : row.ownerCode);
    hits = hits.filter((h) => {
      let matched = 0;
      for (const term of q.text!.terms) {
        let termHit = false;
        for (const f of q.text!.fields) {
          const words = fieldWords(h.row, f);
          if (term.every((w) => words.some((x) => x.startsWith(w)))) {
            termHit = true;
            h.relevance += f === "name" ? 2 : 1;
          }
        }
        if (termHit) matched++;
      }
      return q.text!.matchAll ? matched === q.text!.terms.length : matched > 0;
    });
  }
  if (q.filters?.isShutDown !== undefined) hits = hits.filter((h) => h.row.isShutDown === q.filters!.isShutDown);
  if (q.filters?.countryCode !== undefined) hits = hits.filter((h) => h.row.countryCode === q.filters!.countryCode);
  const desc = q.sort?.column === "id" && q.sort.order === "desc";
  hits.sort(
    (a, b) =>
      (q.location ? a.distanceKm! - b.distanceKm! : 0) ||
      (q.orderByRelevance ? b.relevance - a.relevance : 0) ||
      (desc ? b.row.id - a.row.id : a.row.id - b.row.id),
  );
  return { ids: hits.slice(q.offset, q.offset + q.limit).map((h) => h.row.id), total: hits.length, hits };
}

const location = (radiusKm: number) => ({ ...CENTRE, radiusKm });
const text = (query: string, fields: Array<"name" | "owner_code"> = ["name"], matchAll = false) => ({
  terms: parseSearchTerms(query),
  fields,
  matchAll,
});

const cases: Array<[string, Partial<BusinessSearch>]> = [
  ["location 25 km", { location: location(25) }],
  ["location 3 km, second page", { location: location(3), offset: 10 }],
  ["location 25 km, id descending for ties", { location: location(25), sort: { column: "id", order: "desc" } }],
  ["location 500 km (every store with coordinates)", { location: location(500), limit: 500 }],
  ["text prefix", { text: text("bak") }],
  ["text prefix, last page", { text: text("bak"), offset: 60 }],
  ["text prefix, id descending", { text: text("bak"), sort: { column: "id", order: "desc" } }],
  ["one-letter prefix, deep page (sorted rather than merged)", { text: text("b"), offset: 200, limit: 200 }],
  ["text prefix matching nothing", { text: text("qqq"), offset: 0 }],
  ["text, two terms, any, by relevance", { text: text("bak jumbo"), orderByRelevance: true }],
  ["text, two terms, all", { text: text("bak jumbo", ["name"], true) }],
  ["text phrase with inner separator", { text: text("albert-heijn") }],
  ["text across name and owner code", { text: text("st-001 jumbo", ["name", "owner_code"]), orderByRelevance: true }],
  ["text + location", { text: text("bak"), location: location(25) }],
  ["text + location, second page", { text: text("bak"), location: location(25), offset: 10, limit: 10 }],
  ["text + location, id descending for ties", { text: text("bak"), location: location(25), sort: { column: "id", order: "desc" } }],
  ["text + location, past the end (the total counted apart)", { text: text("bak"), location: location(25), offset: 1000 }],
  ["text + location matching nothing", { text: text("qqq"), location: location(25) }],
  ["text + location by relevance", { text: text("bak jumbo"), location: location(10), orderByRelevance: true }],
  ["location + filter", { location: location(25), filters: { isShutDown: false } }],
  ["text + filter", { text: text("bak"), filters: { countryCode: "BE" } }],
  ["filter only", { filters: { isShutDown: true }, limit: 100 }],
  ["past the end", { location: location(25), offset: 1000 }],
];

/** Runs the search of case `label` and expects the oracle's answer. */
async function expectOracle(label: string, partial: Partial<BusinessSearch>): Promise<void> {
  const q: BusinessSearch = { chainId: core.chainId, limit: 25, offset: 0, ...partial };
  const expected = oracle(q);
  const got = await searchBusinesses(core.db, q);
  expect(got.total).toBe(expected.total);
  expect(got.hits.map((h) => h.row.id)).toEqual(expected.ids);
  for (const h of got.hits) {
    const want = expected.hits.find((e) => e.row.id === h.row.id)!;
    // the page's rows, read with the page, are the rows as drizzle reads them
    expect(h.row).toEqual(want.row);
    if (want.distanceKm === null) expect(h.distanceKm).toBeNull();
    else expect(h.distanceKm).toBeCloseTo(want.distanceKm, 9);
  }
  if (label.includes("nothing")) expect(expected.total).toBe(0);
  else if (!partial.offset || partial.offset < expected.total) expect(expected.ids.length).toBeGreaterThan(0);
}

describe("searchBusinesses agrees with a brute-force search", () => {
  for (const [label, partial] of cases) it(label, () => expectOracle(label, partial));

  it("keeps the per-word counts equal to the words they count, through inserts, renames and deletes", async () => {
    const [counted] = (await core.db.execute(sql`
      SELECT COUNT(*) AS mismatches FROM (
        SELECT chain_id, field, token, lcp_prev, COUNT(*) AS n FROM business_search_tokens GROUP BY chain_id, field, token, lcp_prev
      ) w
      LEFT JOIN business_search_word_counts c USING (chain_id, field, token, lcp_prev)
      WHERE c.n IS NULL OR c.n <> w.n`)) as unknown as [Array<{ mismatches: number }>];
    expect(Number(counted[0]!.mismatches)).toBe(0);
    const [extra] = (await core.db.execute(sql`
      SELECT COALESCE(SUM(c.n), 0) AS n FROM business_search_word_counts c
      WHERE NOT EXISTS (SELECT 1 FROM business_search_tokens t WHERE t.chain_id = c.chain_id AND t.field = c.field AND t.token = c.token AND t.lcp_prev = c.lcp_prev)`)) as unknown as [Array<{ n: number }>];
    expect(Number(extra[0]!.n)).toBe(0);
  });

  it("keeps the per-cell counts equal to the live businesses in each cell", async () => {
    const [counted] = (await core.db.execute(sql`
      SELECT COUNT(*) AS mismatches FROM (
        SELECT chain_id, geo_cell, COUNT(*) AS n FROM businesses WHERE geo_cell IS NOT NULL GROUP BY chain_id, geo_cell
      ) b
      LEFT JOIN business_geo_cell_counts c USING (chain_id, geo_cell)
      WHERE c.n IS NULL OR c.n <> b.n`)) as unknown as [Array<{ mismatches: number }>];
    expect(Number(counted[0]!.mismatches)).toBe(0);
    const [stray] = (await core.db.execute(sql`
      SELECT COALESCE(SUM(c.n), 0) AS n FROM business_geo_cell_counts c
      WHERE NOT EXISTS (SELECT 1 FROM businesses b WHERE b.chain_id = c.chain_id AND b.geo_cell = c.geo_cell)`)) as unknown as [Array<{ n: number }>];
    expect(Number(stray[0]!.n)).toBe(0);
  });

  it("finds a moved store at its new place and a renamed one by its new name, never a deleted one", async () => {
    const near = await searchBusinesses(core.db, { chainId: core.chainId, location: location(0.5), text: text("bak jumbo albert slager cafe bar markt baker heijn"), limit: 500, offset: 0 });
    expect(near.hits.map((h) => h.row.id)).toContain(stores.find((s) => s.name === stores[1]!.name)!.id);
    const renamed = await searchBusinesses(core.db, { chainId: core.chainId, text: text("verhuisd"), limit: 5, offset: 0 });
    expect(renamed.total).toBe(1);
    const all = await searchBusinesses(core.db, { chainId: core.chainId, location: location(20000), limit: 500, offset: 0 });
    expect(all.hits.some((h) => h.row.deleted)).toBe(false);
  });
});

describe("with SEARCH_SHAPES=off (the hot statements rendered on every run) it agrees too", () => {
  beforeAll(() => useSearchShapes(core.db, false));
  afterAll(() => useSearchShapes(core.db, true));
  for (const [label, partial] of cases) it(label, () => expectOracle(label, partial));
});

describe("a prefix with more distinct words than the page merges", () => {
  it("sorts the matches instead and sums the total, and asked for no total counts nothing", async () => {
    const chainId = await core.createChain("Many Words");
    // 70 distinct words under "zq" (more runs than MAX_RUNS), two of them renamed away, one deleted
    const made = await insertBusinesses(core.db, Array.from({ length: 70 }, (_, i) => ({ chainId, name: `Zq${String(i).padStart(2, "0")}x Winkel` })), NOW);
    await updateBusiness(core.db, chainId, made[3]!.id, { name: "Elders" }, NOW);
    await updateBusiness(core.db, chainId, made[4]!.id, { name: "Ergens" }, NOW);
    await deleteBusiness(core.db, chainId, made[5]!.id, null, NOW);
    const left = made.filter((_, i) => i < 3 || i > 5).map((b) => b.id);
    const q: BusinessSearch = { chainId, text: text("zq"), limit: 10, offset: 20 };
    const got = await searchBusinesses(core.db, q);
    expect(got.total).toBe(67);
    expect(got.hits.map((h) => h.row.id)).toEqual(left.slice(20, 30));
    const descending = await searchBusinesses(core.db, { ...q, offset: 0, sort: { column: "id", order: "desc" } });
    expect(descending.hits.map((h) => h.row.id)).toEqual([...left].reverse().slice(0, 10));
    const untotalled = await searchBusinesses(core.db, q, { total: false });
    expect(untotalled).toEqual({ hits: got.hits });
  });
});

