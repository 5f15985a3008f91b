/**
 * Storage mapping of the Resources API (handbook, "One source of truth for resources"): for one
 * resource, how each declared property is stored in its table, derived from the shared
 * declaration, and the list filters and order built from it (spec, "List parameters"; the rows
 * themselves are read by db/resource-rows.ts).
 *
 * Rules, in order (`camel` is the property name in camelCase, the drizzle column key):
 * 1. an exception declared for the property in the resource's map overrides the parts it names of
 *    what the rules below give (computed properties, properties kept in another table, values
 *    normalised before they are stored or compared); it may give a column or SQL expression, so
 *    such a property can still be filtered and sorted;
 * 2. a reference (`{id}`) is the id in column `<camel>Id`, or in `<camel>` when the column name
 *    already says whose id it is (`last_updated_by`, `deleted_by`);
 * 3. an array or object property is JSON text in the TEXT column `<camel>`;
 * 4. anything else is the column `<camel>`; a written date-time text is stored as a Date (whole
 *    seconds, what the DATETIME columns keep).
 * The map is checked when it is built, that is when its module loads: a declared property with no
 * storage, an exception naming no declared property, or a filter (F) or sort (S) property without
 * a column throws an Error naming the resource and the property, so the service refuses to start.
 */
import type { PropertyInfo, ResourceDeclaration } from "@service/shared/resources/meta";
import { parseDateTimeInput } from "@service/shared/resources/voucher";
import { asc, desc, eq, getTableColumns, getTableName, sql, SQL, type Column } from "drizzle-orm";
import type { MySqlColumn, MySqlTable } from "drizzle-orm/mysql-core";
import { fromJsonText, toJsonText } from "./json-column.ts";
import { wholeSeconds } from "./whole-seconds.ts";

/**
 * A stored resource in API terms: property name -> value. Dates are `Date`; a reference is a
 * nested record (at least `{id}`); a property the record does not carry (undefined) is left out
 * of every response, which is how `business_distance_km` appears only with location search.
 */
export type ResourceRecord = { [property: string]: unknown };

/** A list filter value as the list parameters give it (a reference filter holds the id). */
export type FilterValue = string | number | boolean;

/** A list request in property names (the engine's parsed list parameters have this shape). */
export interface ListRequest {
  /** equality filters by F property, combined with AND */
  filters: Readonly<Record<string, FilterValue>>;
  /** sort_by (an S property) and its direction */
  sort?: { property: string; order: "asc" | "desc" };
  /** direction of the natural order when there is no sort_by */
  order: "asc" | "desc";
  limit: number;
  offset: number;
}

/** How one declared property is stored; a part left out means the map does not do it. */
export interface PropertyStorage<Row> {
  /** the drizzle column key, for a property stored in one column of the table */
  key?: string;
  /** what filters compare and sorts order by: a column or an SQL expression over the row */
  column?: MySqlColumn | SQL;
  /** stored row -> record value; absent: the record builder of the resource adds the value */
  read?: (row: Row) => unknown;
  /** the row keys `read` uses, when it has no `key` (a value computed from other selections) */
  keys?: readonly string[];
  /** validated write value -> the column values to store */
  write?: (value: unknown) => Record<string, unknown>;
  /** a filter value in the form the column holds (for example a normalised cidr) */
  filterValue?: (value: FilterValue) => unknown;
  /** why the property is an exception (kept for readers of the map) */
  note?: string;
}

/** The row a map reads: the table's columns plus the extra selections declared with it. */
export type RowOf<T extends MySqlTable, Extra extends Record<string, SQL>> = T["$inferSelect"] & {
  [K in keyof Extra]: Extra[K] extends SQL<infer V> ? V : never;
};

export interface ResourceColumnsOptions<Row, Extra extends Record<string, SQL>> {
  /** computed values read with every row, by row key (for example a parent's name) */
  select?: Extra;
  /** per-property exceptions to the rules (see the module comment) */
  exceptions?: Record<string, PropertyStorage<Row>>;
  /** the property the list is ordered by without sort_by (default `id`) */
  naturalOrder?: string;
}

