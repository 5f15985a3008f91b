/**
 * The usual text search, one word prefix in one field with no location (spec, "List parameters":
 * word-prefix match), answered from the narrow word index (chain_id, field, token, lcp_prev)
 * plus the business id every index entry carries, in at most three statements (instead of one index
 * dive per distinct word, one after the other).
 *
 * - one range read of the kept per-word counts (business_search_word_counts) under the prefix
 *   names its runs: the (word, lcp_prev) pairs with lcp_prev < the prefix's length that hold
 *   entries, with how many. Of a business's words starting with the prefix exactly one has
 *   lcp_prev < the prefix's length (word-index.ts), so the total is the sum of those counts;
 * - page: within one run the entries are in business-id order, so the page merges the first
 *   offset + limit ids of each run instead of sorting every match. When the prefix has too many
 *   runs (a one-letter prefix), the page sorts the matches instead, and the total, when asked
 *   for, is one SUM over the counts;
 * - the page's rows, read with the page (businesses/search.ts, pageWithRows).
 */
import type { CoreDb } from "../db/client.ts";
import { int, one, rows, str } from "./query.ts";
import { pageHits, type PageStatement, type PlannedPage } from "./page-rows.ts";
import { escapeLike } from "./text.ts";

/** Merge at most this many (word, lcp_prev) runs; beyond it, sort. */
const MAX_RUNS = 64;
/** Merge only while the runs together read at most this many index entries. */
const MAX_MERGED_ENTRIES = 20_000;

type Run = { token: string; lcp_prev: number; n: number };

/**
 * One page of the businesses of `chainId` with a word in field `field` (TOKEN_FIELD code)
 * starting with `word`, by business id, and how to count them all.
 * @returns the page's hits, its statements already sent; `total` reads the counts the page read,
 *   or sums them when the prefix had too many runs to read them one by one
 */
export function prefixPage(
  db: CoreDb,
  chainId: number,
  field: number,
  word: string,
  limit: number,
  offset: number,
  descending: boolean,
): PlannedPage {
  const length = [...word].length;
  const like = str(`${escapeLike(word)}%`);
  const counts = `FROM business_search_word_counts c
    WHERE c.chain_id = ${int(chainId)} AND c.field = ${int(field)} AND c.token LIKE ${like} AND c.lcp_prev < ${int(length)} AND c.n > 0`;
  const runs = rows<Run>(db, `SELECT c.token, c.lcp_prev, c.n ${counts} ORDER BY c.token, c.lcp_prev LIMIT ${int(MAX_RUNS + 1)}`);
  const hits = runs.then(async (found) => {
    const wanted = offset + limit;
    const merged = found.length <= MAX_RUNS && found.reduce((sum, r) => sum + Math.min(Number(r.n), wanted), 0) <= MAX_MERGED_ENTRIES;
    const page = merged ? mergedPage(chainId, field, found, limit, offset, descending) : sortedPage(chainId, field, like, length, limit, offset, descending);
    return { hits: page === null ? [] : await pageHits(db, page) };
  });
  return {
    hits,
    total: async () => {
      const found = await runs;
      if (found.length <= MAX_RUNS) return found.reduce((sum, r) => sum + Number(r.n), 0);
      return Number((await one<{ n: number }>(db, `SELECT COALESCE(SUM(c.n), 0) AS n ${counts}`))?.n ?? 0);
    },
  };
}

/** The page sorted from every entry under the prefix (too many runs to merge); `like` is the escaped pattern. */
function sortedPage(chainId: number, field: number, like: string, length: number, limit: number, offset: number, descending: boolean): PageStatement {
  const order = descending ? "DESC" : "ASC";
  return {
    sql: `SELECT t.business_id AS id, NULL AS distance_km FROM business_search_tokens t FORCE INDEX (business_search_tokens_by_word)
      WHERE t.chain_id = ${int(chainId)} AND t.field = ${int(field)} AND t.token LIKE ${like} AND t.lcp_prev < ${int(length)}
      ORDER BY t.business_id ${order} LIMIT ${int(limit)} OFFSET ${int(offset)}`,
    order: [`id ${order}`],
  };
}

/** The page merged from the first offset + limit ids of each run; null without runs. */
function mergedPage(chainId: number, field: number, runs: readonly Run[], limit: number, offset: number, descending: boolean): PageStatement | null {
  if (runs.length === 0) return null;
  const order = descending ? "DESC" : "ASC";
  const wanted = offset + limit;
  const parts = runs.map(
    (r) => `(SELECT t.business_id FROM business_search_tokens t FORCE INDEX (business_search_tokens_by_word)
      WHERE t.chain_id = ${int(chainId)} AND t.field = ${int(field)} AND t.token = ${str(r.token)} AND t.lcp_prev = ${int(Number(r.lcp_prev))}
      ORDER BY t.business_id ${order} LIMIT ${int(wanted)})`,
  );
  return {
    sql: `SELECT business_id AS id, NULL AS distance_km FROM (${parts.join(" UNION ALL ")}) u
      ORDER BY business_id ${order} LIMIT ${int(limit)} OFFSET ${int(offset)}`,
    order: [`id ${order}`],
  };
}
