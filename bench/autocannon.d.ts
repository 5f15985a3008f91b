/**
 * The part of autocannon's programmatic API (v9) the bench uses; the package ships no types.
 * https://github.com/mcollina/autocannon#api
 */
declare module "autocannon" {
  export interface AutocannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    /** returns the request to send next (mutated `req` or a new object) */
    setupRequest?: (req: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest;
  }

  export interface AutocannonOptions {
    url: string;
    connections?: number;
    /** seconds */
    duration?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: AutocannonRequest[];
    /** seconds before a request counts as timed out */
    timeout?: number;
    pipelining?: number;
  }

  export interface Histogram {
    average: number;
    mean: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
  }

  export interface AutocannonResult {
    /** seconds the run took */
    duration: number;
    latency: Histogram;
    requests: Histogram & { sent: number };
    errors: number;
    timeouts: number;
    non2xx: number;
    "2xx": number;
    statusCodeStats: Record<string, { count: number }>;
  }

  /** The running load: awaitable for the result; emits "response" (client, statusCode, bytes, ms) per answer. */
  export interface AutocannonInstance extends PromiseLike<AutocannonResult> {
    on(event: "response", listener: (client: unknown, statusCode: number, bytes: number, ms: number) => void): this;
  }

  function autocannon(options: AutocannonOptions): AutocannonInstance;
  export default autocannon;
}
