/**
 * `GET /metrics`: the connector's Prometheus metrics (text exposition format, prom-client), the
 * same series as the core API's:
 *
 * - `http_requests_total` and `http_request_duration_seconds` (histogram) per method, route and
 *   status. The route is the pattern the request matched, with its mount path
 *   (`/rest/V1/service/customer/user_info/:customerId`), never the raw path, so ids and emails do
 *   not explode the series (or leak into them); a request no route took (an unknown path, or one
 *   refused before routing, such as a missing integration token) counts as `unmatched`.
 * - `db_pool_connections{state="total|free|in_use"}`, `db_pool_connection_limit` and
 *   `db_pool_queued_requests`: use of the mysql2 pool behind `db`.
 *
 * Who may read it: when METRICS_TOKEN is set, only `Authorization: Bearer <METRICS_TOKEN>`;
 * otherwise anyone who reaches the service port, as a plain Prometheus scrape expects (the port
 * binds to 127.0.0.1 unless HOST says otherwise; the figures hold no secret or customer data).
 * The integration token is not accepted here: a scraper should not hold a key to customer data.
 *
 * Every app gets its own registry (not prom-client's global one), so several apps in one process
 * (tests) never share or clash on series.
 */
import { timingSafeEqual } from "node:crypto";
import { Router, type Request } from "express";
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { ConnectorDb } from "../db/client.ts";
import { notAuthorized } from "./errors.ts";
import { watchMatchedRoute } from "./matched-route.ts";

export const METRICS_PATH = "/metrics";
/** The route label of a request no route took. */
export const UNMATCHED_ROUTE = "unmatched";
/** The resource named in the 401 body of a refused scrape (Magento's ACL style, as http/auth.ts). */
const METRICS_ACL_RESOURCE = "Service_Connector::metrics";
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * A gauge whose values are read when Prometheus scrapes: the hook for figures that live outside
 * the request path (an outbox depth, should the connector get one, is one more entry of
 * {@link scrapedGauges}).
 */
export interface ScrapedGauge {
  name: string;
  help: string;
  labelNames?: string[];
  /** the current values; an empty list leaves the gauge without samples */
  read(): Promise<Array<{ labels?: Record<string, string>; value: number }>> | Array<{ labels?: Record<string, string>; value: number }>;
}

/**
 * The metrics router: times every request that reaches it and serves `GET /metrics`. Mount it
 * first (`app.use(connectorMetrics(...))`), before anything that may answer.
 * @param deps.metricsToken guards the endpoint when set (METRICS_TOKEN)
 * @throws (via next) ConnectorError 401 when METRICS_TOKEN is set and the request lacks it
 */
export function connectorMetrics(deps: { db: ConnectorDb; metricsToken?: string }): Router {
  const registry = new Registry();
  const labelNames = ["method", "route", "status"] as const;
  const requests = new Counter({ name: "http_requests_total", help: "HTTP requests answered, by method, matched route and status.", labelNames, registers: [registry] });
  const duration = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time from receiving a request to its response, by method, matched route and status.",
    labelNames,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  for (const source of scrapedGauges(deps.db)) {
    new Gauge({
      name: source.name,
      help: source.help,
      labelNames: source.labelNames ?? [],
      registers: [registry],
      async collect() {
        const values = await source.read();
        this.reset();
        for (const v of values) this.set(v.labels ?? {}, v.value);
      },
    });
  }

  const router = Router();
  router.use((req, res, next) => {
    const started = performance.now();
    const route = watchMatchedRoute(req);
    res.once("finish", () => {
      const labels = { method: req.method, route: route() ?? UNMATCHED_ROUTE, status: String(res.statusCode) };
      requests.inc(labels);
      duration.observe(labels, (performance.now() - started) / 1000);
    });
    next();
  });
  const expected = deps.metricsToken === undefined ? undefined : Buffer.from(deps.metricsToken);
  router.get(METRICS_PATH, async (req, res) => {
    if (expected) {
      const given = Buffer.from(/^Bearer\s+(\S+)\s*$/i.exec(req.get("authorization") ?? "")?.[1] ?? "");
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw notAuthorized(METRICS_ACL_RESOURCE);
    }
    res.type(registry.contentType).send(await registry.metrics());
  });
  return router;
}

/** The gauges read at scrape time (see ScrapedGauge). */
export function scrapedGauges(db: ConnectorDb): ScrapedGauge[] {
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

/** The mysql2 pool's own counters, read from its internals (mysql2 has no public API for them). */
interface Mysql2PoolInternals {
  _allConnections?: { length: number };
  _freeConnections?: { length: number };
  _connectionQueue?: { length: number };
  config?: { connectionLimit?: number };
}

/** Pool use of drizzle's client (`db.$client`, a mysql2 promise pool wrapping the callback pool). */
function poolUse(db: ConnectorDb): { total: number; free: number; queued: number; limit: number } | undefined {
  const pool = (db as { $client?: { pool?: Mysql2PoolInternals } }).$client?.pool;
  if (!pool?._allConnections || !pool._freeConnections || !pool._connectionQueue) return undefined;
  return {
    total: pool._allConnections.length,
    free: pool._freeConnections.length,
    queued: pool._connectionQueue.length,
    limit: pool.config?.connectionLimit ?? 0,
  };
}
