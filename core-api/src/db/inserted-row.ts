/**
 * The row an INSERT stores, known without reading it back (new businesses are answered with it;
 * ROWS_AS_WRITTEN=off reads them back instead, business-repository.ts): every column's value as given, else its declared default, else NULL; what the
 * database computes (the auto-increment id, generated columns, SQL defaults) the caller supplies.
 * Refuses what it cannot know rather than guessing, so an answer built from it always equals a
 * later read.
 */
import { getTableColumns, is, SQL } from "drizzle-orm";
import type { MySqlColumn, MySqlTable } from "drizzle-orm/mysql-core";

/** DATETIME / TIMESTAMP columns: without fractional digits they keep whole seconds. */
const DATE_COLUMNS = new Set(["MySqlDateTime", "MySqlTimestamp"]);

/**
 * The row `table` holds after inserting `values`.
 * @param values the inserted values by column key (undefined: not given)
 * @param computed the values the database computes, by column key: the auto-increment id, each
 *   generated column, each column with an SQL default that `values` does not give
 * @throws Error naming the column when a computed value is missing, or a date column without
 *   fractional seconds is given a Date with milliseconds (it would be stored differently)
 */
export function rowAsInserted<T extends MySqlTable>(
  table: T,
  values: Readonly<Record<string, unknown>>,
  computed: Readonly<Record<string, unknown>>,
): T["$inferSelect"] {
  const row: Record<string, unknown> = {};
  for (const c of planOf(table)) {
    if (c.key in computed) {
      row[c.key] = computed[c.key];
      continue;
    }
    if (c.computedByDatabase) throw new Error(`rowAsInserted ${c.name}: computed by the database: the caller must give it`);
    const given = values[c.key];
    if (given !== undefined) {
      if (c.wholeSeconds && given instanceof Date && given.getMilliseconds() !== 0) {
        throw new Error(`rowAsInserted ${c.name}: a Date with milliseconds, which the column does not keep`);
      }
      row[c.key] = given;
    } else if (c.defaultComputed) {
      throw new Error(`rowAsInserted ${c.name}: its default is computed by the database: the caller must give it`);
    } else {
      row[c.key] = c.stored;
    }
  }
  return row as T["$inferSelect"];
}

/** What rowAsInserted needs to know of a column, worked out once per table (not per business written). */
interface ColumnPlan {
  key: string;
  name: string;
  /** auto-increment or generated: the caller must give its value */
  computedByDatabase: boolean;
  /** a DATETIME / TIMESTAMP without fractional seconds */
  wholeSeconds: boolean;
  /** its default is an SQL expression (or unknown): the caller must give its value */
  defaultComputed: boolean;
  /** the value stored when none is given: the declared default, else NULL */
  stored: unknown;
}

const plans = new WeakMap<MySqlTable, ColumnPlan[]>();

function planOf(table: MySqlTable): ColumnPlan[] {
  let plan = plans.get(table);
  if (!plan) {
    plan = Object.entries(getTableColumns(table) as Record<string, MySqlColumn>).map(([key, column]) => ({
      key,
      name: column.name,
      computedByDatabase: Boolean(column.generated || (column as unknown as { autoIncrement?: boolean }).autoIncrement),
      wholeSeconds: DATE_COLUMNS.has(column.columnType) && !(column as unknown as { fsp?: number }).fsp,
      defaultComputed: column.hasDefault && (column.default === undefined || is(column.default, SQL)),
      stored: column.hasDefault ? column.default : null,
    }));
    plans.set(table, plan);
  }
  return plan;
}
