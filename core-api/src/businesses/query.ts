/**
 * Runs the search's statements: drizzle queries (the query builder, or `sql` templates where it
 * lacks a construct), every value a bound parameter, sent as server-side prepared statements
 * (mysql2 `execute`: the server parses a text once per connection, and the binary protocol binds a
 * coordinate as a DOUBLE, which a distance computes with directly, where a decimal literal in a
 * text is converted again for every row). The search keeps its texts few (lists padded to a
 * power of two: search-sql.ts), so the prepared statements of a connection stay few too.
 * Rows come back as compileSelect reads them: whole business rows through tableRows
 * (db/compiled-select.ts).
 */
import type { SQL, SQLWrapper } from "drizzle-orm";
import { MySqlDialect } from "drizzle-orm/mysql-core";
import type { CoreDb } from "../db/client.ts";

/** Turns drizzle queries into their text and values (no database needed). */
const dialect = new MySqlDialect();

/** The text and values of `query` (a builder's own rendering, or the dialect's for an `sql` template). */
function rendered(query: SQL | SQLWrapper): { sql: string; params: unknown[] } {
  const built = query as { toSQL?: () => { sql: string; params: unknown[] } };
  return built.toSQL ? built.toSQL() : dialect.sqlToQuery(query.getSQL());
}

/** Runs `query` and returns its rows (objects by column name). */
export async function rows<T>(db: CoreDb, query: SQL | SQLWrapper): Promise<T[]> {
  const { sql, params } = rendered(query);
  const [result] = (await db.$client.execute(sql, params as never)) as unknown as [T[]];
  return result;
}

/** Runs `query` and returns its rows as arrays (column order), for tableRows. */
export async function rowArrays(db: CoreDb, query: SQL | SQLWrapper): Promise<unknown[][]> {
  const { sql, params } = rendered(query);
  const [result] = (await db.$client.execute({ sql, rowsAsArray: true }, params as never)) as unknown as [unknown[][]];
  return result;
}

/** Runs `query` and returns its first row, if any. */
export async function one<T>(db: CoreDb, query: SQL | SQLWrapper): Promise<T | undefined> {
  return (await rows<T>(db, query))[0];
}

/**
 * `items` padded to the next power of two by repeating the last one (none when empty): a list of
 * any length up to it then gives the same statement text, so a connection prepares one statement
 * per size class. Only for lists whose repeats change nothing (OR-ed ranges, IN lists).
 */
export function padded<T>(items: readonly T[]): T[] {
  if (items.length === 0) return [];
  const size = 2 ** Math.ceil(Math.log2(items.length));
  return Array.from({ length: size }, (_, i) => items[Math.min(i, items.length - 1)]!);
}
