/**
 * The database pool's use as metrics gauges, for both services' `GET /metrics` (issue 11,
 * "Metrics"). No driver import: it reads the mysql2 pool behind a drizzle client structurally
 * (mysql2 keeps these counters only in its internals), so this contracts package stays free of
 * drivers while both services share one implementation, as with db-timeouts.ts.
 */

/** A gauge whose values are read when Prometheus scrapes (the outbox depth joins these later). */
export interface ScrapedGauge {
  name: string;
  help: string;
  labelNames?: string[];
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

/**
 * The gauges of the pool behind `db` (a drizzle mysql2 client: `db.$client.pool`):
 * db_pool_connections{state=total|free|in_use}, db_pool_connection_limit, db_pool_queued_requests.
 * @returns gauges that report no samples when the pool's counters cannot be read
 */
export function poolGauges(db: unknown): ScrapedGauge[] {
  return [
    {
      name: "db_pool_connections",
      help: "Connections of the database pool: total open, free (idle) and in use.",
      labelNames: ["state"],
      read: () => {
        const use = poolUse(db);
        return use ? [
          { labels: { state: "total" }, value: use.total },
          { labels: { state: "free" }, value: use.free },
          { labels: { state: "in_use" }, value: use.total - use.free },
        ] : [];
      },
    },
    { name: "db_pool_connection_limit", help: "Most connections the database pool opens.", read: () => valueOf(poolUse(db)?.limit) },
    { name: "db_pool_queued_requests", help: "Queries waiting for a free pool connection.", read: () => valueOf(poolUse(db)?.queued) },
  ];
}

function valueOf(v: number | undefined): Array<{ value: number }> {
  return v === undefined ? [] : [{ value: v }];
}

function poolUse(db: unknown): { total: number; free: number; queued: number; limit: number } | undefined {
  const pool = (db as { $client?: { pool?: Mysql2PoolInternals } } | null)?.$client?.pool;
  if (!pool?._allConnections || !pool._freeConnections || !pool._connectionQueue) return undefined;
  return {
    total: pool._allConnections.length,
    free: pool._freeConnections.length,
    queued: pool._connectionQueue.length,
    limit: pool.config?.connectionLimit ?? 0,
  };
}
