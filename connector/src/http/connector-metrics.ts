/**
 * `GET /metrics`: the connector's Prometheus metrics (text exposition format, prom-client), the
 * same series as the core API's:
 *
 * - `http_requests_total` and `http_request_duration_seconds` (histogram) per method, route and
 *   status. The route is the pattern the request matched, with its mount path
 *   (`/rest/V1/service/customer/user_info/:customerId`), never the raw path, so ids and emails do
 *   not explode the series (or leak into them); a request no route took (an unknown path, or one
 *   refused before routing, such as a missing integration token) counts as `unmatched`.
 * - `db_pool_connections{pool="main",state="total|free|in_use"}`, `db_pool_connection_limit{pool}`
 *   and `db_pool_queued_requests{pool}`: use of the mysql2 pool behind `db` (the label as the core
 *   API's, which has a second pool).
 *
 * Who may read it: when METRICS_TOKEN is set, only `Authorization: Bearer <METRICS_TOKEN>`;
 * otherwise anyone who reaches the service port, as a plain Prometheus scrape expects (the port
 * binds to 127.0.0.1 unless HOST says otherwise; the figures hold no secret or customer data).
 * The integration token is not accepted here: a scraper should not hold a key to customer data.
 *
 * Every app gets its own registry (not prom-client's global one), so several apps in one process
 * (tests) never share or clash on series. main.ts passes `metricsExposition`
 * (@service/shared/cluster-metrics): the default `process_*` / `nodejs_*` metrics join, and with
 * WEB_CONCURRENCY > 1 the answer is the sum over all the worker processes.
 */
import { timingSafeEqual } from "node:crypto";
import { Router, type Request } from "express";
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { ConnectorDb } from "../db/client.ts";
import { notAuthorized } from "./errors.ts";
import { watchMatchedRoute } from "./matched-route.ts";
import { poolGauges, type ScrapedGauge } from "@service/shared/pool-gauges";

export type { ScrapedGauge };
/** Turns the app's registry into its `/metrics` body (@service/shared/cluster-metrics on Node). */
export type MetricsExpositionFactory = (registry: Registry) => () => Promise<string>;

export const METRICS_PATH = "/metrics";
/** The route label of a request no route took. */
export const UNMATCHED_ROUTE = "unmatched";
/** The resource named in the 401 body of a refused scrape (Magento's ACL style, as http/auth.ts). */
const METRICS_ACL_RESOURCE = "Service_Connector::metrics";
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];


/**
 * The metrics router: times every request that reaches it and serves `GET /metrics`. Mount it
 * first (`app.use(connectorMetrics(...))`), before anything that may answer.
 * @param deps.metricsToken guards the endpoint when set (METRICS_TOKEN)
 * @param deps.metricsExposition the `/metrics` body from the app's registry; default the registry alone
 * @throws (via next) ConnectorError 401 when METRICS_TOKEN is set and the request lacks it
 */
export function connectorMetrics(deps: { db: ConnectorDb; metricsToken?: string; metricsExposition?: MetricsExpositionFactory }): Router {
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
      aggregator: source.aggregator ?? "sum",
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
  const exposition = deps.metricsExposition?.(registry) ?? (() => registry.metrics());
  const expected = deps.metricsToken === undefined ? undefined : Buffer.from(deps.metricsToken);
  router.get(METRICS_PATH, async (req, res) => {
    if (expected) {
      const given = Buffer.from(/^Bearer\s+(\S+)\s*$/i.exec(req.get("authorization") ?? "")?.[1] ?? "");
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw notAuthorized(METRICS_ACL_RESOURCE);
    }
    res.type(registry.contentType).send(await exposition());
  });
  return router;
}

/** The gauges read at scrape time: the database pool (@service/shared/pool-gauges); the outbox depth joins here. */
export function scrapedGauges(db: ConnectorDb): ScrapedGauge[] {
  return poolGauges([{ name: "main", pool: db.$client }]);
}
