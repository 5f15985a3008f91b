/**
 * The Node layer of both services' `GET /metrics` (Prometheus text exposition, prom-client).
 *
 * - Every process adds the default Node metrics (`process_*`, `nodejs_*`: prom-client's
 *   collectDefaultMetrics) to each service's own series. The Deno entry does not use this module:
 *   it serves the app's registry alone.
 * - With WEB_CONCURRENCY > 1 (worker-processes.ts) the scrape reaches one worker, whose own
 *   counters are only its share. So a worker asks the primary, the primary collects the series of
 *   that one service from every connected worker and answers with their aggregate: counters and
 *   histograms summed, each default metric as prom-client defines for clusters (start time left
 *   out, version the first, event loop lag averaged...), each gauge by its `aggregator`. Two
 *   scrapes in a row never go down unless a worker died and was replaced (its counts go with it,
 *   which Prometheus reads as the counter reset it is).
 *
 * prom-client's own cluster support (AggregatorRegistry) aggregates here, through its static
 * `aggregate`; its `clusterMetrics()` does not fit: it runs in the primary (the scrape reaches a
 * worker) and always gathers the same registries of every worker, while `npm start` runs both
 * services in each worker and each service's /metrics shows only its own series. The messages
 * below carry the service's name for that.
 *
 * Node only (node:cluster).
 */
import cluster, { type Worker } from "node:cluster";
import { AggregatorRegistry, collectDefaultMetrics, Registry, type MetricObjectWithValues, type MetricValue } from "prom-client";

/** One metric with its values, as Registry.getMetricsAsJSON gives it (what travels between processes). */
export type MetricJSON = MetricObjectWithValues<MetricValue<string>>;

/** Produces a service's `/metrics` body (Prometheus text format). */
export type MetricsExposition = () => Promise<string>;

/** Longest the primary waits for every worker's series (a worker waits a second more for its answer, so the primary's reason reaches it). */
export const COLLECT_TIMEOUT_MS = 5_000;

type MetricsMessage =
  | { kind: "metrics-request"; requestId: number; service: string }
  | { kind: "metrics-answer"; requestId: number; text?: string; error?: string }
  | { kind: "metrics-collect"; collectId: number; service: string }
  | { kind: "metrics-part"; collectId: number; metrics?: MetricJSON[]; error?: string };

let processRegistry: Registry | undefined;
/** This process's default Node metrics, one registry for all the services it runs. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** In a worker: the registry of each service it runs, by service name. */
const serviceRegistries = new Map<string, Registry>();

/**
 * The `/metrics` body of `service` in this Node process: its registry and the default Node
 * metrics; in a worker forked by forkWorkers, summed over all the workers (asked of the primary).
 * @param service the service's name (`core-api`, `connector`): one registry per name and process
 * @param registry the service's own series (http_requests_total, the pools' gauges...)
 * @returns the exposition; it rejects with an Error (the scrape fails) when a worker or
 *   the primary did not answer within COLLECT_TIMEOUT_MS: a failed scrape, never a partial sum
 *   that Prometheus would read as a counter reset
 */
export function nodeMetricsExposition(service: string, registry: Registry): MetricsExposition {
  if (!cluster.isWorker) {
    const merged = Registry.merge([registry, processMetrics()]);
    return () => merged.metrics();
  }
  serviceRegistries.set(service, registry);
  answerCollectRequests();
  return () => askPrimary(service);
}

/** This worker's series of `service` (none when it does not run it, for example while it starts). */
async function localSeries(service: string): Promise<MetricJSON[]> {
  const registry = serviceRegistries.get(service);
  if (!registry) return [];
  const [own, node] = await Promise.all([registry.getMetricsAsJSON(), processMetrics().getMetricsAsJSON()]);
  return [...own, ...node] as MetricJSON[];
}

let workerListening = false;
let requestCounter = 0;
const answers = new Map<number, (message: Extract<MetricsMessage, { kind: "metrics-answer" }>) => void>();

