/**
 * `GET /metrics`: the connector's Prometheus metrics, the same series as the core API's, set up by
 * requestMetrics (request-metrics.ts of @service/shared/node) and hooked into Express here:
 *
 * - `http_requests_total` and `http_request_duration_seconds` (histogram) per method, route and
 *   status. The route is the pattern the request matched, with its mount path
 *   (`/rest/V1/service/customer/user_info/:customerId`), never the raw path, so ids and emails do
 *   not explode the series (or leak into them); a request no route took (an unknown path, or one
 *   refused before routing, such as a missing integration token) counts as `unmatched`.
 * - `db_pool_connections{pool="main",state="total|free|in_use"}`, `db_pool_connection_limit{pool}`
 *   and `db_pool_queued_requests{pool}`: use of the mysql2 pool behind `db` (the label as the core
 *   API's).
 *
 * Who may read it: when METRICS_TOKEN is set, only `Authorization: Bearer <METRICS_TOKEN>`;
 * otherwise anyone who reaches the service port, as a plain Prometheus scrape expects (the port
 * binds to 127.0.0.1 unless HOST says otherwise; the figures hold no secret or customer data).
 * The integration token is not accepted here: a scraper should not hold a key to customer data.
 *
 * main.ts passes `metricsExposition` (cluster-metrics.ts of @service/shared/node): the default
 * `process_*` / `nodejs_*` metrics join, and with WEB_CONCURRENCY > 1 the answer is the sum over
 * all the worker processes.
 */
import { Router } from "express";
import { METRICS_PATH, poolGauges, requestMetrics, UNMATCHED_ROUTE, type MetricsExpositionFactory, type ScrapedGauge } from "@service/shared/node";
import type { ConnectorDb } from "../db/client.ts";
import { notAuthorized } from "./errors.ts";
import { watchMatchedRoute } from "./matched-route.ts";

export { METRICS_PATH, UNMATCHED_ROUTE, type MetricsExpositionFactory, type ScrapedGauge };

/** The resource named in the 401 body of a refused scrape (Magento's ACL style, as http/auth.ts). */
const METRICS_ACL_RESOURCE = "Service_Connector::metrics";

/**
 * The metrics router: times every request that reaches it and serves `GET /metrics`. Mount it
 * first (`app.use(connectorMetrics(...))`), before anything that may answer.
 * @param deps.metricsToken guards the endpoint when set (METRICS_TOKEN)
 * @param deps.metricsExposition the `/metrics` body from the app's registry; default the registry alone
 * @throws (via next) ConnectorError 401 when METRICS_TOKEN is set and the request lacks it
 */
export function connectorMetrics(deps: { db: ConnectorDb; metricsToken?: string; metricsExposition?: MetricsExpositionFactory }): Router {
  const metrics = requestMetrics({ gauges: scrapedGauges(deps.db), metricsToken: deps.metricsToken, metricsExposition: deps.metricsExposition });
  const router = Router();
  router.use((req, res, next) => {
    const started = performance.now();
    const route = watchMatchedRoute(req);
    res.once("finish", () => metrics.observe(req.method, route() ?? UNMATCHED_ROUTE, res.statusCode, started));
    next();
  });
  router.get(METRICS_PATH, async (req, res) => {
    if (!metrics.authorized(req.get("authorization"))) throw notAuthorized(METRICS_ACL_RESOURCE);
    res.type(metrics.registry.contentType).send(await metrics.exposition());
  });
  return router;
}

/** The gauges read at scrape time: the database pool (pool-gauges.ts of @service/shared/node). */
export function scrapedGauges(db: ConnectorDb): ScrapedGauge[] {
  return poolGauges([{ name: "main", pool: db.$client }]);
}
