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
import { and, asc, desc, eq, gt, like, lt, sql, sum, type SQL } from "drizzle-orm";
import { alias, QueryBuilder } from "drizzle-orm/mysql-core";
import type { CoreDb } from "../db/client.ts";
import { businessSearchWordCounts } from "../db/schema.ts";
import { one, rows } from "./query.ts";
import { pageHits, type PageStatement, type PlannedPage } from "./page-rows.ts";
import { FROM_WORDS_BY_WORD, prefixPattern, t } from "./search-sql.ts";

/** Merge at most this many (word, lcp_prev) runs; beyond it, sort. */
const MAX_RUNS = 64;
/** Merge only while the runs together read at most this many index entries. */
const MAX_MERGED_ENTRIES = 20_000;

type Run = { token: string; lcp_prev: number; n: number };

const qb = new QueryBuilder();
const counted = alias(businessSearchWordCounts, "c");

/** The runs of the prefix: its (word, lcp_prev) pairs holding entries (see the module comment). */
function runsUnder(chainId: number, field: number, word: string): SQL {
  return and(
    eq(counted.chainId, chainId),
    eq(counted.field, field),
    like(counted.token, prefixPattern(word)),
    lt(counted.lcpPrev, [...word].length),
    gt(counted.n, 0),
  )!;
}

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
  const where = runsUnder(chainId, field, word);
  const runs = rows<Run>(
    db,
    qb
      .select({ token: counted.token, lcp_prev: counted.lcpPrev, n: counted.n })
      .from(counted)
      .where(where)
      .orderBy(counted.token, counted.lcpPrev)
      .limit(MAX_RUNS + 1),
  );
  const hits = runs.then(async (found) => {
    const wanted = offset + limit;
    const merged = found.length <= MAX_RUNS && found.reduce((total, r) => total + Math.min(Number(r.n), wanted), 0) <= MAX_MERGED_ENTRIES;
    const page = merged ? mergedPage(chainId, field, found, limit, offset, descending) : sortedPage(chainId, field, word, limit, offset, descending);
    return { hits: page === null ? [] : await pageHits(db, page) };
  });
  return {
    hits,
    total: async () => {
      const found = await runs;
      if (found.length <= MAX_RUNS) return found.reduce((total, r) => total + Number(r.n), 0);
      const all = await one<{ n: number }>(db, qb.select({ n: sql<number>`COALESCE(${sum(counted.n)}, 0)`.as("n") }).from(counted).where(where));
      return Number(all?.n ?? 0);
    },
  };
}

/** The page sorted from every entry under the prefix (too many runs to merge). */
function sortedPage(chainId: number, field: number, word: string, limit: number, offset: number, descending: boolean): PageStatement {
  const order = descending ? desc(t.businessId) : asc(t.businessId);
  return {
    sql: sql`SELECT ${t.businessId} AS id, NULL AS distance_km FROM ${FROM_WORDS_BY_WORD}
      WHERE ${t.chainId} = ${chainId} AND ${t.field} = ${field} AND ${t.token} LIKE ${prefixPattern(word)} AND ${t.lcpPrev} < ${[...word].length}
      ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`,
    order: [{ column: "id", descending }],
  };
}

/** A run that holds no entry (no stored word is empty): pads the runs to a power of two. */
const NO_RUN: Run = { token: "", lcp_prev: 0, n: 0 };

/**
 * The page merged from the first offset + limit ids of each run; null without runs. The runs are
 * padded to a power of two with runs holding nothing, so a connection prepares one statement per
 * size class.
 */
function mergedPage(chainId: number, field: number, runs: readonly Run[], limit: number, offset: number, descending: boolean): PageStatement | null {
  if (runs.length === 0) return null;
  const order = descending ? desc(t.businessId) : asc(t.businessId);
  const size = 2 ** Math.ceil(Math.log2(runs.length));
  const all = [...runs, ...Array.from({ length: size - runs.length }, () => NO_RUN)];
  const parts = all.map(
    (r) => sql`(SELECT ${t.businessId} FROM ${FROM_WORDS_BY_WORD}
      WHERE ${t.chainId} = ${chainId} AND ${t.field} = ${field} AND ${t.token} = ${r.token} AND ${t.lcpPrev} = ${Number(r.lcp_prev)}
      ORDER BY ${order} LIMIT ${offset + limit})`,
  );
  return {
    sql: sql`SELECT business_id AS id, NULL AS distance_km FROM (${sql.join(parts, sql` UNION ALL `)}) u
      ORDER BY business_id ${descending ? sql`DESC` : sql`ASC`} LIMIT ${limit} OFFSET ${offset}`,
    order: [{ column: "id", descending }],
  };
}
