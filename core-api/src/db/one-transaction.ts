/**
 * A write whose statements need nothing read in between, sent as one transaction in two round
 * trips (issue 12: add-business spent seven round trips, and held the locks on the shared count
 * rows across three of them, so concurrent writers queued on the counts): `START TRANSACTION` and
 * the statements in one text, on the pool whose connections accept several statements
 * (db/client.ts `$writes`), then `COMMIT` alone once every statement has answered. The database
 * runs them in order and stops at the first that fails; the transaction is then rolled back and
 * the error thrown as the driver gave it.
 *
 * COMMIT is never queued in the text of the statements: when the client gives up on that text
 * (the pool's statement timeout, a lost connection), the server may still be running it, and a
 * COMMIT behind it would write what the caller was told had failed (and a retry would write it
 * twice). Sent apart, it goes only after the statements answered, so an error before it means
 * nothing was written: the server rolls back the open transaction of a connection that closed.
 * Only an error of the COMMIT itself leaves the outcome unknown, as for any transaction.
 *
 * A text longer than MAX_TEXT_BYTES (a bulk load) is split: the same transaction then takes a
 * round trip per part (and one for the COMMIT). Values are bound by drizzle and written into the text by mysql2's own
 * escaping (what every drizzle query on the main pool does), never concatenated.
 */
import { getTableColumns, getTableName, is, sql, SQL } from "drizzle-orm";
import { MySqlDialect, type MySqlColumn, type MySqlTable } from "drizzle-orm/mysql-core";
import mysql from "mysql2/promise";
import type { CoreDb } from "./client.ts";

/** What a statement given here must offer: drizzle's query builders and `sql` queries both do. */
export interface BuiltStatement {
  toSQL(): { sql: string; params: unknown[] };
}

/** Renders the SQL expressions a row may give instead of a value (`LAST_INSERT_ID() + 1`). */
const dialect = new MySqlDialect();

/** The statement as the text mysql2 sends: every value escaped into it by mysql2's own formatter. */
export function statementText(statement: BuiltStatement): string {
  const { sql: text, params } = statement.toSQL();
  return mysql.format(text, params as never[], false, "Z");
}

/**
 * An INSERT of `rows` into `table` as drizzle's insert writes it: the columns any row gives, in
 * the table's order (DEFAULT where a row gives none), each value through its column's encoder, an
 * `sql` expression rendered in place. Built directly rather than through drizzle's query builder,
 * whose generic walk cost add-business a fifth of its time (issue 12).
 * @param options.addOnDuplicateKey an upsert: on a duplicate key this column adds the new value
 *   to the stored one (`n = n + VALUES(n)`)
 * @throws Error when a row gives a key that is no column of `table`
 */
export function insertRows<T extends MySqlTable>(
  table: T,
  rows: ReadonlyArray<Readonly<Record<string, unknown>>>,
  options: { addOnDuplicateKey?: string } = {},
): BuiltStatement {
  const entries = columnEntries(table);
  const columns = getTableColumns(table) as Record<string, MySqlColumn>;
  const given = new Set<string>();
  for (const row of rows) {
    for (const key of Object.keys(row)) {
      if (!(key in columns)) throw new Error(`insertRows: ${key} is no column of ${getTableName(table)}`);
      if (row[key] !== undefined) given.add(key);
    }
  }
  const used = entries.filter(([key]) => given.has(key));
  const params: unknown[] = [];
  const tuples = rows.map((row) => {
    const values = used.map(([key, column]) => {
      const value = row[key];
      if (value === undefined) return "default";
      if (value === null) {
        params.push(null);
        return "?";
      }
      if (typeof value === "object" && is(value, SQL)) {
        const rendered = renderedSql(value);
        params.push(...rendered.params);
        return rendered.sql;
      }
      params.push(column.mapToDriverValue(value));
      return "?";
    });
    return `(${values.join(", ")})`;
  });
  const name = (c: MySqlColumn) => `\`${c.name}\``;
  const added = options.addOnDuplicateKey === undefined ? undefined : columns[options.addOnDuplicateKey];
  if (options.addOnDuplicateKey !== undefined && !added) throw new Error(`insertRows: ${options.addOnDuplicateKey} is no column of ${getTableName(table)}`);
  const upsert = added ? ` on duplicate key update ${name(added)} = ${name(added)} + VALUES(${name(added)})` : "";
  const text = `insert into \`${getTableName(table)}\` (${used.map(([, c]) => name(c)).join(", ")}) values ${tuples.join(", ")}${upsert}`;
  return { toSQL: () => ({ sql: text, params }) };
}

