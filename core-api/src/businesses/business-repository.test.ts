import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestCore } from "../../../test/helpers/core.ts";
import { encode } from "../../../test/helpers/internal-calls.ts";
import { businessGeoCellCounts, businessSearchTokens, businessSearchWordCounts } from "../db/schema.ts";
import { ServiceError } from "../http/service-error.ts";
import { deleteBusiness, findBusinessById, findBusinessesByIds, insertBusiness, insertBusinesses, updateBusiness, useGroupCommit, useRowsAsWritten } from "./business-repository.ts";
import { databaseUntil } from "../db/request-database.ts";
import { searchBusinesses } from "./search.ts";
import { withLcpPrev } from "./word-index.ts";

let core: TestCore;
const NOW = new Date("2026-11-21T10:00:00Z");
beforeAll(async () => {
  core = await startCore();
});
afterAll(() => core.close());

const tokensOf = async (id: number) =>
  (await core.db.select().from(businessSearchTokens).where(eq(businessSearchTokens.businessId, id))).map((t) => t.token).sort();

describe("updateBusiness", () => {
  it("treats keys whose value is undefined as unchanged: grid cell and search words stay", async () => {
    const shop = await insertBusiness(core.db, { chainId: core.chainId, name: "Albert Heijn", ownerCode: "AH-1", latitude: 52.1, longitude: 4.3 }, NOW);
    const updated = await updateBusiness(core.db, core.chainId, shop.id, { name: undefined, ownerCode: undefined, latitude: undefined, towncity: "Leiden" }, NOW);
    expect(updated).toMatchObject({ name: "Albert Heijn", towncity: "Leiden", latitude: 52.1, geoCell: shop.geoCell });
    expect(updated!.geoCell).not.toBeNull();
    expect(await tokensOf(shop.id)).toEqual(["1", "ah", "albert", "heijn"]);
  });
});

