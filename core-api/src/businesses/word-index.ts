/**
 * Writes to the business word index (business_search_tokens) and its per-word counts
 * (business_search_word_counts), always together and inside the caller's transaction, so the
 * counts prefix searches sum never drift from the words they count.
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

/** Adds `rows` to the word index and its counts. */
export async function addWords(tx: Tx, rows: WordRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 5000) await tx.insert(businessSearchTokens).values(rows.slice(i, i + 5000));
  await adjustCounts(tx, rows, 1);
}

/** Removes every word of business `businessId` from the index and its counts. */
export async function removeWords(tx: Tx, businessId: number): Promise<void> {
  const rows = await tx.select().from(businessSearchTokens).where(eq(businessSearchTokens.businessId, businessId)).for("update");
  if (rows.length === 0) return;
  await tx.delete(businessSearchTokens).where(eq(businessSearchTokens.businessId, businessId));
  await adjustCounts(tx, rows, -1);
}

// Keys are summed first and written in one sorted statement: a fixed lock order, so concurrent
// writers of the same words queue instead of deadlocking.
async function adjustCounts(tx: Tx, rows: WordRow[], sign: 1 | -1): Promise<void> {
  const counts = new Map<string, { chainId: number; field: number; token: string; lcpPrev: number; n: number }>();
  for (const r of rows) {
    const key = `${r.chainId}\u0000${r.field}\u0000${r.token}\u0000${r.lcpPrev}`;
    const c = counts.get(key) ?? { chainId: r.chainId, field: r.field, token: r.token, lcpPrev: r.lcpPrev ?? 0, n: 0 };
    c.n += sign;
    counts.set(key, c);
  }
  const values = [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
  for (let i = 0; i < values.length; i += 5000) {
    await tx
      .insert(businessSearchWordCounts)
      .values(values.slice(i, i + 5000))
      .onDuplicateKeyUpdate({ set: { n: sql`${businessSearchWordCounts.n} + VALUES(${businessSearchWordCounts.n})` } });
  }
}
