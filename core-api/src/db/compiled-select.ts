/**
 * SELECTs of the hot paths (the caller's check: auth/session-grant.ts, clients/verify.ts,
 * auth/shopper-grant.ts; the business store's reads by id and its search's rows), kept beside
 * drizzle's own prepared queries because they measured faster (docs/performance.md).
 * Written with drizzle's query builder as everywhere else, so the tables and their selections stay
 * the one declaration of what is read, but turned into SQL text ONCE, when the module loads,
 * and run as a server-side prepared statement (mysql2 `execute`: the server parses it once per
 * connection) with rows read by position through decoders chosen once per column.
 *
 * Values are read as drizzle reads them: a column's own `mapFromDriverValue` (booleans from 0/1,
 * JSON text as text ...), except that DATETIME / TIMESTAMP / DATE columns arrive as the Date the
 * binary protocol already built (in UTC: the pool runs with timezone "Z"); an `sql<T>` field
 * through its decoder (`.mapWith()`); a nested object whose every value is NULL (a LEFT JOIN that
 * found no row) is null. Columns read as text in string mode (`date(..., {mode: "string"})`) are
 * refused when the statement is compiled: the binary protocol would hand them over as a Date.
 *
 * Runs on Node and Deno alike (mysql2 only). A compiled select runs on the pool (each statement
 * on a connection of its own, with the pool's timeouts: shared/src/node/db-timeouts.ts), never inside
 * a transaction.
 *
 * COMPILED_SELECTS=off (useCompiledSelects): the same selects run as drizzle's own prepared
 * queries instead, with the same results, so `npm run bench` can measure what compiling them saves
 * (docs/performance.md).
 *
 * @example
 *   const byId = compileSelect(qb.select().from(businesses).where(eq(businesses.id, sql.placeholder("id"))));
 *   const [row] = await byId.run(db, { id: 7 });
 */
import { Column, getTableColumns, is, Placeholder, SQL, Table } from "drizzle-orm";
import { QueryBuilder } from "drizzle-orm/mysql-core";
import type { CoreDb } from "./client.ts";
import { baseDatabase } from "./request-database.ts";

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

/** Databases whose compiled selects run as drizzle's own prepared queries (COMPILED_SELECTS=off). */
const drizzleOnly = new WeakSet<CoreDb>();

/**
 * Runs the compiled selects on `db` (its shared client: every request's handle of it) as compiled
 * (on, the default) or as drizzle's own prepared queries (off: COMPILED_SELECTS=off, to measure
 * what compiling saves).
 */
export function useCompiledSelects(db: CoreDb, on: boolean): void {
  if (on) drizzleOnly.delete(baseDatabase(db));
  else drizzleOnly.add(baseDatabase(db));
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
  const read = rowReader(rowPlan(readers));
  const statement = { sql: text, rowsAsArray: true };
  const byDrizzle = drizzlePrepared(query);
  return {
    sql: text,
    async run(db, values) {
      if (drizzleOnly.has(baseDatabase(db))) return (await byDrizzle(db, values)) as Result[number][];
      const bound = new Array<unknown>(slots.length);
      for (let i = 0; i < slots.length; i++) {
        const slot = slots[i]!;
        if (!("name" in slot)) bound[i] = slot.value;
        else if ((bound[i] = values[slot.name]) === undefined) throw new Error(`compileSelect: no value for placeholder ${slot.name}`);
      }
      const [rows] = (await db.$client.execute(statement, bound as never)) as unknown as [unknown[][]];
      return rows.map(read) as Result[number][];
    },
  };
}

/**
 * `query` as drizzle's own prepared query, what COMPILED_SELECTS=off runs: drizzle's `.prepare()`
 * of that very select (the text protocol, drizzle's typeCast and row mapping), prepared once per
 * shared client as the connector prepares its queries, and `.execute()`d on the request's handle
 * of the pool (a prepared query keeps the client it was prepared with; the handle's carries the
 * request's deadline).
 */