describe("rows answered without reading them back", () => {
  // milliseconds the DATETIME columns do not keep: the answer must still equal a later read
  const AT = new Date("2026-11-21T10:00:00.789Z");
  const EVERY_FIELD = {
    chainId: 0, name: "Bakkerij Compleet", ownerCode: "BC-1", address1: "Damrak 1", address2: "2nd floor", address3: null,
    towncity: "Amsterdam", region: "Noord-Holland", postalcode: "1012 LG", countryCode: "NL", latitude: 52.379189, longitude: 4.899431,
    phoneNumber: "+31201234567", faxNumber: null, emailAddress: "bc@example.com", websiteUrl: "https://bc.example.com", description: "Bread",
    businessFormat: "bakery", googlePlaceId: "ChIJ", imageUrl: null, reviewUrl: null, openingTimes: '{"monday":{"open":"08:00","close":"18:00"}}',
    socialnetworkAUrl: null, socialnetworkBUrl: null, socialnetworkCUsername: "bakkerij", isShutDown: true, lastUpdatedBy: null,
  };

  it("insertBusiness and insertBusinesses answer exactly what a later read finds, defaults included", async () => {
    const full = await insertBusiness(core.db, { ...EVERY_FIELD, chainId: core.chainId }, AT);
    expect(full).toEqual(await findBusinessById(core.db, core.chainId, full.id));
    expect(full.createdDate).toEqual(new Date("2026-11-21T10:00:00.000Z"));
    const [bare, other] = await insertBusinesses(core.db, [{ chainId: core.chainId, name: "Kaal" }, { chainId: core.chainId, name: "Tweede", ownerCode: "T-2" }], AT);
    expect(bare).toEqual(await findBusinessById(core.db, core.chainId, bare!.id));
    expect(other).toEqual(await findBusinessById(core.db, core.chainId, other!.id));
    expect(bare).toMatchObject({ programmeOptedIn: true, chainMember: true, isShutDown: false, deleted: false, ownerCode: null, activeOwnerCode: null, geoCell: null });
  });

  it("with the switch off, a batch's rows are read back in one more statement of its transaction, in input order", async () => {
    const readBacks = () => core.statements.statements.filter((t) => /^select .* from `businesses` where `businesses`\.`id` in \(/i.test(t));
    useRowsAsWritten(core.db, false);
    try {
      core.statements.reset();
      // a request's handle of the database, as add-business writes on
      const rows = await insertBusinesses(databaseUntil(core.db, performance.now() + 10_000), ["Eerste", "Tweede", "Derde"].map((name) => ({ chainId: core.chainId, name })), AT);
      expect(rows.map((r) => r.name)).toEqual(["Eerste", "Tweede", "Derde"]);
      expect(readBacks()).toHaveLength(1);
      expect(core.statements.statements.indexOf(readBacks()[0]!)).toBeLessThan(core.statements.statements.lastIndexOf("commit"));
      for (const row of rows) expect(row).toEqual(await findBusinessById(core.db, core.chainId, row.id));
    } finally {
      useRowsAsWritten(core.db, true);
    }
    core.statements.reset();
    await insertBusiness(databaseUntil(core.db, performance.now() + 10_000), { chainId: core.chainId, name: "Weer Zo Geschreven" }, AT);
    expect(readBacks()).toEqual([]);
  });

  it("updateBusiness answers exactly what a later read finds", async () => {
    const shop = await insertBusiness(core.db, { chainId: core.chainId, name: "Voor", ownerCode: "VOOR-1", latitude: 51.9, longitude: 4.4 }, NOW);
    const updated = await updateBusiness(core.db, core.chainId, shop.id, { name: "Na", ownerCode: "NA-1", latitude: 52.0, isShutDown: true }, AT);
    expect(updated).toEqual(await findBusinessById(core.db, core.chainId, shop.id));
    expect(updated).toMatchObject({ ownerCode: "NA-1", activeOwnerCode: "NA-1", lastModifiedDate: new Date("2026-11-21T10:00:00.000Z") });
  });
});

describe("the counts a write keeps", () => {
  const wordCount = async (chainId: number, token: string) =>
    (await core.db.select().from(businessSearchWordCounts).where(eq(businessSearchWordCounts.chainId, chainId)))
      .filter((c) => c.token === token)
      .reduce((sum, c) => sum + c.n, 0);
  const cellCount = async (chainId: number) =>
    (await core.db.select().from(businessGeoCellCounts).where(eq(businessGeoCellCounts.chainId, chainId))).reduce((sum, c) => sum + c.n, 0);

  it("follow inserts, renames, moves and deletes, words counted once per business", async () => {
    const chainId = await core.createChain("Counted Chain");
    const a = await insertBusiness(core.db, { chainId, name: "Kaas Kaas Winkel", ownerCode: "KW-1", latitude: 52, longitude: 5 }, NOW);
    await insertBusiness(core.db, { chainId, name: "Kaaswinkel", latitude: 52.5, longitude: 5 }, NOW);
    expect([await wordCount(chainId, "kaas"), await wordCount(chainId, "winkel"), await wordCount(chainId, "kaaswinkel"), await cellCount(chainId)]).toEqual([1, 1, 1, 2]);
    await updateBusiness(core.db, chainId, a.id, { name: "Kaas Markt", latitude: 53 }, NOW);
    expect([await wordCount(chainId, "kaas"), await wordCount(chainId, "winkel"), await wordCount(chainId, "markt"), await cellCount(chainId)]).toEqual([1, 0, 1, 2]);
    await deleteBusiness(core.db, chainId, a.id, null, NOW);
    expect([await wordCount(chainId, "kaas"), await wordCount(chainId, "markt"), await wordCount(chainId, "kw"), await cellCount(chainId)]).toEqual([0, 0, 0, 1]);
  });
});

describe("concurrent insertBusiness calls (group commit)", () => {
  const PARALLEL = 12;
  const place = (i: number) => ({ latitude: 52.09 + i * 1e-3, longitude: 5.12 });
  const total = async (chainId: number, q: { word?: string; near?: boolean }) =>
    (await searchBusinesses(core.db, {
      chainId,
      ...(q.word ? { text: { terms: [[q.word]], fields: ["name" as const], matchAll: true } } : {}),
      ...(q.near ? { location: { latitude: 52.09, longitude: 5.12, radiusKm: 50 } } : {}),
      limit: 100,
      offset: 0,
    })).total;

  it("are written in one transaction, one statement per round trip (begin, an INSERT per business, the words, two counts, the marker, commit), and each caller gets its own row", async () => {
    const chainId = await core.createChain("Grouped Chain");
    core.statements.reset();
    const rows = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) => insertBusiness(core.db, { chainId, name: `Groep Winkel ${i}`, ownerCode: `GW-${i}`, ...place(i) }, NOW)),
    );
    expect(core.statements.count).toBe(PARALLEL + 6);
    expect(core.statements.statements.filter((t) => t === "begin")).toHaveLength(1);
    expect(rows.map((r) => r.ownerCode)).toEqual(Array.from({ length: PARALLEL }, (_, i) => `GW-${i}`));
    expect(new Set(rows.map((r) => r.id)).size).toBe(PARALLEL);
    for (const row of rows) expect(row).toEqual(await findBusinessById(core.db, chainId, row.id));
    // "5" twice: a word of the name and of the owner_code
    expect(await tokensOf(rows[5]!.id)).toEqual(["5", "5", "groep", "gw", "winkel"]);
  });

  it("each call answers only once its business is searchable and counted (exact totals right after it returns)", async () => {
    const chainId = await core.createChain("Visible Chain");
    const seen = await Promise.all(
      Array.from({ length: PARALLEL }, async (_, i) => {
        const row = await insertBusiness(core.db, { chainId, name: `Zichtbaar ${i}`, ownerCode: `ZB-${i}`, ...place(i) }, NOW);
        const found = await searchBusinesses(core.db, { chainId, text: { terms: [[String(i)]], fields: ["name"], matchAll: true }, limit: 10, offset: 0 });
        return { id: row.id, foundIds: found.hits.map((h) => h.row.id), word: await total(chainId, { word: "zichtbaar" }), near: await total(chainId, { near: true }) };
      }),
    );
    for (const s of seen) {
      expect(s.foundIds).toContain(s.id);
      // at least itself, at most all: the counts include every committed business, never a pending one
      expect(s.word).toBeGreaterThanOrEqual(1);
      expect(s.near).toBeGreaterThanOrEqual(1);
    }
    expect([await total(chainId, { word: "zichtbaar" }), await total(chainId, { near: true })]).toEqual([PARALLEL, PARALLEL]);
  });

  it("a call whose owner_code is taken fails alone with 311 and writes nothing; the others of its batch are written", async () => {
    const chainId = await core.createChain("Clash Chain");
    await insertBusiness(core.db, { chainId, name: "Bezet Winkel", ownerCode: "TAKEN", ...place(0) }, NOW);
    const results = await Promise.allSettled(
      Array.from({ length: PARALLEL }, (_, i) =>
        insertBusiness(core.db, { chainId, name: `Botsing Winkel ${i}`, ownerCode: i === 4 ? "TAKEN" : `BW-${i}`, ...place(i) }, NOW),
      ),
    );
    const refused = results.flatMap((r, i) => (r.status === "rejected" ? [{ i, err: r.reason as unknown }] : []));
    expect(refused.map((r) => r.i)).toEqual([4]);
    expect(refused[0]!.err).toBeInstanceOf(ServiceError);
    expect((refused[0]!.err as ServiceError).errorName).toBe("business_already_exists");
    // the refused business left no row, no word and no count behind
    expect(await total(chainId, { word: "botsing" })).toBe(PARALLEL - 1);
    expect(await total(chainId, { word: "winkel" })).toBe(PARALLEL);
    expect(await total(chainId, { near: true })).toBe(PARALLEL);
    const [row] = (await core.db.execute(sql`SELECT COUNT(*) AS n FROM businesses WHERE chain_id = ${chainId}`)) as unknown as [[{ n: number }]];
    expect(Number(row[0].n)).toBe(PARALLEL);
    const [words] = (await core.db.execute(sql`SELECT COUNT(*) AS n FROM business_search_tokens WHERE chain_id = ${chainId} AND token = 'botsing'`)) as unknown as [[{ n: number }]];
    expect(Number(words[0].n)).toBe(PARALLEL - 1);
  });

  it("two calls with one new owner_code in the same batch: the first is written, the second is 311", async () => {
    const chainId = await core.createChain("Twin Chain");
    const results = await Promise.allSettled([
      insertBusiness(core.db, { chainId, name: "Eerste", ownerCode: "TWIN" }, NOW),
      insertBusiness(core.db, { chainId, name: "Tweede", ownerCode: "TWIN" }, NOW),
      insertBusiness(core.db, { chainId, name: "Derde", ownerCode: "OTHER" }, NOW),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(((results[1] as PromiseRejectedResult).reason as ServiceError).errorName).toBe("business_already_exists");
    expect((results[0] as PromiseFulfilledResult<{ name: string }>).value.name).toBe("Eerste");
  });
});

