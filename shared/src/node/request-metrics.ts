/**
 * The metrics set-up both services' `GET /metrics` share (Prometheus text exposition, prom-client);
 * each service only hooks it into its framework (core-api/src/http/core-metrics.ts for Hono,
 * connector/src/http/connector-metrics.ts for Express):
 *
 * - `http_requests_total` and `http_request_duration_seconds` (histogram) per method, route and
 *   status, the route being the pattern the request matched (UNMATCHED_ROUTE when none did);
 * - the gauges read when Prometheus scrapes (ScrapedGauge: the database pools, the outbox depth);
 * - the bearer token that guards the endpoint when METRICS_TOKEN is set.
 *
 * Every app gets its own registry (not prom-client's global one), so several apps in one process
 * (tests, workers) never share or clash on series. prom-client is plain JavaScript over Web APIs
 * for what is used here, and node:crypto's timingSafeEqual is Deno's too, so Deno runs this.
 */
import { timingSafeEqual } from "node:crypto";
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { ScrapedGauge } from "./pool-gauges.ts";

export const METRICS_PATH = "/metrics";
/** The route label of a request no route took (a made-up path, or one refused before routing). */
export const UNMATCHED_ROUTE = "unmatched";
/** Seconds; from a cached read to a slow list, up to the 10 s a request may reasonably take. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Turns an app's registry into its `/metrics` body: on Node nodeMetricsExposition
 * (cluster-metrics.ts), which adds the default Node metrics and sums the worker processes.
 */
export type MetricsExpositionFactory = (registry: Registry) => () => Promise<string>;

/** One app's request metrics. */
export interface RequestMetrics {
  /** the app's own registry */
  registry: Registry;
  /**
   * Counts one answered request.
   * @param route the matched route pattern, or UNMATCHED_ROUTE
   * @param startedMs `performance.now()` when the request arrived
   */
  observe(method: string, route: string, status: number, startedMs: number): void;
  /** the `/metrics` body (Prometheus text format; its content type is `registry.contentType`) */
  exposition(): Promise<string>;
  /**
   * Whether a scrape may read the metrics: always without METRICS_TOKEN, else only with
   * `Authorization: Bearer <METRICS_TOKEN>` (compared in constant time)
   * @param authorization the request's Authorization header
   */
  authorized(authorization: string | undefined): boolean;
}

/**
 * Sets up an app's request metrics.
 * @param options.gauges read at scrape time, each a gauge of the registry
 * @param options.metricsToken METRICS_TOKEN; undefined: the endpoint is open
 * @param options.metricsExposition default the registry alone (the Deno entry, tests)
 */
export function requestMetrics(options: {
  gauges: readonly ScrapedGauge[];
  metricsToken?: string;
  metricsExposition?: MetricsExpositionFactory;
}): RequestMetrics {
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
  for (const source of options.gauges) registerGauge(registry, source);
  const token = options.metricsToken;
  return {
    registry,
    observe(method, route, status, startedMs) {
      const labels = { method, route, status: String(status) };
      requests.inc(labels);
      duration.observe(labels, (performance.now() - startedMs) / 1000);
    },
    exposition: options.metricsExposition?.(registry) ?? (() => registry.metrics()),
    authorized: (authorization) =>
      token === undefined || constantTimeEqual(/^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")?.[1] ?? "", token),
  };
}

/** A gauge of `registry` whose samples `source` gives at each scrape. */
function registerGauge(registry: Registry, source: ScrapedGauge): void {
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

/** Whether `given` is `expected`, compared in constant time (its length aside). */
function constantTimeEqual(given: string, expected: string): boolean {
  const a = new TextEncoder().encode(given);
  const b = new TextEncoder().encode(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
