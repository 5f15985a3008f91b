/**
 * Writes to the business word index (business_search_tokens) and its per-word counts
 * (business_search_word_counts), both inside the caller's transaction (the caller counts what it
 * inserted and deleted, last: businesses/business-repository.ts), so the counts prefix searches
 * sum never drift from the words they count.
 */
import { eq, sql } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { businessSearchTokens, businessSearchWordCounts } from "../db/schema.ts";
import { geoRow } from "./geo.ts";
import { tokenize } from "./text.ts";

export type Tx = Parameters<Parameters<CoreDb["transaction"]>[0]>[0];

/** Token field codes of the word index. */
export const TOKEN_FIELD = { name: 1, owner_code: 2 } as const;

type WordRow = typeof businessSearchTokens.$inferInsert;

/** The word-index rows of a business; each carries the business's coordinates (see schema). */
export function tokenRows(
  chainId: number,
  businessId: number,
  b: { name?: string | null; ownerCode?: string | null; latitude?: number | null; longitude?: number | null },
): WordRow[] {
  const coords = { latitude: b.latitude ?? null, longitude: b.longitude ?? null, geoRow: geoRow(b.latitude) };
  const rows = (field: number, text: string | null | undefined) =>
    withLcpPrev(tokenize(text)).map(({ token, lcpPrev }) => ({ chainId, businessId, field, token, lcpPrev, ...coords }));
  return [...rows(TOKEN_FIELD.name, b.name), ...rows(TOKEN_FIELD.owner_code, b.ownerCode)];
}

/**
 * Each word with the longest common prefix it shares with any earlier word (see the lcp_prev
 * column): of the words starting with a given prefix, only the first has lcp_prev < its length.
 */
export function withLcpPrev(words: string[]): Array<{ token: string; lcpPrev: number }> {
  // Characters, not UTF-16 units, as SQL's CHAR_LENGTH counts them.
  const chars = words.map((w) => [...w]);
  return words.map((token, i) => {
    let lcpPrev = 0;
    for (const earlier of chars.slice(0, i)) {
      const mine = chars[i]!;
      let n = 0;
      while (n < mine.length && n < earlier.length && mine[n] === earlier[n]) n++;
      lcpPrev = Math.max(lcpPrev, n);
    }
    return { token, lcpPrev };
  });
}

/** Most rows of one multi-row INSERT (a bulk load of thousands of businesses takes several). */
export const ROWS_PER_INSERT = 5000;

/** `rows` in slices of at most ROWS_PER_INSERT. */
export function slices<T>(rows: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) out.push(rows.slice(i, i + ROWS_PER_INSERT));
  return out;
}

/** Adds `rows` to the word index; the caller counts them (countWords) in the same transaction. */
export async function insertWords(tx: Tx, rows: readonly WordRow[]): Promise<void> {
  for (const slice of slices(rows)) await tx.insert(businessSearchTokens).values(slice);
}

/**
 * Removes every word of business `businessId` from the word index.
 * @returns the words removed, for the caller to count (countWords) in the same transaction
 */
export async function deleteWords(tx: Tx, businessId: number): Promise<WordRow[]> {
  const rows = await tx.select().from(businessSearchTokens).where(eq(businessSearchTokens.businessId, businessId)).for("update");
  if (rows.length > 0) await tx.delete(businessSearchTokens).where(eq(businessSearchTokens.businessId, businessId));
  return rows;
}

/**
 * The changes of the per-word counts that removed and added words make, keys summed and sorted:
 * a fixed lock order, so concurrent writers of the same words queue instead of deadlocking.
 */
function wordCountChanges(removed: readonly WordRow[], added: readonly WordRow[]): WordCount[] {
  const counts = new Map<string, WordCount>();
  const count = (r: WordRow, sign: 1 | -1) => {
    const key = `${r.chainId}\u0000${r.field}\u0000${r.token}\u0000${r.lcpPrev}`;
    const c = counts.get(key) ?? { chainId: r.chainId, field: r.field, token: r.token, lcpPrev: r.lcpPrev ?? 0, n: 0 };
    c.n += sign;
    counts.set(key, c);
  };
  for (const r of removed) count(r, -1);
  for (const r of added) count(r, 1);
  return [...counts.entries()].filter(([, v]) => v.n !== 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
}

type WordCount = { chainId: number; field: number; token: string; lcpPrev: number; n: number };

/**
 * Applies removed and added words to the per-word counts in `tx` (one upsert, unless thousands of
 * words change). Run it last in the write's transaction: the count rows of common words are
 * shared by every writer, so their locks should be held only until the commit that follows.
 */
export async function countWords(tx: Tx, removed: readonly WordRow[], added: readonly WordRow[]): Promise<void> {
  for (const slice of slices(wordCountChanges(removed, added))) {
    await tx.insert(businessSearchWordCounts).values(slice).onDuplicateKeyUpdate({ set: { n: ADD_N } });
  }
}

/** `n = n + VALUES(n)`: an upsert adds its count to the stored one. */
export const ADD_N = sql`${sql.identifier("n")} + VALUES(${sql.identifier("n")})`;