/** In a worker (once): answers the primary's collect messages and routes its answers to askPrimary. */
function answerCollectRequests(): void {
  if (workerListening) return;
  workerListening = true;
  process.on("message", (message: MetricsMessage) => {
    if (message?.kind === "metrics-answer") answers.get(message.requestId)?.(message);
    if (message?.kind !== "metrics-collect") return;
    localSeries(message.service).then(
      (metrics) => process.send?.({ kind: "metrics-part", collectId: message.collectId, metrics } satisfies MetricsMessage),
      (err: Error) => process.send?.({ kind: "metrics-part", collectId: message.collectId, error: err.message } satisfies MetricsMessage),
    );
  });
}

/** In a worker: the aggregate over all workers of `service`'s series, from the primary. */
function askPrimary(service: string): Promise<string> {
  const requestId = requestCounter++;
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => finish({ kind: "metrics-answer", requestId, error: "the primary process did not answer" }), COLLECT_TIMEOUT_MS + 1_000);
    function finish(answer: Extract<MetricsMessage, { kind: "metrics-answer" }>): void {
      clearTimeout(timer);
      answers.delete(requestId);
      if (answer.text !== undefined) resolve(answer.text);
      else reject(new Error(`metrics of all workers unavailable: ${answer.error ?? "no answer"}`));
    }
    answers.set(requestId, finish);
    process.send?.({ kind: "metrics-request", requestId, service } satisfies MetricsMessage);
  });
}

let primaryListening = false;
let servingWorkers: () => Iterable<Worker> = () => [];
let collectCounter = 0;
const collections = new Map<number, (message: Extract<MetricsMessage, { kind: "metrics-part" }>) => void>();

/**
 * In the primary (forkWorkers calls it): answers each worker's metrics request with the aggregate
 * of that service's series over the workers that serve.
 * @param workers the workers that reported their services listening (a worker still starting has
 *   no series yet and is not asked); the latest call's list is used
 */
export function serveClusterMetrics(workers: () => Iterable<Worker>): void {
  servingWorkers = workers;
  if (primaryListening) return;
  primaryListening = true;
  cluster.on("message", (worker: Worker, message: MetricsMessage) => {
    if (message?.kind === "metrics-part") collections.get(message.collectId)?.(message);
    if (message?.kind !== "metrics-request") return;
    const reply = (answer: { text?: string; error?: string }) => {
      if (worker.isConnected()) worker.send({ kind: "metrics-answer", requestId: message.requestId, ...answer } satisfies MetricsMessage);
    };
    aggregateOverWorkers(message.service).then((text) => reply({ text }), (err: Error) => reply({ error: err.message }));
  });
}

/** In the primary: the series of `service` of every serving worker, aggregated (AggregatorRegistry.aggregate). */
function aggregateOverWorkers(service: string): Promise<string> {
  const workers = [...servingWorkers()].filter((w) => w.isConnected());
  const collectId = collectCounter++;
  return new Promise<MetricJSON[][]>((resolve, reject) => {
    const parts: MetricJSON[][] = [];
    let pending = workers.length;
    const timer = setTimeout(() => done(new Error(`${pending} of ${workers.length} workers did not answer within ${COLLECT_TIMEOUT_MS} ms`)), COLLECT_TIMEOUT_MS);
    function done(err?: Error): void {
      clearTimeout(timer);
      collections.delete(collectId);
      if (err) reject(err);
      else resolve(parts);
    }
    collections.set(collectId, (part) => {
      if (part.error !== undefined) return done(new Error(part.error));
      parts.push(part.metrics ?? []);
      if (--pending === 0) done();
    });
    for (const w of workers) w.send({ kind: "metrics-collect", collectId, service } satisfies MetricsMessage);
    if (pending === 0) done();
  }).then(aggregateSeries);
}

/**
 * The exposition of several processes' series of one service (each as Registry.getMetricsAsJSON
 * gives it): prom-client's AggregatorRegistry.aggregate, each metric by its `aggregator`
 * (counters and histograms summed by label set).
 */
export function aggregateSeries(parts: readonly MetricJSON[][]): Promise<string> {
  return AggregatorRegistry.aggregate([...parts]).metrics();
}
