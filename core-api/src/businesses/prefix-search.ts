/**
 * The usual text search, one word prefix in one field with no location (spec, "List parameters":
 * word-prefix match), answered from the narrow word index (chain_id, field, token, lcp_prev)
 * plus the business id every index entry carries, in at most three statements (issue 12: it took
 * one index dive per distinct word, one after the other).
 *
 * - one range read of the kept per-word counts (business_search_word_counts) under the prefix
 *   names its runs: the (word, lcp_prev) pairs with lcp_prev < the prefix's length that hold
 *   entries, with how many. Of a business's words starting with the prefix exactly one has
 *   lcp_prev < the prefix's length (word-index.ts), so the total is the sum of those counts;
 * - page: within one run the entries are in business-id order, so the page merges the first
 *   offset + limit ids of each run instead of sorting every match. When the prefix has too many
 *   runs (a one-letter prefix), the page sorts the matches instead, and the total, when asked
 *   for, is one SUM over the counts;
 * - the page's rows (businesses/search.ts).
 */
import { sql, type SQL } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { one, rows } from "./query.ts";
import { escapeLike } from "./text.ts";

/** Merge at most this many (word, lcp_prev) runs; beyond it, sort. */
const MAX_RUNS = 64;
/** Merge only while the runs together read at most this many index entries. */
const MAX_MERGED_ENTRIES = 20_000;

type Run = { token: string; lcp_prev: number; n: number };

/**
 * One page of the businesses of `chainId` with a word in field `field` (TOKEN_FIELD code)
 * starting with `word`, by business id, and how to count them all.
 * @returns the page's query, already sent; `total` reads the counts the page read, or sums them
 *   when the prefix had too many runs to read them one by one
 */
export function prefixPage(
  db: CoreDb,
  chainId: number,
  field: number,
  word: string,
  limit: number,
  offset: number,
  descending: boolean,
): { rows: Promise<Array<{ id: number; distance_km: null }>>; total: () => Promise<number> } {
  const length = [...word].length;
  const like = `${escapeLike(word)}%`;
  const counts = sql`FROM business_search_word_counts c
    WHERE c.chain_id = ${chainId} AND c.field = ${field} AND c.token LIKE ${like} AND c.lcp_prev < ${length} AND c.n > 0`;
  const runs = rows<Run>(db, sql`SELECT c.token, c.lcp_prev, c.n ${counts} ORDER BY c.token, c.lcp_prev LIMIT ${MAX_RUNS + 1}`);
  const page = runs.then(async (found) => {
    const wanted = offset + limit;
    const merged = found.length <= MAX_RUNS && found.reduce((sum, r) => sum + Math.min(Number(r.n), wanted), 0) <= MAX_MERGED_ENTRIES;
    return merged ? mergedPage(db, chainId, field, found, limit, offset, descending) : sortedPage(db, chainId, field, like, length, limit, offset, descending);
  });
  return {
    rows: page.then((ids) => ids.map((id) => ({ id, distance_km: null }))),
    total: async () => {
      const found = await runs;
      if (found.length <= MAX_RUNS) return found.reduce((sum, r) => sum + Number(r.n), 0);
      return Number((await one<{ n: number }>(db, sql`SELECT COALESCE(SUM(c.n), 0) AS n ${counts}`))?.n ?? 0);
    },
  };
}

/** The page sorted from every entry under the prefix (too many runs to merge). */
async function sortedPage(
  db: CoreDb,
  chainId: number,
  field: number,
  like: string,
  length: number,
  limit: number,
  offset: number,
  descending: boolean,
): Promise<number[]> {
  const found = await rows<{ id: number }>(
    db,
    sql`SELECT t.business_id AS id FROM business_search_tokens t FORCE INDEX (business_search_tokens_by_word)
      WHERE t.chain_id = ${chainId} AND t.field = ${field} AND t.token LIKE ${like} AND t.lcp_prev < ${length}
      ORDER BY t.business_id ${descending ? sql`DESC` : sql`ASC`} LIMIT ${limit} OFFSET ${offset}`,
  );
  return found.map((r) => r.id);
}

/** The page merged from the first offset + limit ids of each run. */
async function mergedPage(
  db: CoreDb,
  chainId: number,
  field: number,
  runs: readonly Run[],
  limit: number,
  offset: number,
  descending: boolean,
): Promise<number[]> {
  if (runs.length === 0) return [];
  const order = descending ? sql`DESC` : sql`ASC`;
  const wanted = offset + limit;
  const parts: SQL[] = runs.map(
    (r) => sql`(SELECT t.business_id FROM business_search_tokens t FORCE INDEX (business_search_tokens_by_word)
      WHERE t.chain_id = ${chainId} AND t.field = ${field} AND t.token = ${r.token} AND t.lcp_prev = ${r.lcp_prev}
      ORDER BY t.business_id ${order} LIMIT ${wanted})`,
  );
  const merged = await rows<{ business_id: number }>(
    db,
    sql`SELECT business_id FROM (${sql.join(parts, sql` UNION ALL `)}) r
      ORDER BY business_id ${order} LIMIT ${limit} OFFSET ${offset}`,
  );
  return merged.map((r) => r.business_id);
}