/** One resource's storage mapping, built and checked by `resourceColumns`. */
export interface ResourceColumns<T extends MySqlTable, Row, Extra extends Record<string, SQL> = Record<never, SQL>> {
  declaration: ResourceDeclaration;
  table: T;
  /** what a row select reads: every column of the table plus the extra selections (`db.select(selection)`) */
  selection: T["_"]["columns"] & Extra;
  /** storage of every declared property, by property name */
  properties: ReadonlyMap<string, PropertyStorage<Row>>;
  /**
   * the record of a stored row: every property with a `read`; the others are the caller's
   * @param upToLevel only the properties of this level and below (a row read with `headSelection`)
   */
  toRecord(row: Row, upToLevel?: number): ResourceRecord;
  /**
   * The part of `selection` a record up to `level` needs, plus `extra` row keys: what a query
   * reading the resource to nest it at that level selects (resources nest at level - 1, so the
   * default response level 2 renders a nested record at level 1).
   * @param keys the row keys the caller types the part as: checked to be exactly those
   * @throws Error when a property up to `level` reads a key outside `keys`, or `keys` names one
   *   neither such a property nor `extra` reads (the caller's type and the declaration disagree)
   */
  headSelection(level: number, keys: readonly string[], extra?: readonly string[]): Partial<T["_"]["columns"] & Extra>;
  /** validated write values (API names) as column values; properties without `write` are skipped */
  toColumns(values: Readonly<Record<string, unknown>>): Partial<T["$inferInsert"]>;
  /** the list's filters as SQL conditions (AND them) */
  conditions(filters: Readonly<Record<string, FilterValue>>): SQL[];
  /** ORDER BY of a list: sort_by or the natural order, ties broken by id in the same direction */
  orderBy(q: Pick<ListRequest, "sort" | "order">): SQL[];
}

/**
 * An exception for a property the row does not hold: the resource's record builder adds its value
 * (read from another table, computed, or given once), and it is never written, filtered or sorted
 * through the map.
 */
export function addedByRecordBuilder<Row>(note: string): PropertyStorage<Row> {
  return { note, key: undefined, column: undefined, read: undefined, write: undefined, filterValue: undefined };
}

/**
 * A column as SQL qualified by its table name, for use inside a correlated subquery (drizzle
 * writes columns of a single-table select unqualified, which a subquery would resolve to its
 * own table).
 */
export function qualified(column: Column): SQL {
  return sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;
}

const camel = (s: string) => s.replace(/_([a-z0-9])/g, (_, ch: string) => ch.toUpperCase());

/**
 * Builds and checks the storage mapping of `decl` on `table` (see the module comment for the rules).
 * @throws Error naming `{resource}.{property}` when a declared property has no storage (no column
 *   by the rules, a JSON property's column not TEXT, and no exception), an exception names no
 *   declared property, or an F or S property has no column
 */
export function resourceColumns<T extends MySqlTable, Extra extends Record<string, SQL> = Record<never, SQL>>(
  decl: ResourceDeclaration,
  table: T,
  options: ResourceColumnsOptions<RowOf<T, Extra>, Extra> = {},
): ResourceColumns<T, RowOf<T, Extra>, Extra> {
  type Row = RowOf<T, Extra>;
  const columns = getTableColumns(table) as Record<string, MySqlColumn>;
  const fail = (prop: string, why: string) => new Error(`${decl.name}.${prop}: ${why}`);
  const properties = checkedProperties<Row>(decl, table, options.exceptions ?? {});
  const natural = properties.get(options.naturalOrder ?? "id")?.column;
  const id = properties.get("id")?.column;
  if (!natural || !id) throw fail(options.naturalOrder ?? "id", "the natural order needs a column");

  const columnOf = (property: string): MySqlColumn | SQL => {
    const column = properties.get(property)?.column;
    // The load-time check makes this unreachable for F and S properties.
    if (!column) throw fail(property, "not a filter or sort property");
    return column;
  };

  // The properties read from a row, in declaration order, with their levels.
  const readers = [...properties].flatMap(([name, storage]) => (storage.read ? [{ name, read: storage.read, level: decl.properties.get(name)!.level }] : []));

  return {
    declaration: decl,
    table,
    selection: { ...columns, ...options.select } as T["_"]["columns"] & Extra,
    properties,
    toRecord(row, upToLevel = Infinity) {
      const record: ResourceRecord = {};
      for (const r of readers) if (r.level <= upToLevel) record[r.name] = r.read(row);
      return record;
    },
    headSelection: (level, keys, extra = []) =>
      headSelectionOf(decl, properties, { ...columns, ...options.select }, { level, keys, extra }) as Partial<T["_"]["columns"] & Extra>,
    toColumns(values) {
      const out: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(values)) {
        const write = properties.get(name)?.write;
        if (write) Object.assign(out, write(value));
      }
      return out as Partial<T["$inferInsert"]>;
    },
    conditions(filters) {
      return Object.entries(filters).map(([name, value]) => {
        const normalise = properties.get(name)?.filterValue;
        const column = columnOf(name);
        const compared = normalise ? normalise(value) : value;
        // Two calls for drizzle's overloads: a column encodes the value for its type, SQL binds it as is.
        return column instanceof SQL ? eq(column, compared) : eq(column, compared);
      });
    },
    orderBy(q) {
      const direction = (q.sort?.order ?? q.order) === "desc" ? desc : asc;
      const first = q.sort ? columnOf(q.sort.property) : natural;
      return first === id ? [direction(id)] : [direction(first), direction(id)];
    },
  };
}

