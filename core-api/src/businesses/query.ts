/**
 * The search's hand-written statements (drizzle `sql` templates), run on the pool directly: the
 * SQL text and its values from drizzle's dialect, sent by mysql2 as they are, without the
 * per-statement prepared-query object, tracing span and value hook of `db.execute` (issue 12).
 * Datetimes would come back as Date objects (the pool's own reading); the search reads ids,
 * words, counts and distances only.
 */
import type { SQL } from "drizzle-orm";
import { MySqlDialect } from "drizzle-orm/mysql-core";
import type { CoreDb } from "../db/client.ts";

const dialect = new MySqlDialect();

/** Runs `statement` and returns its rows. */
export async function rows<T>(db: CoreDb, statement: SQL): Promise<T[]> {
  const { sql, params } = dialect.sqlToQuery(statement);
  const [result] = (await db.$client.query(sql, params)) as unknown as [T[]];
  return result;
}

/** Runs `statement` and returns its first row, if any. */
export async function one<T>(db: CoreDb, statement: SQL): Promise<T | undefined> {
  return (await rows<T>(db, statement))[0];
}