describe("insertBusiness with group commit off (GROUP_COMMIT=off)", () => {
  it("writes each concurrent call in a transaction of its own, each answering its own stored row", async () => {
    const chainId = await core.createChain("Alone Chain");
    useGroupCommit(core.db, false);
    try {
      core.statements.reset();
      const rows = await Promise.all(Array.from({ length: 6 }, (_, i) => insertBusiness(core.db, { chainId, name: `Alleen ${i}`, ownerCode: `AL-${i}` }, NOW)));
      expect(core.statements.statements.filter((t) => t === "begin")).toHaveLength(6);
      for (const row of rows) expect(row).toEqual(await findBusinessById(core.db, chainId, row.id));
    } finally {
      useGroupCommit(core.db, true);
    }
  });
});

describe("findBusinessesByIds", () => {
  it("returns live businesses in the order asked, skipping unknown and deleted ones", async () => {
    const a = await insertBusiness(core.db, { chainId: core.chainId, name: "A" }, NOW);
    const b = await insertBusiness(core.db, { chainId: core.chainId, name: "B" }, NOW);
    const c = await insertBusiness(core.db, { chainId: core.chainId, name: "C" }, NOW);
    await deleteBusiness(core.db, core.chainId, b.id, null, NOW);
    expect((await findBusinessesByIds(core.db, [c.id, b.id, 999999, a.id])).map((r) => r.name)).toEqual(["C", "A"]);
  });
});

