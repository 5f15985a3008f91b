/**
 * `GET /metrics`: the core API's Prometheus metrics, set up by requestMetrics (request-metrics.ts
 * of @service/shared/node, which the connector shares) and hooked into Hono here:
 *
 * - `http_requests_total` and `http_request_duration_seconds` (histogram) per method, route and
 *   status. The route is the pattern the request matched (`/resources/business/:id`), never the raw
 *   path, so ids do not explode the series; a path no route serves counts as `unmatched`.
 * - `db_pool_connections{pool,state="total|free|in_use"}`, `db_pool_connection_limit{pool}` and
 *   `db_pool_queued_requests{pool}`: use of the mysql2 pool behind `deps.db`, `pool="main"` (the
 *   drizzle client's, `db.$client`);
 * - `outbox_deliveries{status="pending|failed"}` and `outbox_oldest_pending_age_seconds`: the
 *   outbox's depth (outbox/outbox-gauges.ts), read under the request deadline (REQUEST_DEADLINE_MS):
 *   a frozen database fails a scrape with 503 service_unavailable instead of hanging it.
 *
 * Who may read it: when METRICS_TOKEN is set, only `Authorization: Bearer <METRICS_TOKEN>`
 * (Prometheus' `authorization` scrape setting); otherwise anyone who reaches the service port, as
 * a plain Prometheus scrape expects: the port binds to 127.0.0.1 unless HOST says otherwise, and
 * the figures hold no secret or customer data. Set METRICS_TOKEN whenever HOST exposes the port.
 *
 * Deno serves the app's registry as it is. The Node entry passes `deps.metricsExposition`
 * (cluster-metrics.ts of @service/shared/node), which adds the default `process_*` / `nodejs_*`
 * metrics and, with WEB_CONCURRENCY > 1, answers with the sum over all the worker processes (the
 * outbox gauges, read from the shared database by each worker, are not summed: their `max`).
 */
import type { Hono } from "hono";
import { matchedRoutes } from "hono/route";
import { METRICS_PATH, poolGauges, requestMetrics, UNMATCHED_ROUTE, type ScrapedGauge } from "@service/shared/node";
import type { CoreDb } from "../db/client.ts";
import { databaseUntil } from "../db/request-database.ts";
import type { AppDeps, AppEnv } from "../auth/request-context.ts";
import { requestHeader } from "../http/request-headers.ts";
import { ServiceError } from "../http/service-error.ts";
import { outboxGauges } from "../outbox/outbox-gauges.ts";

export { METRICS_PATH, UNMATCHED_ROUTE, type ScrapedGauge };

/**
 * Mounts the request metrics middleware and `GET /metrics`. Call it first in createApp, so the
 * middleware sees (and times) every request, whatever later middleware answers.
 * @param deps `config.metricsToken` guards the endpoint when set; `db`'s pools are reported
 * @throws (from the route) ServiceError `no_valid_session` (6, HTTP 401) when METRICS_TOKEN is set
 *   and the request does not carry it as a bearer token
 */
export function registerMetrics(app: Hono<AppEnv>, deps: Pick<AppDeps, "db" | "config" | "metricsExposition">): void {
  const metrics = requestMetrics({ gauges: scrapedGauges(deps.db, deps.config.requestDeadlineMs), metricsToken: deps.config.metricsToken, metricsExposition: deps.metricsExposition });
  app.use("*", async (c, next) => {
    const started = performance.now();
    await next(); // Hono turns a thrown error into c.res (app.onError) before this resumes
    metrics.observe(c.req.method, matchedRoute(c), c.res.status, started);
  });
  app.get(METRICS_PATH, async (c) => {
    if (!metrics.authorized(requestHeader(c, "authorization"))) {
      throw new ServiceError("no_valid_session", "GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.");
    }
    return c.body(await metrics.exposition(), 200, { "content-type": metrics.registry.contentType });
  });
}

/** The route pattern the request was addressed to: the first matched route that is not middleware. */
function matchedRoute(c: Parameters<typeof matchedRoutes>[0]): string {
  return matchedRoutes(c).find((r) => r.path !== "/*" && r.path !== "*")?.path ?? UNMATCHED_ROUTE;
}

/**
 * The gauges read at scrape time: the database pool (pool-gauges.ts of @service/shared/node) and
 * the outbox's depth (outbox/outbox-gauges.ts). The outbox's query runs on a handle of `db` with
 * the request deadline (db/request-database.ts), as every request's database work does: it ends
 * `deadlineMs` after the scrape starts reading (in a worker process the primary asks, after it is
 * asked), and a database past it fails the scrape with 503 service_unavailable (904).
 * @param deadlineMs REQUEST_DEADLINE_MS
 */
export function scrapedGauges(db: CoreDb, deadlineMs: number): ScrapedGauge[] {
  return [...poolGauges([{ name: "main", pool: db.$client }]), ...outboxGauges(() => databaseUntil(db, performance.now() + deadlineMs))];
}
