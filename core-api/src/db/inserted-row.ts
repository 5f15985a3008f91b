/**
 * The row an INSERT stores, known without reading it back (issue 12: add-business read back the
 * row it had just written): every column's value as given, else its declared default, else
 * NULL; what the database computes (the auto-increment id, generated columns, SQL defaults) the
 * caller supplies. Refuses what it cannot know rather than guessing, so an answer built from it
 * always equals a later read.
 */
import { getTableColumns, is, SQL } from "drizzle-orm";
import type { MySqlColumn, MySqlTable } from "drizzle-orm/mysql-core";

/** DATETIME / TIMESTAMP columns: without fractional digits they keep whole seconds. */
const DATE_COLUMNS = new Set(["MySqlDateTime", "MySqlTimestamp"]);

/**
 * A Date as a DATETIME column without fractional seconds keeps it (MariaDB truncates, MySQL
 * rounds: writing whole seconds makes them agree).
 */
export function wholeSeconds(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}

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
  for (const [key, column] of Object.entries(getTableColumns(table) as Record<string, MySqlColumn>)) {
    const fail = (why: string) => new Error(`rowAsInserted ${column.name}: ${why}`);
    if (key in computed) {
      row[key] = computed[key];
      continue;
    }
    if (column.generated || (column as unknown as { autoIncrement?: boolean }).autoIncrement) throw fail("computed by the database: the caller must give it");
    const given = values[key];
    if (given !== undefined) {
      const fsp = (column as unknown as { fsp?: number }).fsp;
      if (given instanceof Date && DATE_COLUMNS.has(column.columnType) && !fsp && given.getMilliseconds() !== 0) {
        throw fail("a Date with milliseconds, which the column does not keep");
      }
      row[key] = given;
    } else if (column.hasDefault) {
      if (column.default === undefined || is(column.default, SQL)) throw fail("its default is computed by the database: the caller must give it");
      row[key] = column.default;
    } else {
      row[key] = null;
    }
  }
  return row as T["$inferSelect"];
}
