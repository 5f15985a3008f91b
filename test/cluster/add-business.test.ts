/**
 * add-business on the Galera cluster, where each node hands out ids in steps of 3 and a
 * transaction may be aborted by a write replicated from another node: 64 concurrent calls through
 * one node and 64 spread over two nodes, three rounds each. Every answer's id is the stored row of
 * that business, every business is found by its own unique name word, and the search's word and
 * grid-cell counts equal the rows they count.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestAdmin, type TestCore } from "../helpers/core.ts";
import { encode, query } from "../helpers/internal-calls.ts";
import { coreOn, NODE_URLS, queryNode, type ClusterCore } from "./cluster-helpers.ts";

let core: TestCore;
let admin: TestAdmin;
let node1: ClusterCore;
let node2: ClusterCore;
beforeAll(async () => {
  core = await startCore();
  admin = await core.admin({ write: true, read: true });
  node1 = coreOn(core, NODE_URLS[0]!);
  node2 = coreOn(core, NODE_URLS[1]!);
});
afterAll(async () => {
  await Promise.all([node1?.close(), node2?.close()]);
  await core?.close();
});

const CONCURRENT = 64;
let seq = 0;

/** A word no other business has: letters only (the search splits names into words). */
function uniqueWord(): string {
  let n = ++seq * 7919 + Math.floor(Math.random() * 1000) * 1_000_003;
  let word = "zq";
  while (n > 0) {
    word += String.fromCharCode(97 + (n % 26));
    n = Math.floor(n / 26);
  }
  return word;
}

/** add-business through each of `via` in turn, all at once; returns each business's word and answer. */
async function addConcurrently(via: ClusterCore[]): Promise<Array<{ word: string; status: number; id: number | undefined; body: unknown }>> {
  const calls = Array.from({ length: CONCURRENT }, async (_, i) => {
    const word = uniqueWord();
    const params = { chain_id: core.chainId, name: `Store ${word}`, latitude: 52 + (i % 8) * 0.05, longitude: 4.5 + (i % 5) * 0.05 };
    const { status, body } = await via[i % via.length]!.json("/internal/add-business", encode("json", "POST", admin.headers, params));
    return { word, status, id: (body as any)?.results?.business?.id as number | undefined, body };
  });
  return Promise.all(calls);
}

/** Rows of the word and cell counts that differ from the rows they count, and word rows of no business (all 0 when consistent). */
async function countMismatches(url: string): Promise<Record<string, number>> {
  const one = async (sql: string) => Number((await queryNode<{ n: unknown }>(url, core.dbName, sql))[0]!.n);
  return {
    words: await one(`SELECT COUNT(*) AS n FROM (
      SELECT chain_id, field, token, lcp_prev, COUNT(*) AS n FROM business_search_tokens GROUP BY chain_id, field, token, lcp_prev) w
      LEFT JOIN business_search_word_counts c USING (chain_id, field, token, lcp_prev) WHERE c.n IS NULL OR c.n <> w.n`),
    strayWords: await one(`SELECT COALESCE(SUM(c.n), 0) AS n FROM business_search_word_counts c WHERE NOT EXISTS (
      SELECT 1 FROM business_search_tokens t WHERE t.chain_id = c.chain_id AND t.field = c.field AND t.token = c.token AND t.lcp_prev = c.lcp_prev)`),
    cells: await one(`SELECT COUNT(*) AS n FROM (
      SELECT chain_id, geo_cell, COUNT(*) AS n FROM businesses WHERE geo_cell IS NOT NULL GROUP BY chain_id, geo_cell) b
      LEFT JOIN business_geo_cell_counts c USING (chain_id, geo_cell) WHERE c.n IS NULL OR c.n <> b.n`),
    strayCells: await one(`SELECT COALESCE(SUM(c.n), 0) AS n FROM business_geo_cell_counts c WHERE NOT EXISTS (
      SELECT 1 FROM businesses b WHERE b.chain_id = c.chain_id AND b.geo_cell = c.geo_cell)`),
    wordsOfNoBusiness: await one(`SELECT COUNT(*) AS n FROM business_search_tokens t WHERE NOT EXISTS (SELECT 1 FROM businesses b WHERE b.id = t.business_id)`),
  };
}

/** Checks every answer against the stored rows, the search and the counts, on every node. */
async function checkRound(answers: Awaited<ReturnType<typeof addConcurrently>>): Promise<void> {
  expect(answers.filter((a) => a.status !== 200).map((a) => [a.status, a.body])).toEqual([]);
  const ids = answers.map((a) => a.id!);
  expect(new Set(ids).size).toBe(CONCURRENT);
  const stored = await queryNode<{ id: number; name: string }>(NODE_URLS[0]!, core.dbName, `SELECT id, name FROM businesses WHERE id IN (${ids.join(",")})`);
  const nameOf = new Map(stored.map((r) => [Number(r.id), r.name]));
  expect(answers.filter((a) => nameOf.get(a.id!) !== `Store ${a.word}`).map((a) => [a.id, a.word, nameOf.get(a.id!)])).toEqual([]);
  for (const [i, a] of answers.entries()) {
    const via = i % 2 === 0 ? node2 : node1; // searched through the other node than most writes
    const found = await via.json(`/internal/get-businesses?${query({ chain_id: core.chainId, name: a.word })}`, { headers: admin.headers });
    expect(found.status).toBe(200);
    expect(found.body.results.businesses.map((b: { id: number }) => b.id), a.word).toEqual([a.id]);
  }
  for (const url of NODE_URLS) expect(await countMismatches(url), url).toEqual({ words: 0, strayWords: 0, cells: 0, strayCells: 0, wordsOfNoBusiness: 0 });
}

describe(`${CONCURRENT} concurrent add-business`, () => {
  for (let round = 1; round <= 3; round++) {
    it(`through one node (round ${round})`, async () => {
      await checkRound(await addConcurrently([node1]));
    });
    it(`across two nodes (round ${round})`, async () => {
      await checkRound(await addConcurrently([node1, node2]));
    });
  }
});
