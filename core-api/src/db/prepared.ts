/**
 * Statements of the hot paths prepared once per database with drizzle's own `.prepare()`: drizzle
 * builds a query's SQL text from its builder on every call, which on a per-request statement (the
 * caller's check) cost more than the driver's own work. A prepared drizzle query keeps the text
 * and takes its values as placeholders (`sql.placeholder(name)`); its rows are read as every other
 * drizzle select reads them.
 *
 * @example
 *   const byKey = (db: CoreDb) => preparedFor(db, "session-by-key", () =>
 *     db.select().from(sessions).where(eq(sessions.keyHash, sql.placeholder("keyHash"))).prepare());
 *   const rows = await byKey(db).execute({ keyHash });
 */
import type { CoreDb } from "./client.ts";

const built = new WeakMap<CoreDb, Map<string, unknown>>();

/**
 * The query `build` makes for `db`, built on the first call and kept for that database.
 * @param key names the statement: one `build` per key and database
 * @param build makes the prepared query (`db.select()....prepare()`)
 * @returns the same prepared query on every call with this `db` and `key`
 */
export function preparedFor<T>(db: CoreDb, key: string, build: () => T): T {
  let forDb = built.get(db);
  if (!forDb) built.set(db, (forDb = new Map()));
  let query = forDb.get(key) as T | undefined;
  if (query === undefined) forDb.set(key, (query = build()));
  return query;
}
