/**
 * The guard of an optimistic update: a condition that holds while a stored row still has every
 * value it had when it was read, so `UPDATE ... WHERE <guard>` writes only over that state and
 * the rules checked against it hold for what is written; an update that matches nothing tells
 * the caller someone else wrote in between (or the row is gone).
 *
 * Strings compare byte for byte (the columns' collations would call `Abc` and `abc ` equal);
 * nulls with IS NULL; other values with `=` in the column's own encoding. A double the server
 * prints inexactly (MariaDB, rarely) compares unequal: the caller then takes its slower path.
 *
 * Only the primary key's columns are conditions the optimizer may look the row up by; the others
 * are compared as one `(...) IS TRUE`, which no index serves. Else an equally cheap secondary
 * index matching the values read (MariaDB takes `users_by_phone_number` for `chain_id = ? AND
 * phone_number IS NULL AND id = ?`) is where the UPDATE finds the row: it then locks that index's
 * entry before the row, the opposite order of a writer that holds the row and changes the entry
 * (a DELETE, a new phone number), and the two deadlock.
 */
import { and, eq, getTableColumns, isNull, sql, type SQL } from "drizzle-orm";
import type { MySqlTable } from "drizzle-orm/mysql-core";

/**
 * The condition "the row of `table` still holds `read`".
 * @param read column key (drizzle's camelCase name) -> value as read; every key is compared
 * @throws Error for a key that is no column of `table`, or a `read` without the primary key's
 *   columns (programming errors)
 */
export function rowUnchanged<T extends MySqlTable>(table: T, read: Partial<T["$inferSelect"]>): SQL {
  const columns = getTableColumns(table);
  const key: SQL[] = [];
  const rest: SQL[] = [];
  for (const [name, value] of Object.entries(read)) {
    const column = columns[name];
    if (!column) throw new Error(`rowUnchanged: no column ${name}`);
    const condition = value === null || value === undefined
      ? isNull(column)
      : typeof value === "string" ? sql`CAST(${column} AS BINARY) = CAST(${value} AS BINARY)` : eq(column, value);
    (column.primary ? key : rest).push(condition);
  }
  // Without the key the UPDATE would read (and lock) every row of the table.
  if (key.length === 0) throw new Error("rowUnchanged: the row read holds no primary key column");
  if (rest.length > 0) key.push(sql`(${and(...rest)}) IS TRUE`);
  return and(...key)!;
}