/** SQL expressions as rendered (an `sql` value does not change once built, so one used again is rendered once). */
const renderings = new WeakMap<SQL, { sql: string; params: unknown[] }>();

function renderedSql(value: SQL): { sql: string; params: unknown[] } {
  let rendered = renderings.get(value);
  if (!rendered) {
    rendered = dialect.sqlToQuery(value);
    renderings.set(value, rendered);
  }
  return rendered;
}

/** The columns of `table` by key, in the table's order (read once per table: insertRows runs per write). */
const columnLists = new WeakMap<MySqlTable, Array<[string, MySqlColumn]>>();

function columnEntries(table: MySqlTable): Array<[string, MySqlColumn]> {
  let entries = columnLists.get(table);
  if (!entries) {
    entries = Object.entries(getTableColumns(table) as Record<string, MySqlColumn>);
    columnLists.set(table, entries);
  }
  return entries;
}

/**
 * Runs a built statement inside a drizzle transaction (the writes that read before they write:
 * updates, deletes), as the same text writeInOneTransaction would send.
 */
export async function runInTransaction(tx: { execute(query: SQL): Promise<unknown> }, statement: BuiltStatement): Promise<void> {
  await tx.execute(sql.raw(statementText(statement)));
}

/** The largest text sent in one round trip (well under max_allowed_packet's 16 MiB default on MariaDB). */
const MAX_TEXT_BYTES = 4 * 1024 * 1024;

/** What the database answers a write statement. */
export interface WriteResult {
  affectedRows: number;
  /** the first id an INSERT generated (0 for none) */
  insertId: number;
}

/**
 * Runs `statements` in order as one transaction: one round trip for them (more when the text is
 * long), then one for the COMMIT (see the module comment). A statement may use what an earlier
 * one did on the connection (`LAST_INSERT_ID()`).
 * @param options.maxTextBytes split texts longer than this (default MAX_TEXT_BYTES, 4 MiB)
 * @returns one result per statement, in order
 * @throws the driver's error of the first statement that failed (for example ER_DUP_ENTRY), or the
 *   pool's when the statements timed out or the connection was lost before the COMMIT was sent:
 *   nothing is written then. An error of the COMMIT itself (a timeout, a lost connection) leaves
 *   the outcome unknown.
 */
export async function writeInOneTransaction(
  db: CoreDb,
  statements: readonly BuiltStatement[],
  options: { maxTextBytes?: number } = {},
): Promise<WriteResult[]> {
  if (statements.length === 0) return [];
  const maxBytes = options.maxTextBytes ?? MAX_TEXT_BYTES;
  const texts = statements.map(statementText);
  const parts = [["START TRANSACTION"]];
  let size = 0;
  for (const text of texts) {
    if (size + text.length > maxBytes && parts.at(-1)!.length > 0) {
      parts.push([]);
      size = 0;
    }
    parts.at(-1)!.push(text);
    size += text.length;
  }
  const conn = await db.$writes.getConnection();
  try {
    const results: WriteResult[] = [];
    try {
      for (const part of parts) {
        const [answers] = (await conn.query(part.join(";\n"))) as unknown as [WriteResult | WriteResult[]];
        results.push(...(Array.isArray(answers) ? answers : [answers]));
      }
    } catch (err) {
      // The database stopped at the failing statement inside the open transaction (or the pool
      // gave up on the text and destroyed the connection: the server then rolls back).
      await conn.query("ROLLBACK").catch(() => conn.destroy());
      throw err;
    }
    await conn.query("COMMIT").catch((err: unknown) => {
      conn.destroy(); // outcome unknown: the connection must not serve another transaction
      throw err;
    });
    // the answer of START TRANSACTION is no statement's
    return results.slice(1).map((r) => ({ affectedRows: Number(r.affectedRows), insertId: Number(r.insertId) }));
  } finally {
    conn.release(); // a no-op once destroyed
  }
}
