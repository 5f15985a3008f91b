/**
 * A search page's statement with the page's business rows joined to it (businesses/search.ts;
 * the ids and then their rows were two round trips): the page's ids joined to `businesses`, in the
 * page's order, read as the compiled reads read a row (db/compiled-select.ts tableRows).
 */
import { asc, desc, getTableColumns, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/mysql-core";
import type { CoreDb } from "../db/client.ts";
import { tableRows } from "../db/compiled-select.ts";
import { businesses } from "../db/schema.ts";
import { rowArrays } from "./query.ts";
import type { BusinessRow } from "./business-repository.ts";

/** A business of a search's page. */
export interface BusinessHit {
  row: BusinessRow;
  /** kilometres from the search point; null without location search */
  distanceKm: number | null;
}

/**
 * A plan's page (its statement already sent) and how to count its total: asked for, the count
 * runs side by side with the page on a connection of its own; not asked for, it never runs. A
 * plan without `total` counts it with the page (PageHits.total).
 */
export type PlannedPage = { hits: Promise<PageHits>; total?: () => Promise<number> };
/** The page's hits, and the total when the page's own statement counted it. */
export type PageHits = { hits: BusinessHit[]; total?: number };

/**
 * A page's statement, its rows not yet joined: it selects `id`, `distance_km` (a number, or NULL
 * without location) and the columns `order` names, ordered by them and limited to the page.
 */
export interface PageStatement {
  sql: SQL;
  /** the page's order by the statement's columns, ids last */
  order: OrderKey[];
}

/** One key of a page's order: a column the page's statement selects, and its direction. */
export interface OrderKey {
  column: "distance_km" | "relevance" | "sort_key" | "id";
  descending: boolean;
}

/** `column` in `order`'s direction, as ORDER BY takes it (`inner` names the table or derived table). */
export function orderBy(order: readonly OrderKey[], inner?: string): SQL {
  const keys = order.map(({ column, descending }) => {
    const name = inner ? sql`${sql.identifier(inner)}.${sql.identifier(column)}` : sql.identifier(column);
    return descending ? desc(name) : asc(name);
  });
  return sql.join(keys, sql`, `);
}

/** The business row as the page's statements select it (alias `r`), read as the compiled reads read a row. */
const r = alias(businesses, "r");
const BUSINESS_ROWS = tableRows(businesses);
const ROW_COLUMNS = sql.join(Object.values(getTableColumns(r)), sql`, `);
/** The columns of a business row; pageWithRows selects the distance right after them. */
export const BUSINESS_ROW_COLUMNS = BUSINESS_ROWS.count;

/**
 * The page's statement with its business rows joined, in its order: the business columns
 * (BUSINESS_ROWS), then the distance, then the statement's `extra` columns (of `p`).
 */
export function pageWithRows(page: PageStatement, extra?: SQL): SQL {
  return sql`SELECT ${ROW_COLUMNS}, p.distance_km${extra ? sql`, ${extra}` : sql``} FROM (${page.sql}) p
    JOIN ${businesses} ${r} ON ${r.id} = p.id AND ${r.deleted} = 0 ORDER BY ${orderBy(page.order, "p")}`;
}

/** Reads hits from the rows of pageWithRows. */
export function hitsOf(found: readonly unknown[][]): BusinessHit[] {
  const at = BUSINESS_ROW_COLUMNS;
  return found.map((row) => ({ row: BUSINESS_ROWS.read(row), distanceKm: row[at] === null ? null : Number(row[at]) }));
}

/** Runs `page` with its rows joined (pageWithRows). */
export async function pageHits(db: CoreDb, page: PageStatement): Promise<BusinessHit[]> {
  return hitsOf(await rowArrays(db, pageWithRows(page)));
}

