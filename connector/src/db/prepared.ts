/**
 * Statements built once per database: drizzle builds a statement's SQL text from its query builder
 * on every call, which on the hot paths (every authenticate) cost more than mysql2's own work. A
 * prepared drizzle query keeps the text and takes its values as placeholders (sql.placeholder),
 * sent as before (mysql2 query, values escaped by the driver).
 */
import type { ConnectorQueryable } from "./client.ts";

const built = new WeakMap<object, Map<string, unknown>>();

/**
 * The query `build` makes for `db`, built on the first call and kept for that database.
 * @param key names the statement (one `build` per key)
 * @param build makes the prepared query, e.g. `() => db.select().from(t).where(eq(t.id, sql.placeholder("id"))).prepare()`
 */
export function preparedFor<T>(db: ConnectorQueryable, key: string, build: () => T): T {
  let forDb = built.get(db);
  if (!forDb) built.set(db, (forDb = new Map()));
  let query = forDb.get(key) as T | undefined;
  if (query === undefined) forDb.set(key, (query = build()));
  return query;
}