function drizzlePrepared(query: object): (db: CoreDb, values: Readonly<Record<string, unknown>>) => Promise<unknown[]> {
  type Prepared = { execute(values: Readonly<Record<string, unknown>>): Promise<unknown[]> };
  const prepared = new WeakMap<CoreDb, Prepared>();
  return (db, values) => {
    const base = baseDatabase(db);
    let once = prepared.get(base);
    if (!once) {
      // a select built with `qb` has no session: the shared client's (drizzle keeps it internal)
      const session = (base as unknown as { session: unknown }).session;
      once = (Object.create(query, { session: { value: session } }) as { prepare(): Prepared }).prepare();
      prepared.set(base, once);
    }
    return (Object.create(once, { client: { value: db.$client } }) as Prepared).execute(values);
  };
}

/**
 * Reads whole rows of `table` from rows fetched as arrays (`rowsAsArray`) whose first columns are
 * the table's columns in its column order (a statement built with drizzle selecting
 * `getTableColumns` of the table or an alias of it), decoded as compileSelect decodes them. For a
 * statement that is not compiled once (its text varies with its values, as a search's does) but
 * returns the table's rows.
 * @returns `count`, the number of the table's columns, and `read`, which turns a row array into
 *   the row object (columns after the table's are ignored)
 * @throws Error when the table has a date column read as text (see compileSelect)
 */
export function tableRows<T extends Table>(table: T): { count: number; read(row: readonly unknown[]): T["$inferSelect"] } {
  const plan = rowPlan(fieldReaders(getTableColumns(table) as Record<string, Column>, []));
  return { count: plan.length, read: rowReader(plan) as (row: readonly unknown[]) => T["$inferSelect"] };
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

/** How a row array becomes the result object: top-level fields, and nested objects one level deep. */
type RowPlan = Array<
  | { key: string; index: number; decode: (value: unknown) => unknown }
  | { key: string; fields: Array<{ key: string; index: number; decode: (value: unknown) => unknown }> }
>;

/**
 * The plan of `readers`, in their order.
 * @throws Error for a selection nested deeper than one level (none is; drizzle's own reading of
 *   LEFT JOINs knows one level only)
 */
function rowPlan(readers: readonly FieldReader[]): RowPlan {
  const plan: RowPlan = [];
  const groups = new Map<string, Array<{ key: string; index: number; decode: (value: unknown) => unknown }>>();
  readers.forEach(({ path, decode }, index) => {
    if (path.length > 2) throw new Error(`compileSelect: ${path.join(".")} nests deeper than one level`);
    if (path.length === 1) {
      plan.push({ key: path[0]!, index, decode });
      return;
    }
    let fields = groups.get(path[0]!);
    if (!fields) {
      groups.set(path[0]!, (fields = []));
      plan.push({ key: path[0]!, fields });
    }
    fields.push({ key: path[1]!, index, decode });
  });
  return plan;
}

/** A row array as the result object; a nested object whose every value is NULL is null. */
type RowReader = (row: readonly unknown[]) => Record<string, unknown>;

/**
 * The reader of rows of `plan`: an object with the plan's keys in its order, each value decoded by
 * its column's decoder, `null` for NULL, and a nested object (a LEFT JOIN's table) null when every
 * value in it is NULL.
 */
function rowReader(plan: RowPlan): RowReader {
  const value = (row: readonly unknown[], index: number, decode: (value: unknown) => unknown) => {
    const v = row[index];
    return v === null || v === undefined ? null : decode(v);
  };
  return (row) => {
    const out: Record<string, unknown> = {};
    for (const entry of plan) {
      if ("index" in entry) {
        out[entry.key] = value(row, entry.index, entry.decode);
        continue;
      }
      const nested: Record<string, unknown> = {};
      let found = false;
      for (const f of entry.fields) if ((nested[f.key] = value(row, f.index, f.decode)) !== null) found = true;
      out[entry.key] = found ? nested : null;
    }
    return out;
  };
}
