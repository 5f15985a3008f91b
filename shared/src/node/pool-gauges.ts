/**
 * The database pools' use as metrics gauges, for both services' `GET /metrics`, one sample per pool
 * by the label `pool` (core-api has two: `main` and `writes`; the connector one, `main`). No driver
 * import: it reads mysql2 pools structurally (mysql2 keeps these counters only in its internals),
 * as db-timeouts.ts guards them, so both services share one implementation.
 */

/** A gauge whose values are read when Prometheus scrapes (the outbox depth joins these later). */
export interface ScrapedGauge {
  name: string;
  help: string;
  labelNames?: string[];
  /**
   * how the values of several worker processes combine (prom-client's aggregators): `sum`
   * (default) for what each process has of its own, such as its pools; `max` for a figure every
   * process reads from the same database
   */
  aggregator?: "sum" | "max" | "min" | "first" | "average";
  /** the current values; an empty list leaves the gauge without samples */
  read(): Promise<Array<{ labels?: Record<string, string>; value: number }>> | Array<{ labels?: Record<string, string>; value: number }>;
}

/** The mysql2 callback pool's own counters (not public API). */
interface Mysql2PoolInternals {
  _allConnections?: { length: number };
  _freeConnections?: { length: number };
  _connectionQueue?: { length: number };
  config?: { connectionLimit?: number };
}

/** A database pool to report, and the `pool` label its samples carry. */
export interface NamedPool {
  /** the label value, e.g. `main` (the drizzle client's pool) or `writes` (core-api's one-round-trip writes) */
  name: string;
  /** a mysql2 pool: the promise pool (`db.$client`, whose `.pool` is the callback pool) or the callback pool itself */
  pool: unknown;
}

/**
 * The gauges of `pools`, one sample per pool (label `pool`):
 * db_pool_connections{pool, state=total|free|in_use}, db_pool_connection_limit{pool},
 * db_pool_queued_requests{pool}.
 * @param pools each pool once, by a distinct name
 * @returns gauges that leave out a pool whose counters cannot be read
 */
export function poolGauges(pools: readonly NamedPool[]): ScrapedGauge[] {
  const each = <T>(sample: (use: PoolUse) => T[]): T[] => pools.flatMap(({ name, pool }) => {
    const use = poolUse(pool);
    return use ? sample({ ...use, name }) : [];
  });
  return [
    {
      name: "db_pool_connections",
      help: "Connections of each database pool: total open, free (idle) and in use.",
      labelNames: ["pool", "state"],
      read: () => each((use) => [
        { labels: { pool: use.name, state: "total" }, value: use.total },
        { labels: { pool: use.name, state: "free" }, value: use.free },
        { labels: { pool: use.name, state: "in_use" }, value: use.total - use.free },
      ]),
    },
    {
      name: "db_pool_connection_limit",
      help: "Most connections each database pool opens.",
      labelNames: ["pool"],
      read: () => each((use) => [{ labels: { pool: use.name }, value: use.limit }]),
    },
    {
      name: "db_pool_queued_requests",
      help: "Queries waiting for a free connection of each database pool.",
      labelNames: ["pool"],
      read: () => each((use) => [{ labels: { pool: use.name }, value: use.queued }]),
    },
  ];
}

interface PoolUse {
  name: string;
  total: number;
  free: number;
  queued: number;
  limit: number;
}

/** The counters of a mysql2 promise pool (through its `.pool`) or callback pool; undefined when unreadable. */
function poolUse(given: unknown): Omit<PoolUse, "name"> | undefined {
  const outer = given as (Mysql2PoolInternals & { pool?: Mysql2PoolInternals }) | null | undefined;
  const pool = outer?._allConnections ? outer : outer?.pool;
  if (!pool?._allConnections || !pool._freeConnections || !pool._connectionQueue) return undefined;
  return {
    total: pool._allConnections.length,
    free: pool._freeConnections.length,
    queued: pool._connectionQueue.length,
    limit: pool.config?.connectionLimit ?? 0,
  };
}
