/**
 * Statements built once and sent as text inside a transaction of the transaction runner
 * (@service/shared/node): INSERTs of many rows written directly rather than through drizzle's
 * query builder, whose generic walk cost add-business a fifth of its time, each sent
 * in a round trip of its own. Values are bound by drizzle's column encoders and written into the
 * text by mysql2's own escaping (what every drizzle query does), never concatenated.
 *
 * One statement per round trip, never several in one text: an engine that aborts the transaction
 * in the middle of a multi-statement text (a Galera brute-force abort) would run the rest of the
 * text outside it.
 */
import { getTableColumns, getTableName, is, sql, SQL } from "drizzle-orm";
import { MySqlDialect, type MySqlColumn, type MySqlTable } from "drizzle-orm/mysql-core";
import mysql from "mysql2/promise";

/** What a statement given here must offer: drizzle's query builders and `sql` queries both do. */
export interface BuiltStatement {
  toSQL(): { sql: string; params: unknown[] };
}

/** Renders the SQL expressions a row may give instead of a value (`n + 1`). */
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
 * whose generic walk cost add-business a fifth of its time.
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

/** What the database answers a write statement. */
export interface WriteResult {
  affectedRows: number;
  /** the id the INSERT generated (0 for none); of a multi-row INSERT only the first row's */
  insertId: number;
}

/**
 * Runs a built statement inside a drizzle transaction, in a round trip of its own.
 * @returns what the database answered (for an INSERT of one row: its id)
 */
export async function runInTransaction(tx: { execute(query: SQL): Promise<unknown> }, statement: BuiltStatement): Promise<WriteResult> {
  const [answer] = (await tx.execute(sql.raw(statementText(statement)))) as unknown as [WriteResult];
  return { affectedRows: Number(answer.affectedRows), insertId: Number(answer.insertId) };
}
