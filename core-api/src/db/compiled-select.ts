/**
 * SELECTs of the hot paths (issue 12: a by-id read spent a third of its time in drizzle building
 * the same SQL text again and reading every row through `is()` checks): written with drizzle's
 * query builder as everywhere else, so the tables, the resource column maps and their selections
 * stay the one declaration of what is read, but turned into SQL text ONCE, when the module
 * declaring them loads, and run as a server-side prepared statement (mysql2 `execute`: the
 * server parses it once per connection) with rows read by position through decoders chosen once
 * per column.
 *
 * Values are read as drizzle reads them: a column's own `mapFromDriverValue` (booleans from 0/1,
 * JSON text as text ...), except that DATETIME / TIMESTAMP / DATE columns arrive as the Date the
 * binary protocol already built (in UTC: the pool runs with timezone "Z"); an `sql<T>` field
 * through its decoder (`.mapWith()`); a nested object whose every value is NULL (a LEFT JOIN that
 * found no row) is null. Columns read as text in string mode (`date(..., {mode: "string"})`) are
 * refused when the statement is compiled: the binary protocol would hand them over as a Date.
 *
 * Runs on Node and Deno alike (mysql2 only). A compiled select runs on the pool (each statement
 * on a connection of its own, with the pool's timeouts: shared/src/db-timeouts.ts), never inside
 * a transaction.
 *
 * @example
 *   const byId = compileSelect(qb.select().from(businesses).where(eq(businesses.id, sql.placeholder("id"))));
 *   const [row] = await byId.run(db, { id: 7 });
 */
import { Column, getTableColumns, is, Placeholder, SQL, Table } from "drizzle-orm";
import { QueryBuilder } from "drizzle-orm/mysql-core";
import type { CoreDb } from "./client.ts";

/** The query builder compiled selects are written with (no database needed to build SQL text). */
export const qb = new QueryBuilder();

/** What compileSelect takes: a select built with `qb`, placeholders for the values of each run. */
interface BuiltSelect<Result> {
  readonly _: { readonly result: Result; readonly selectedFields: unknown };
  toSQL(): { sql: string; params: unknown[] };
}

/** One compiled SELECT. */
export interface CompiledSelect<Row, Names extends string> {
  /** the SQL text sent, with `?` for every value */
  readonly sql: string;
  /**
   * Runs the statement with the placeholders' values (a Date for a DATETIME, an integer, a text).
   * @returns the rows, shaped and typed as drizzle's own select returns them
   * @throws Error naming a placeholder given no value (undefined); the driver's errors as they are
   */
  run(db: CoreDb, values: Readonly<Record<Names, unknown>>): Promise<Row[]>;
}

/** How one selected value is read: where it goes, and its decoder. */
interface FieldReader {
  path: readonly string[];
  decode: (value: unknown) => unknown;
}

type Decoder = { mapFromDriverValue(value: unknown): unknown };

const AS_IS = (value: unknown) => value;
/** Column types the binary protocol hands over as a Date, as their mode "date" reads them. */
const DATE_COLUMNS = new Set(["MySqlDateTime", "MySqlTimestamp", "MySqlDate"]);
/** Column types whose text form drizzle keeps (mode "string"): not readable from the binary protocol. */
const DATE_TEXT_COLUMNS = new Set(["MySqlDateTimeString", "MySqlTimestampString", "MySqlDateString"]);

/**
 * Compiles `query` (built with `qb`, values as `sql.placeholder(name)`) into SQL text and a row
 * reader, once.
 * @param names the placeholders `query` uses (checked: each must occur, and only those)
 * @throws Error when `query` selects a date column in string mode, or its placeholders differ
 *   from `names`
 */
