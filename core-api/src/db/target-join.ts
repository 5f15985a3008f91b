/**
 * A row read in the same statement as a query that grants a chain (a GET by id was the
 * authentication query and then the row, two round trips where a bare PK select is one): the
 * granting query LEFT JOINs the target's table on the chain it grants, so the row comes back in
 * the same statement, or NULLs when there is none. The granting query knows the join only as a
 * table, a selection and a condition: what the row is, and what it becomes, is its reader's
 * (resources/request-scope.ts resolveScopeReading). Nothing is read that the separate lookup would not read: the join names
 * the target in the granted chain only (another chain's id finds nothing, as before), and a handler
 * uses the row only after the grant passed its checks.
 *
 * Only cheap lookups by a unique key join (a PK, a unique index): the query runs before the
 * credentials are known to be good, so it must cost a bad request no more than a good one.
 */
import type { SQL } from "drizzle-orm";
import type { MySqlColumn, MySqlTable } from "drizzle-orm/mysql-core";
import type { CompiledSelect } from "./compiled-select.ts";

/** How a target row joins a granting query. */
export interface TargetJoin {
  /** names the statements compiled with this join (one per join, once) */
  key: string;
  table: MySqlTable;
  /** what is read of the target (for example a resource's storage selection) */
  selection: Record<string, MySqlColumn | SQL>;
  /**
   * the join condition: the target named by the placeholder `target` in the chain `chainId`
   * (the granted chain's id column), live rows only when the lookup reads live rows
   */
  on(chainId: MySqlColumn): SQL;
}

/** A target to read with the check: the join, and the value of its placeholder. */
export interface TargetRequest {
  join: TargetJoin;
  /** the identifier's value (an id, an owner code) */
  value: number | string;
}

/** The target read with the check: the row, or null when the granted chain holds none. */
export interface TargetRead {
  join: TargetJoin;
  value: number | string;
  row: Record<string, unknown> | null;
}

/**
 * A statement per target join, compiled the first time each is used.
 * @param compile builds the statement without a join (undefined) or with `join`
 */
export function perTargetJoin<S extends CompiledSelect<any, any>>(compile: (join?: TargetJoin) => S): (join?: TargetJoin) => S {
  const compiled = new Map<string, S>();
  return (join) => {
    const key = join?.key ?? "";
    let statement = compiled.get(key);
    if (!statement) compiled.set(key, (statement = compile(join)));
    return statement;
  };
}

/**
 * `grant` with the target its query read, when a target was asked for.
 * @param row the statement's `target` selection (null or absent: no such row in the granted chain)
 */
export function attachTarget<G extends object>(grant: G, target: TargetRequest | undefined, row: Record<string, unknown> | null | undefined): G & { target?: TargetRead } {
  return target ? { ...grant, target: { join: target.join, value: target.value, row: row ?? null } } : grant;
}
