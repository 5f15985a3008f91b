/**
 * The usual text search, one word prefix in one field with no location (spec, "List parameters":
 * word-prefix match), answered from the narrow word index (chain_id, field, token, lcp_prev)
 * plus the business id every index entry carries.
 *
 * - total: of a business's words starting with the prefix, exactly one has lcp_prev < the
 *   prefix's length (word-index.ts), so the total is the sum of the kept per-word counts
 *   (business_search_word_counts) over the prefix's few distinct words;
 * - page: the distinct words starting with the prefix are few (bak: bakery, bakker, bakkerij ...),
 *   and within one (word, lcp_prev) the entries are in business-id order; so the page merges the
 *   first offset + limit ids of each such run instead of sorting every match. When the prefix
 *   has too many distinct words (a one-letter prefix), the page sorts the matches instead.
 */
import { sql, type SQL } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { one, rows } from "./query.ts";
import { escapeLike } from "./text.ts";

/** Merge at most this many (word, lcp_prev) runs; beyond it, sort. */
const MAX_RUNS = 64;
/** Merge only while the runs together read at most this many index entries. */
const MAX_MERGED_ENTRIES = 20_000;

/**
 * One page of the businesses of `chainId` with a word in field `field` (TOKEN_FIELD code)
 * starting with `word`, by business id, and their total.
 */
export function prefixPage(
  db: CoreDb,
  chainId: number,
  field: number,
  word: string,
  limit: number,
  offset: number,
  descending: boolean,
): { rows: Promise<Array<{ id: number; distance_km: null }>>; total: Promise<number> } {
  const length = [...word].length;
  const like = `${escapeLike(word)}%`;
  const range = sql`FROM business_search_tokens t FORCE INDEX (business_search_tokens_by_word)
    WHERE t.chain_id = ${chainId} AND t.field = ${field} AND t.token LIKE ${like}`;
  const page = mergedPage(db, chainId, field, like, length, limit, offset, descending).then(
    (merged) => merged ?? sortedPage(db, range, length, limit, offset, descending),
  );
  return {
    rows: page.then((ids) => ids.map((id) => ({ id, distance_km: null }))),
    total: one<{ n: number }>(
      db,
      sql`SELECT COALESCE(SUM(c.n), 0) AS n FROM business_search_word_counts c
        WHERE c.chain_id = ${chainId} AND c.field = ${field} AND c.token LIKE ${like} AND c.lcp_prev < ${length}`,
    ).then((c) => Number(c?.n ?? 0)),
  };
}

async function sortedPage(db: CoreDb, range: SQL, length: number, limit: number, offset: number, descending: boolean) {
  const found = await rows<{ id: number }>(
    db,
    sql`SELECT t.business_id AS id ${range} AND t.lcp_prev < ${length}
      ORDER BY t.business_id ${descending ? sql`DESC` : sql`ASC`} LIMIT ${limit} OFFSET ${offset}`,
  );
  return found.map((r) => r.id);
}

/** The page by merging per-word runs, or null when there are too many runs for that to pay. */
async function mergedPage(
  db: CoreDb,
  chainId: number,
  field: number,
  like: string,
  length: number,
  limit: number,
  offset: number,
  descending: boolean,
): Promise<number[] | null> {
  const wanted = offset + limit;
  const maxWords = Math.floor(MAX_RUNS / length);
  if (maxWords < 1 || maxWords * wanted > MAX_MERGED_ENTRIES) return null;
  // Distinct words by skipping from one to the next through the index: each step is one index
  // dive (ORDER BY token LIMIT 1). Done from here, a step at a time: a recursive CTE doing the
  // same is not given single dives by MariaDB and costs more than the steps' round trips.
  const words: string[] = [];
  for (let after: string | null = null; words.length <= maxWords; ) {
    const step: { token: string } | undefined = await one<{ token: string }>(
      db,
      sql`SELECT t.token FROM business_search_tokens t FORCE INDEX (business_search_tokens_by_word)
        WHERE t.chain_id = ${chainId} AND t.field = ${field} AND t.token LIKE ${like}
          ${after === null ? sql`` : sql`AND t.token > ${after}`}
        ORDER BY t.token LIMIT 1`,
    );
    if (!step) break;
    words.push(step.token);
    after = step.token;
  }
  if (words.length === 0) return [];
  if (words.length > maxWords) return null;
  const order = descending ? sql`DESC` : sql`ASC`;
  const runs: SQL[] = [];
  for (const token of words) {
    for (let lcp = 0; lcp < length; lcp++) {
      runs.push(sql`(SELECT t.business_id FROM business_search_tokens t FORCE INDEX (business_search_tokens_by_word)
        WHERE t.chain_id = ${chainId} AND t.field = ${field} AND t.token = ${token} AND t.lcp_prev = ${lcp}
        ORDER BY t.business_id ${order} LIMIT ${wanted})`);
    }
  }
  const merged = await rows<{ business_id: number }>(
    db,
    sql`SELECT business_id FROM (${sql.join(runs, sql` UNION ALL `)}) r
      ORDER BY business_id ${order} LIMIT ${limit} OFFSET ${offset}`,
  );
  return merged.map((r) => r.business_id);
}
