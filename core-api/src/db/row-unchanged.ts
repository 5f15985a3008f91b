/**
 * The guard of an optimistic update: a condition that holds while a stored row still has every
 * value it had when it was read, so `UPDATE ... WHERE <guard>` writes only over that state and
 * the rules checked against it hold for what is written; an update that matches nothing tells
 * the caller someone else wrote in between (or the row is gone).
 *
 * Strings compare byte for byte (the columns' collations would call `Abc` and `abc ` equal);
 * nulls with IS NULL; other values with `=` in the column's own encoding. A double the server
 * prints inexactly (MariaDB, rarely) compares unequal: the caller then takes its slower path.
 */
import { and, eq, getTableColumns, isNull, sql, type SQL } from "drizzle-orm";
import type { MySqlTable } from "drizzle-orm/mysql-core";

/**
 * The condition "the row of `table` still holds `read`".
 * @param read column key (drizzle's camelCase name) -> value as read; every key is compared
 * @throws Error for a key that is no column of `table` (a programming error)
 */
export function rowUnchanged<T extends MySqlTable>(table: T, read: Partial<T["$inferSelect"]>): SQL {
  const columns = getTableColumns(table);
  const conditions = Object.entries(read).map(([key, value]) => {
    const column = columns[key];
    if (!column) throw new Error(`rowUnchanged: no column ${key}`);
    if (value === null || value === undefined) return isNull(column);
    if (typeof value === "string") return sql`CAST(${column} AS BINARY) = CAST(${value} AS BINARY)`;
    return eq(column, value);
  });
  return and(...conditions) ?? sql`true`;
}
