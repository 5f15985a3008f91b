/**
 * The two ways the throughput section puts load on something for a fixed time:
 * - over HTTP with autocannon (programmatic API): `connections` keep-alive connections, each
 *   sending its next request as soon as the previous answer is in;
 * - in this process, `concurrency` loops each awaiting one operation after the other (a bare
 *   mysql2 pool, native argon2id): the same closed loop without HTTP.
 * Both report completed operations per second in the steady state and latency percentiles.
 *
 * Steady state: a closed loop's first answers arrive one latency after the start, and the
 * operations in flight at the end are cut off, so "completed / duration" undercounts by up to
 * latency / duration (20% for a 2 s authenticate in 10 s). The rate here counts only the answers
 * after every connection has had its first one, up to the last answer before the stop, over that
 * span of time; both drivers use the same rule, so products and floors compare alike.
 */
import autocannon, { type AutocannonRequest } from "autocannon";
import { percentile } from "./measure.ts";

/**
 * Operations per second from the completion times (ms, ascending) of a closed loop with
 * `concurrency` loops: the answers after the `concurrency`-th one, over the time from it to the
 * last (see the module comment). Falls back to all answers over `seconds` when there are too few.
 */
export function steadyRate(completions: readonly number[], concurrency: number, startMs: number, seconds: number): number {
  const from = concurrency - 1;
  const last = completions.length - 1;
  if (last - from >= concurrency) {
    const spanMs = completions[last]! - completions[from]!;
    if (spanMs > 0) return ((last - from) / spanMs) * 1000;
  }
  return completions.filter((t) => t - startMs <= seconds * 1000).length / seconds;
}

/** The outcome of one timed load. */
export interface LoadResult {
  /** successful operations (2xx answers over HTTP) */
  ok: number;
  /** failed operations: non-2xx answers, errors and time-outs */
  failed: number;
  seconds: number;
  /** successful operations per second in the steady state (see the module comment) */
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** status codes seen, e.g. { "200": 5120 } (HTTP only) */
  statuses?: Record<string, number>;
}

/** One HTTP request of a load: method, path (with query), headers and body. */
export interface HttpRequestSpec {
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * Loads `baseUrl` for `seconds` with `connections` connections.
 * @param next the next request to send (called once per request); a constant request when it
 *   always returns the same object
 */
export async function httpLoad(baseUrl: string, connections: number, seconds: number, next: () => HttpRequestSpec): Promise<LoadResult> {
  const first = next();
  const requests: AutocannonRequest[] = [
    {
      method: first.method,
      path: first.path,
      setupRequest: (req) => {
        const r = next();
        // autocannon writes Content-Length into the headers object: a copy per request.
        return { ...req, method: r.method, path: r.path, headers: { ...r.headers }, ...(r.body !== undefined ? { body: r.body } : {}) };
      },
    },
  ];
  const completions: number[] = [];
  const startMs = performance.now();
  const instance = autocannon({ url: baseUrl, connections, duration: seconds, requests, timeout: 30 });
  instance.on("response", (_client, status) => {
    if (status >= 200 && status < 300) completions.push(performance.now());
  });
  const result = await instance;
  const ok = result["2xx"];
  return {
    ok,
    failed: result.non2xx + result.errors + result.timeouts,
    seconds: result.duration,
    perSecond: steadyRate(completions, connections, startMs, seconds),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    statuses: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count])),
  };
}

/**
 * Runs `operation` in `concurrency` loops for `seconds`.
 * @param operation one unit of work; a rejection counts as a failure (the first one is kept)
 */
export async function closedLoop(concurrency: number, seconds: number, operation: (i: number) => Promise<unknown>): Promise<LoadResult & { firstError?: string }> {
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const latencies: number[] = [];
  const completions: number[] = [];
  let failed = 0;
  let firstError: string | undefined;
  let seq = 0;
  const loop = async () => {
    while (performance.now() < deadline) {
      const t = performance.now();
      try {
        await operation(seq++);
        const done = performance.now();
        latencies.push(done - t);
        // Answers after the stop come from a draining loop, not the steady state.
        if (done <= deadline) completions.push(done);
      } catch (err) {
        failed++;
        firstError ??= (err as Error).message;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    ok: latencies.length,
    failed,
    seconds: elapsed,
    perSecond: steadyRate(completions, concurrency, started, seconds),
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    ...(firstError ? { firstError } : {}),
  };
}
