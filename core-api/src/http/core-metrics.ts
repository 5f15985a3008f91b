/**
 * `GET /metrics`: the core API's Prometheus metrics (text exposition format, prom-client).
 *
 * - `http_requests_total` and `http_request_duration_seconds` (histogram) per method, route and
 *   status. The route is the pattern the request matched (`/resources/business/:id`), never the raw
 *   path, so ids do not explode the series; a path no route serves counts as `unmatched`.
 * - `db_pool_connections{pool,state="total|free|in_use"}`, `db_pool_connection_limit{pool}` and
 *   `db_pool_queued_requests{pool}`: use of the mysql2 pool behind `deps.db`, `pool="main"` (the
 *   drizzle client's, `db.$client`);
 * - `outbox_deliveries{status="pending|failed"}` and `outbox_oldest_pending_age_seconds`: the
 *   outbox's depth (outbox/outbox-gauges.ts).
 *
 * Who may read it: when METRICS_TOKEN is set, only `Authorization: Bearer <METRICS_TOKEN>`
 * (Prometheus' `authorization` scrape setting); otherwise anyone who reaches the service port, as
 * a plain Prometheus scrape expects: the port binds to 127.0.0.1 unless HOST says otherwise, and
 * the figures hold no secret or customer data. Set METRICS_TOKEN whenever HOST exposes the port.
 *
 * Every app gets its own registry (not prom-client's global one), so several apps in one process
 * (tests, workers) never share or clash on series. prom-client is plain JavaScript over Web
 * APIs for what is used here, so Deno runs this too: the Deno entry serves this registry as it
 * is. The Node entry passes `deps.metricsExposition` (@service/shared/cluster-metrics), which adds
 * the default `process_*` / `nodejs_*` metrics and, with WEB_CONCURRENCY > 1, answers with the
 * sum over all the worker processes (the outbox gauges, read from the shared database by each
 * worker, are not summed: their `max`).
 */
import type { Hono } from "hono";
import { matchedRoutes } from "hono/route";
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import { timingSafeEqualString } from "../auth/secrets.ts";
import type { CoreDb } from "../db/client.ts";
import type { AppDeps, AppEnv } from "./request-context.ts";
import { requestHeader } from "./request-headers.ts";
import { ServiceError } from "./service-error.ts";
import { poolGauges, type ScrapedGauge } from "@service/shared/pool-gauges";
import { outboxGauges } from "../outbox/outbox-gauges.ts";

export type { ScrapedGauge };

export const METRICS_PATH = "/metrics";
/** The route label of a request no route matched (404 / 405 answers to made-up paths). */
export const UNMATCHED_ROUTE = "unmatched";
/** Seconds; from a cached read to a slow list, up to the 10 s a request may reasonably take. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];


/**
 * Mounts the request metrics middleware and `GET /metrics`. Call it first in createApp, so the
 * middleware sees (and times) every request, whatever later middleware answers.
 * @param deps `config.metricsToken` guards the endpoint when set; `db`'s pools are reported
 * @throws (from the route) ServiceError `no_valid_session` (6, HTTP 401) when METRICS_TOKEN is set
 *   and the request does not carry it as a bearer token
 */
export function registerMetrics(app: Hono<AppEnv>, deps: Pick<AppDeps, "db" | "config" | "metricsExposition">): void {
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

  app.use("*", async (c, next) => {
    const started = performance.now();
    await next(); // Hono turns a thrown error into c.res (app.onError) before this resumes
    const labels = { method: c.req.method, route: matchedRoute(c), status: String(c.res.status) };
    requests.inc(labels);
    duration.observe(labels, (performance.now() - started) / 1000);
  });

  const exposition = deps.metricsExposition?.(registry) ?? (() => registry.metrics());
  const token = deps.config.metricsToken;
  app.get(METRICS_PATH, async (c) => {
    if (token !== undefined) {
      const given = /^Bearer\s+(\S+)\s*$/i.exec(requestHeader(c, "authorization") ?? "")?.[1] ?? "";
      if (!timingSafeEqualString(given, token)) {
        throw new ServiceError("no_valid_session", "GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.");
      }
    }
    return c.body(await exposition(), 200, { "content-type": registry.contentType });
  });
}

/** The route pattern the request was addressed to: the first matched route that is not middleware. */
function matchedRoute(c: Parameters<typeof matchedRoutes>[0]): string {
  return matchedRoutes(c).find((r) => r.path !== "/*" && r.path !== "*")?.path ?? UNMATCHED_ROUTE;
}

/** The gauges read at scrape time: both database pools (@service/shared/pool-gauges) and the outbox's depth (outbox/outbox-gauges.ts). */
export function scrapedGauges(db: CoreDb): ScrapedGauge[] {
  return [...poolGauges([{ name: "main", pool: db.$client }]), ...outboxGauges(db)];
}
