/**
 * The search's hand-written statements, run on the pool directly as text: built as SQL text from
 * values the search computed or checked itself, with every value written as a literal here, so
 * nothing is built twice (no drizzle `sql` template turned into text per request, no client-side
 * interpolation pass of mysql2), and with the literal types the server computes fastest with:
 * - whole numbers (ids, grid cells, limits) as integers;
 * - coordinates, radii and the Earth's diameter as DOUBLE literals (`5.23791e+1`): a decimal
 *   literal (`52.3791`) in a distance is converted to a double again for every row (about a
 *   quarter of the distance's cost). Both forms are the same double (the shortest decimal form
 *   of a double reads back as that double), so every distance and comparison is the same;
 * - text through mysql2's own escaping (what its interpolation of `?` did).
 * Rows come back as the text protocol reads them: ids, words, counts and distances; whole
 * business rows through tableRows (db/compiled-select.ts), decoded as the compiled reads are.
 */
import { escape } from "mysql2/promise";
import type { CoreDb } from "../db/client.ts";

/** Runs `text` and returns its rows (objects by column name). */
export async function rows<T>(db: CoreDb, text: string): Promise<T[]> {
  const [result] = (await db.$client.query(text)) as unknown as [T[]];
  return result;
}

/** Runs `text` and returns its rows as arrays (column order), for tableRows. */
export async function rowArrays(db: CoreDb, text: string): Promise<unknown[][]> {
  const [result] = (await db.$client.query({ sql: text, rowsAsArray: true })) as unknown as [unknown[][]];
  return result;
}

/** Runs `text` and returns its first row, if any. */
export async function one<T>(db: CoreDb, text: string): Promise<T | undefined> {
  return (await rows<T>(db, text))[0];
}

/**
 * A whole number as an SQL integer literal.
 * @throws Error for anything else (a bug: the search passes only checked integers)
 */
export function int(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error(`search SQL: ${n} is not an integer`);
  return String(n);
}

/**
 * A finite number as an SQL DOUBLE literal (exponent form; negative ones in parentheses, so no
 * `- -` can read as a comment).
 * @throws Error for NaN or an infinity (a bug: the search passes only checked numbers)
 */
export function dbl(x: number): string {
  if (!Number.isFinite(x)) throw new Error(`search SQL: ${x} is not a finite number`);
  const text = x.toExponential();
  return x < 0 ? `(${text})` : text;
}

/** A text as an escaped SQL string literal. */
export function str(s: string): string {
  return escape(s);
}
