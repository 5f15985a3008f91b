/**
 * Runs the search's statements: drizzle queries (the query builder, or `sql` templates where it
 * lacks a construct), every value a bound parameter, the hot ones rendered once per shape
 * (precompiled; per run where SEARCH_SHAPES=off, useSearchShapes), all sent as server-side
 * prepared statements
 * (mysql2 `execute`: the server parses a text once per connection, and the binary protocol binds a
 * coordinate as a DOUBLE, which a distance computes with directly, where a decimal literal in a
 * text is converted again for every row). The search keeps its texts few (lists padded to a
 * power of two: search-sql.ts), so the prepared statements of a connection stay few too.
 * Rows come back as compileSelect reads them: whole business rows through tableRows
 * (db/compiled-select.ts).
 */
import { is, Placeholder, type SQL, type SQLWrapper } from "drizzle-orm";
import { MySqlDialect } from "drizzle-orm/mysql-core";
import type { CoreDb } from "../db/client.ts";
import { baseDatabase } from "../db/request-database.ts";

/** Turns drizzle queries into their text and values (no database needed). */
const dialect = new MySqlDialect();

/** A statement's text and its values, ready to send. */
interface Rendered {
  sql: string;
  params: unknown[];
}

/** A hot statement (precompiled): its shape, how to build it, and this run's placeholder values. */
class Shaped {
  readonly shape: string;
  readonly build: () => SQL | SQLWrapper;
  readonly values: Readonly<Record<string, unknown>>;
  constructor(shape: string, build: () => SQL | SQLWrapper, values: Readonly<Record<string, unknown>>) {
    this.shape = shape;
    this.build = build;
    this.values = values;
  }
}

/** What the runners take: a drizzle query (rendered per run) or a hot statement (precompiled). */
export type Query = SQL | SQLWrapper | Shaped;

/** Databases whose hot statements are rendered per run (SEARCH_SHAPES=off). */
const perRun = new WeakSet<CoreDb>();

/**
 * Renders the hot statements on `db` (its shared client: every request's handle of it) once per
 * shape (on, the default) or on every run, as any other query (off: SEARCH_SHAPES=off, to
 * measure what rendering once saves).
 */
export function useSearchShapes(db: CoreDb, on: boolean): void {
  if (on) perRun.delete(baseDatabase(db));
  else perRun.add(baseDatabase(db));
}

/** The text and values `query` sends on `db`. */
function rendered(db: CoreDb, query: Query): Rendered {
  if (query instanceof Shaped) {
    const statement = perRun.has(baseDatabase(db)) ? compile(query.build()) : compiledOnce(query.shape, query.build);
    return bind(statement, query);
  }
  return render(query);
}

/** The text and values of `query` (a builder's own rendering, or the dialect's for an `sql` template). */
function render(query: SQL | SQLWrapper): Rendered {
  const built = query as { toSQL?: () => Rendered };
  return built.toSQL ? built.toSQL() : dialect.sqlToQuery(query.getSQL());
}

/** A hot statement's text, rendered once, and where each run's values go. */
interface Compiled {
  text: string;
  slots: Array<{ name: string; index?: number } | { value: unknown }>;
}

/** Hot statements by shape (a few per plan: one per list size class and order). */
const compiled = new Map<string, Compiled>();
/** Shapes kept at most (far more than the plans have: a bound, not a working size). */
const MAX_COMPILED = 512;

/**
 * The statement `build` returns, rendered once per `shape` and bound to `values` by placeholder
 * name when a runner sends it. Drizzle's rendering of a search's statement (a few kilobytes of
 * fragments) cost more node time than the rest of the search together: the hot plans (location,
 * one-word prefix) render each shape once, with `sql.placeholder(name)` for every value that
 * changes between runs (`name[i]`: item i of the list `values[name]`).
 * @param shape names everything the text depends on (list sizes, order), nothing else
 * @returns the statement for rows, rowArrays or one, which throw an Error naming a placeholder
 *   `values` gives no value
 */
export function precompiled(shape: string, build: () => SQL | SQLWrapper, values: Readonly<Record<string, unknown>>): Query {
  return new Shaped(shape, build, values);
}

/** The text of `shape`, rendered on its first run. */
function compiledOnce(shape: string, build: () => SQL | SQLWrapper): Compiled {
  let statement = compiled.get(shape);
  if (!statement) {
    statement = compile(build());
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    compiled.set(shape, statement);
  }
  return statement;
}

/** `query` rendered, each value a constant or a placeholder's slot. */
function compile(query: SQL | SQLWrapper): Compiled {
  const { sql, params } = render(query);
  return { text: sql, slots: params.map(slotOf) };
}

/** `statement` with the values of `query` in its slots. */
function bind(statement: Compiled, { shape, values }: Shaped): Rendered {
  const params = statement.slots.map((slot) => {
    if ("value" in slot) return slot.value;
    const given = values[slot.name];
    const value = slot.index === undefined ? given : (given as readonly unknown[] | undefined)?.[slot.index];
    if (value === undefined) throw new Error(`search statement ${shape}: no value for placeholder ${slot.name}${slot.index === undefined ? "" : `[${slot.index}]`}`);
    return value;
  });
  return { sql: statement.text, params };
}

/** Where a rendered value comes from: a constant, a placeholder's value, or an item of a list (`name[i]`). */
function slotOf(param: unknown): Compiled["slots"][number] {
  if (!is(param, Placeholder)) return { value: param };
  const item = /^(\w+)\[(\d+)\]$/.exec(param.name);
  return item ? { name: item[1]!, index: Number(item[2]) } : { name: param.name };
}

/** Runs `query` and returns its rows (objects by column name). */
export async function rows<T>(db: CoreDb, query: Query): Promise<T[]> {
  const { sql, params } = rendered(db, query);
  const [result] = (await db.$client.execute(sql, params as never)) as unknown as [T[]];
  return result;
}

/** Runs `query` and returns its rows as arrays (column order), for tableRows. */
export async function rowArrays(db: CoreDb, query: Query): Promise<unknown[][]> {
  const { sql, params } = rendered(db, query);
  const [result] = (await db.$client.execute({ sql, rowsAsArray: true }, params as never)) as unknown as [unknown[][]];
  return result;
}

/** Runs `query` and returns its first row, if any. */
export async function one<T>(db: CoreDb, query: Query): Promise<T | undefined> {
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