/**
 * The part of `all` (a mapping's selection) a record up to `head.level` needs: ResourceColumns.headSelection.
 * @throws Error as ResourceColumns.headSelection
 */
function headSelectionOf<Row>(
  decl: ResourceDeclaration,
  properties: ReadonlyMap<string, PropertyStorage<Row>>,
  all: Record<string, unknown>,
  head: { level: number; keys: readonly string[]; extra: readonly string[] },
): Record<string, unknown> {
  const { level, keys } = head;
  const needed = new Set(head.extra);
  for (const [name, storage] of properties) {
    if (!storage.read || decl.properties.get(name)!.level > level) continue;
    const read = storage.key ? [storage.key] : storage.keys;
    if (!read) throw new Error(`${decl.name}.${name}: read at level ${level} but its exception names no row keys (keys)`);
    for (const k of read) needed.add(k);
  }
  if (needed.size !== keys.length || keys.some((k) => !needed.has(k))) {
    throw new Error(`${decl.name}: a head up to level ${level} reads ${[...needed].join(", ")}; declared ${keys.join(", ")}`);
  }
  return Object.fromEntries(keys.map((k) => [k, all[k]]));
}

/**
 * The storage of every declared property of `decl` on `table`: the rules' (derived), with the
 * parts an exception names overridden.
 * @throws Error as resourceColumns
 */
function checkedProperties<Row>(decl: ResourceDeclaration, table: MySqlTable, exceptions: Record<string, PropertyStorage<Row>>): Map<string, PropertyStorage<Row>> {
  const columns = getTableColumns(table) as Record<string, MySqlColumn>;
  const tableName = getTableName(table);
  const fail = (prop: string, why: string) => new Error(`${decl.name}.${prop}: ${why}`);
  for (const name of Object.keys(exceptions)) {
    if (!decl.properties.has(name)) throw fail(name, "an exception is declared for a property the resource does not declare");
  }
  const properties = new Map<string, PropertyStorage<Row>>();
  for (const prop of decl.properties.values()) {
    const base = derived<Row>(prop, columns);
    const exception = exceptions[prop.name];
    const storage = exception ? { ...base, ...exception } : base;
    if (!storage) throw fail(prop.name, `no usable column ${camel(prop.name)} in ${tableName} and no exception declared for it`);
    if (prop.filter && !storage.column) throw fail(prop.name, `declared as a filter (F) but ${tableName} has no column to filter on`);
    if (prop.sort && !storage.column) throw fail(prop.name, `declared as a sort key (S) but ${tableName} has no column to sort by`);
    properties.set(prop.name, storage);
  }
  return properties;
}

/** The storage the rules give a property without an exception, or undefined when its column is missing. */
function derived<Row>(prop: PropertyInfo, columns: Record<string, MySqlColumn>): PropertyStorage<Row> | undefined {
  const name = camel(prop.name);
  const get = (key: string) => (row: Row) => (row as Record<string, unknown>)[key];
  if (prop.kind === "reference") {
    const key = [`${name}Id`, name].find((k) => k in columns);
    if (!key) return undefined;
    const value = get(key);
    return {
      key,
      column: columns[key],
      read: (row: Row) => ((id: unknown) => (id === null || id === undefined ? null : { id }))(value(row)),
      write: (v) => ({ [key]: v === null ? null : (v as { id: number }).id }),
    };
  }
  const column = columns[name];
  if (!column) return undefined;
  const value = get(name);
  if (prop.kind === "array" || prop.kind === "object") {
    if (column.columnType !== "MySqlText") return undefined;
    return { key: name, read: (row) => fromJsonText(value(row) as string | null), write: (v) => ({ [name]: toJsonText(v, prop.name) }) };
  }
  return {
    key: name,
    column,
    read: value,
    write: prop.kind === "date-time" ? (v) => ({ [name]: typeof v === "string" ? storedDateTime(v) : v }) : (v) => ({ [name]: v }),
  };
}

/** A validated date-time text as the Date a DATETIME column keeps (whole seconds), so a response equals a later read. */
function storedDateTime(text: string): Date {
  const date = parseDateTimeInput(text);
  // validateWrite has already checked the text against the same parser.
  if (!date) throw new Error(`not a datetime: ${text}`);
  return wholeSeconds(date);
}
