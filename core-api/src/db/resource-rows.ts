/**
 * The generic reads of a resource's rows through its storage mapping (db/resource-columns.ts): a
 * list page with its total (spec, "List parameters"), and one row.
 */
import { and, count, type SQL } from "drizzle-orm";
import type { MySqlColumn, MySqlTable } from "drizzle-orm/mysql-core";
import type { CoreDb } from "./client.ts";
import type { ListRequest, ResourceColumns } from "./resource-columns.ts";

/**
 * One page of a resource's list and the total over all pages: rows within `within` (the chain,
 * live rows, visibility) matching every filter, in `map.orderBy` order.
 * @returns the rows as `map.selection` reads them
 */
export async function listRows<T extends MySqlTable, Row, Extra extends Record<string, SQL>>(
  db: CoreDb,
  map: ResourceColumns<T, Row, Extra>,
  within: SQL[],
  q: ListRequest,
): Promise<{ rows: Row[]; total: number }> {
  const where = and(...within, ...map.conditions(q.filters));
  // The table is generic here, so drizzle cannot type the rows; they are exactly what map.selection reads.
  const table = map.table as MySqlTable;
  const selection = map.selection as Record<string, MySqlColumn | SQL>;
  const [rows, [counted]] = await Promise.all([
    db.select(selection).from(table).where(where).orderBy(...map.orderBy(q)).limit(q.limit).offset(q.offset),
    db.select({ n: count() }).from(table).where(where),
  ]);
  return { rows: rows as Row[], total: Number(counted?.n ?? 0) };
}

/**
 * The first row within `where` (the chain, an identifier, live or not), as `map.selection` reads it.
 * @returns the row, or null when none matches
 */
export async function findRow<T extends MySqlTable, Row, Extra extends Record<string, SQL>>(
  db: CoreDb,
  map: ResourceColumns<T, Row, Extra>,
  where: Array<SQL | undefined>,
): Promise<Row | null> {
  const selection = map.selection as Record<string, MySqlColumn | SQL>;
  const [row] = await db.select(selection).from(map.table as MySqlTable).where(and(...where)).limit(1);
  return (row as Row | undefined) ?? null;
}