describe("withLcpPrev", () => {
  it("gives each word its longest common prefix with an earlier word", () => {
    expect(withLcpPrev(["bakkerij", "bakery", "bar", "jumbo", "bakkerij2"])).toEqual([
      { token: "bakkerij", lcpPrev: 0 },
      { token: "bakery", lcpPrev: 3 },
      { token: "bar", lcpPrev: 2 },
      { token: "jumbo", lcpPrev: 0 },
      { token: "bakkerij2", lcpPrev: 8 },
    ]);
  });
  it("leaves exactly one word per prefix with lcp_prev below the prefix length", () => {
    const words = withLcpPrev(["bakkerij", "bakery", "baker", "bar", "b", "ba"]);
    for (const prefix of ["b", "ba", "bak", "bake", "baker", "bakk", "bar", "x"]) {
      const firsts = words.filter((w) => w.token.startsWith(prefix) && w.lcpPrev < prefix.length);
      expect(firsts.length).toBe(words.some((w) => w.token.startsWith(prefix)) ? 1 : 0);
    }
  });
});

describe("ROWS_AS_WRITTEN=off", () => {
  it("add-business over HTTP reads the rows back: one SELECT per transaction of new businesses, each caller answered its own row", async () => {
    const readBack = await startCore({ env: { ROWS_AS_WRITTEN: "off" } });
    try {
      const writer = await readBack.admin({ write: true });
      readBack.statements.reset();
      const answers = await Promise.all(Array.from({ length: 6 }, (_, i) =>
        readBack.json("/internal/add-business", encode("json", "POST", writer.headers, { chain_id: readBack.chainId, name: `Gelezen ${i}`, owner_code: `RB-${i}` }))));
      expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
      expect(answers.map((a) => a.body.results.business.owner_code)).toEqual(Array.from({ length: 6 }, (_, i) => `RB-${i}`));
      const sent = readBack.statements.statements;
      const inserts = sent.filter((t) => /^insert into `businesses`/i.test(t)).length;
      const transactions = sent.filter((t, i) => t === "begin" && /^insert into `businesses`/i.test(sent[i + 1] ?? "")).length;
      expect(inserts).toBe(6);
      expect(sent.filter((t) => /^select .* from `businesses` where `businesses`\.`id` in \(/i.test(t))).toHaveLength(transactions);
    } finally {
      await readBack.close();
    }
  });
});
