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
import { and, asc, desc, eq, gt, like, lt, sql, sum } from "drizzle-orm";
import { alias, QueryBuilder } from "drizzle-orm/mysql-core";
import type { CoreDb } from "../db/client.ts";
import { businessSearchWordCounts } from "../db/schema.ts";
import { one, precompiled, rowArrays, rows, type Query } from "./query.ts";
import { hitsOf, pageWithRows, type PlannedPage } from "./page-rows.ts";
import { FROM_WORDS_BY_WORD, prefixPattern, t } from "./search-sql.ts";

/** Merge at most this many (word, lcp_prev) runs; beyond it, sort. */
const MAX_RUNS = 64;
/** Merge only while the runs together read at most this many index entries. */
const MAX_MERGED_ENTRIES = 20_000;

type Run = { token: string; lcp_prev: number; n: number };

const qb = new QueryBuilder();
const counted = alias(businessSearchWordCounts, "c");
/** Placeholders of the prefix's statements (each precompiled: query.ts). */
const CHAIN = sql.placeholder("chain");
const FIELD = sql.placeholder("field");
const PATTERN = sql.placeholder("pattern");
const LENGTH = sql.placeholder("length");
const WANTED = sql.placeholder("wanted");
const LIMIT = sql.placeholder("limit");
const OFFSET = sql.placeholder("offset");

/** The runs of the prefix: its (word, lcp_prev) pairs holding entries (see the module comment). */
const RUNS_UNDER = and(eq(counted.chainId, CHAIN), eq(counted.field, FIELD), like(counted.token, PATTERN), lt(counted.lcpPrev, LENGTH), gt(counted.n, 0))!;
const RUNS = () =>
  qb
    .select({ token: counted.token, lcp_prev: counted.lcpPrev, n: counted.n })
    .from(counted)
    .where(RUNS_UNDER)
    .orderBy(counted.token, counted.lcpPrev)
    .limit(MAX_RUNS + 1);
const RUNS_SUM = () => qb.select({ n: sql<number>`COALESCE(${sum(counted.n)}, 0)`.as("n") }).from(counted).where(RUNS_UNDER);

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
  const prefix = { chain: chainId, field, pattern: prefixPattern(word), length: [...word].length };
  const runs = rows<Run>(db, precompiled("prefix-runs", RUNS, prefix));
  const hits = runs.then(async (found) => {
    const page = { ...prefix, wanted: offset + limit, limit, offset };
    const merged = found.length <= MAX_RUNS && found.reduce((total, r) => total + Math.min(Number(r.n), page.wanted), 0) <= MAX_MERGED_ENTRIES;
    if (found.length === 0) return { hits: [] };
    return { hits: hitsOf(await rowArrays(db, merged ? mergedPage(found, page, descending) : sortedPage(page, descending))) };
  });
  return {
    hits,
    total: async () => {
      const found = await runs;
      if (found.length <= MAX_RUNS) return found.reduce((total, r) => total + Number(r.n), 0);
      return Number((await one<{ n: number }>(db, precompiled("prefix-sum", RUNS_SUM, prefix)))?.n ?? 0);
    },
  };
}

/** The values of a page's placeholders. */
type PageValues = { chain: number; field: number; pattern: string; length: number; wanted: number; limit: number; offset: number };

/** The page sorted from every entry under the prefix (too many runs to merge). */
function sortedPage(values: PageValues, descending: boolean): Query {
  const build = () =>
    pageWithRows({
      sql: sql`SELECT ${t.businessId} AS id, NULL AS distance_km FROM ${FROM_WORDS_BY_WORD}
        WHERE ${t.chainId} = ${CHAIN} AND ${t.field} = ${FIELD} AND ${t.token} LIKE ${PATTERN} AND ${t.lcpPrev} < ${LENGTH}
        ORDER BY ${descending ? desc(t.businessId) : asc(t.businessId)} LIMIT ${LIMIT} OFFSET ${OFFSET}`,
      order: [{ column: "id", descending }],
    });
  const { wanted: _wanted, ...used } = values;
  return precompiled(`prefix-sorted:${descending}`, build, used);
}

/** A run that holds no entry (no stored word is empty): pads the runs to a power of two. */
const NO_RUN: Run = { token: "", lcp_prev: 0, n: 0 };

/**
 * The page merged from the first offset + limit ids of each run (at least one). The runs are
 * padded to a power of two with runs holding nothing: one statement per size class and order.
 */
function mergedPage(runs: readonly Run[], values: PageValues, descending: boolean): Query {
  const size = 2 ** Math.ceil(Math.log2(runs.length));
  const all = [...runs, ...Array.from({ length: size - runs.length }, () => NO_RUN)];
  const build = () => {
    const parts = all.map(
      (_, i) => sql`(SELECT ${t.businessId} FROM ${FROM_WORDS_BY_WORD}
        WHERE ${t.chainId} = ${CHAIN} AND ${t.field} = ${FIELD} AND ${t.token} = ${sql.placeholder(`tokens[${i}]`)} AND ${t.lcpPrev} = ${sql.placeholder(`lcps[${i}]`)}
        ORDER BY ${descending ? desc(t.businessId) : asc(t.businessId)} LIMIT ${WANTED})`,
    );
    return pageWithRows({
      sql: sql`SELECT business_id AS id, NULL AS distance_km FROM (${sql.join(parts, sql` UNION ALL `)}) u
        ORDER BY business_id ${descending ? sql`DESC` : sql`ASC`} LIMIT ${LIMIT} OFFSET ${OFFSET}`,
      order: [{ column: "id", descending }],
    });
  };
  const { pattern: _pattern, length: _length, ...used } = values;
  const lists = { tokens: all.map((r) => r.token), lcps: all.map((r) => Number(r.lcp_prev)) };
  return precompiled(`prefix-merged:${size}:${descending}`, build, { ...used, ...lists });
}