export function compileSelect<Result extends unknown[], Names extends string>(
  query: BuiltSelect<Result>,
  names: readonly Names[],
): CompiledSelect<Result[number], Names> {
  const { sql: text, params } = query.toSQL();
  const readers = fieldReaders(query._.selectedFields as Record<string, unknown>, []);
  const used = new Set<string>();
  // Each value of a run: a placeholder's value, or a constant of the query (false -> 0: what the
  // text protocol sent for drizzle, and what the binary protocol can carry for a TINYINT).
  const slots = params.map((p): { name: Names } | { value: unknown } => {
    if (is(p, Placeholder)) {
      used.add(p.name);
      return { name: p.name as Names };
    }
    return { value: typeof p === "boolean" ? Number(p) : p };
  });
  const unknown = [...used].filter((n) => !names.includes(n as Names));
  const unused = names.filter((n) => !used.has(n));
  if (unknown.length || unused.length) {
    throw new Error(`compileSelect: placeholders ${[...used].join(", ")} used, ${names.join(", ")} declared`);
  }
  const shape = nestedKeys(readers);
  const statement = { sql: text, rowsAsArray: true };
  return {
    sql: text,
    async run(db, values) {
      const bound = slots.map((s) => {
        if (!("name" in s)) return s.value;
        const v = values[s.name];
        if (v === undefined) throw new Error(`compileSelect: no value for placeholder ${s.name}`);
        return v;
      });
      const [rows] = (await db.$client.execute(statement, bound as never)) as unknown as [unknown[][]];
      return rows.map((row) => readRow(row, readers, shape)) as Result[number][];
    },
  };
}

/** The readers of a selection, in the order drizzle writes its select list. */
function fieldReaders(fields: Record<string, unknown>, prefix: readonly string[]): FieldReader[] {
  const out: FieldReader[] = [];
  for (const [name, field] of Object.entries(fields)) {
    const path = [...prefix, name];
    if (is(field, Column)) out.push({ path, decode: columnDecoder(field) });
    else if (is(field, SQL)) out.push({ path, decode: decoderOf(field) });
    else if (is(field, SQL.Aliased)) out.push({ path, decode: decoderOf(field.sql) });
    else if (is(field, Table)) out.push(...fieldReaders(getTableColumns(field), path));
    else if (field && typeof field === "object") out.push(...fieldReaders(field as Record<string, unknown>, path));
    else throw new Error(`compileSelect: cannot read ${path.join(".")}`);
  }
  return out;
}

function columnDecoder(column: Column): (value: unknown) => unknown {
  if (DATE_TEXT_COLUMNS.has(column.columnType)) {
    throw new Error(`compileSelect: ${column.name} is read as text (mode "string"), which the binary protocol does not give`);
  }
  const own = (v: unknown) => column.mapFromDriverValue(v);
  if (DATE_COLUMNS.has(column.columnType)) return (v) => (v instanceof Date ? v : own(v));
  return own;
}

/** The decoder `.mapWith()` gave an `sql` field (drizzle keeps it on the SQL object, untyped). */
function decoderOf(field: SQL): (value: unknown) => unknown {
  const decoder = (field as unknown as { decoder?: Decoder }).decoder;
  if (!decoder || decoder.mapFromDriverValue === undefined) return AS_IS;
  return (v) => decoder.mapFromDriverValue(v);
}

/** The keys of nested objects (one level: what a LEFT JOIN may leave empty), by first-level key. */
function nestedKeys(readers: readonly FieldReader[]): ReadonlySet<string> {
  return new Set(readers.filter((r) => r.path.length > 1).map((r) => r.path[0]!));
}

function readRow(row: readonly unknown[], readers: readonly FieldReader[], nested: ReadonlySet<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const seen = new Map<string, boolean>(); // nested key -> holds a non-NULL value
  for (let i = 0; i < readers.length; i++) {
    const { path, decode } = readers[i]!;
    const raw = row[i];
    const value = raw === null || raw === undefined ? null : decode(raw);
    let node = out;
    for (let d = 0; d < path.length - 1; d++) node = (node[path[d]!] ??= {}) as Record<string, unknown>;
    node[path[path.length - 1]!] = value;
    if (path.length > 1 && value !== null) seen.set(path[0]!, true);
  }
  for (const key of nested) if (!seen.get(key)) out[key] = null;
  return out;
}
