/**
 * WEB_CONCURRENCY for the Node entries (one process uses only one core): the entry's primary
 * process does what must happen once (check the configuration, migrate, seed), then forks that
 * many workers (node:cluster) which run the same script and only serve. The workers share the
 * listening ports (the primary hands them the connections); each has its own database pool.
 *
 * - The primary prints nothing a worker prints twice: each worker reports to it that its services
 *   listen (with their URLs) or why they could not start (one line, for example a port in use),
 *   and the primary answers for all of them.
 * - Each service's GET /metrics in a worker answers for all the workers: the primary gathers and
 *   sums their series (cluster-metrics.ts).
 * - SIGTERM / SIGINT to the primary reach every worker; each lets its requests in flight finish
 *   and closes its pools; the primary exits 0 once all have exited 0. A worker that dies on its
 *   own after start-up is replaced, with one line on stderr.
 *
 * Node only (node:cluster, node:os): the Deno entry serves in one process.
 */
import cluster, { type Worker } from "node:cluster";
import { availableParallelism } from "node:os";
import { serveClusterMetrics } from "./cluster-metrics.ts";

/** A service a worker runs. */
export interface WorkerService {
  /** for example `core-api` */
  name: string;
  /** where it listens, for example http://127.0.0.1:8080 */
  url: string;
  /** stops accepting, lets requests in flight finish, closes the pools */
  close(): Promise<void>;
}

/** What a worker tells the primary. */
type WorkerReport =
  | { kind: "ready"; services: Array<{ name: string; url: string }> }
  | { kind: "failed"; message: string; code?: string };

/** The workers WEB_CONCURRENCY asks for: its value, else the machine's core count. */
export function workerCount(webConcurrency: number | undefined): number {
  return webConcurrency ?? availableParallelism();
}

/** libuv's thread pool size when UV_THREADPOOL_SIZE is not set (Node's default). */
const DEFAULT_THREAD_POOL = 4;

/** How forkWorkers tells a worker how many workers share the machine (internal, not configuration). */
const WORKER_COUNT_VARIABLE = "SERVICE_WORKER_COUNT";
/** How forkWorkers tells a worker its slot, 0..count-1; a replacement takes the slot of the worker it replaces. */
const WORKER_SLOT_VARIABLE = "SERVICE_WORKER_SLOT";

/**
 * The environment a worker gets besides this process's: the number of workers (for
 * processCpuShare) and its slot, and unless UV_THREADPOOL_SIZE is set, its libuv thread pool
 * (where argon2 hashes run: @node-rs/argon2) sized by workerThreadPool.
 */
function workerEnv(count: number, slot: number): Record<string, string> {
  const env: Record<string, string> = { [WORKER_COUNT_VARIABLE]: String(count), [WORKER_SLOT_VARIABLE]: String(slot) };
  if (!process.env.UV_THREADPOOL_SIZE) env.UV_THREADPOOL_SIZE = String(workerThreadPool(availableParallelism(), count));
  return env;
}

/**
 * A forked worker's libuv thread pool: its share of the cores (cpuShare), at least 2 and at most
 * Node's default of 4, which is what one process has. At least 2: a worker with one connector hash
 * slot (workers >= cores) keeps a thread for file and DNS work. Its share: with fewer workers than
 * cores, its hash slots (at most its pool) reach every core of its share; 4 workers each with
 * Node's 4 on the same cores would run up to 16 argon2 hashes at once (core-api's password hashes
 * take no slot: the pool is their only bound) and thrash the caches. At most 4: a worker holds no
 * more hashes (64 MiB each for the connector) than one process would; UV_THREADPOOL_SIZE sets more.
 * @param cores the machine's (os.availableParallelism)
 * @param workers WEB_CONCURRENCY
 * @returns 2 to 4 (2 cores, 2 workers: 2; 8 cores, 8 workers: 2; 8 cores, 2 workers: 4; 32 cores, 2 workers: 4)
 */
export function workerThreadPool(cores: number, workers: number): number {
  return Math.min(DEFAULT_THREAD_POOL, Math.max(2, cpuShare(cores, workers)));
}

/**
 * One worker's share of `cores` among `workers` processes, rounded up so that no core is left
 * without work (2 cores, 2 workers: 1; 8 cores, 3 workers: 3; 2 cores, 4 workers: 1).
 * @returns a whole number >= 1 (all the cores for one worker, or a count that is not a whole number >= 1)
 */
export function cpuShare(cores: number, workers: number): number {
  const c = Math.max(1, Math.floor(cores));
  return Number.isInteger(workers) && workers > 1 ? Math.ceil(c / workers) : c;
}

/**
 * The cores this process can keep busy with CPU work of its own (argon2 hashes): the machine's
 * (os.availableParallelism) when it serves alone, its cpuShare when it is one of the workers
 * forked by forkWorkers.
 * @returns a whole number >= 1
 */
export function processCpuShare(): number {
  return cpuShare(availableParallelism(), cluster.isWorker ? Number(process.env[WORKER_COUNT_VARIABLE]) : 1);
}

/** The size of this process's libuv thread pool: UV_THREADPOOL_SIZE (libuv clamps it to 1..1024), else Node's default 4. */
export function threadPoolSize(): number {
  const n = Number(process.env.UV_THREADPOOL_SIZE);
  return Number.isInteger(n) && n > 0 ? Math.min(n, 1024) : DEFAULT_THREAD_POOL;
}

/**
 * Whether this process runs the once-per-service background jobs (the connector's reconcile
 * schedule): a process serving alone, or the worker in slot 0 (its replacement after a crash too).
 */
export function runsSingletonJobs(): boolean {
  return !cluster.isWorker || process.env[WORKER_SLOT_VARIABLE] === "0";
}

/** Whether this process is a worker forked by forkWorkers (it serves, and does nothing once-only). */
export function isWorkerProcess(): boolean {
  return cluster.isWorker;
}

/**
 * In a worker: starts its services, reports them to the primary, and closes them on SIGTERM /
 * SIGINT, then exits 0 (1 when closing failed). A start-up failure is reported and exits 1.
 * @param start starts the services (it throws an Error with a one-line message, and maybe a
 *   `code` such as EADDRINUSE, when it cannot)
 */
export async function serveInWorker(start: () => Promise<WorkerService[]>): Promise<void> {
  let services: WorkerService[];
  try {
    services = await start();
  } catch (err) {
    const e = err as Error & { code?: string };
    report({ kind: "failed", message: e.message, ...(e.code ? { code: e.code } : {}) });
    // let the report leave before the channel closes
    setImmediate(() => process.exit(1));
    return;
  }
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void Promise.allSettled(services.map((s) => s.close())).then((results) =>
      process.exit(results.some((r) => r.status === "rejected") ? 1 : 0),
    );
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  // The primary gone (killed without passing the signal on): a worker must not serve alone.
  process.on("disconnect", stop);
  report({ kind: "ready", services: services.map(({ name, url }) => ({ name, url })) });
}

function report(message: WorkerReport): void {
  process.send?.(message);
}

/** The primary's handle on its workers. */
export interface Workers {
  /** the services each worker runs, with their URLs (all workers share them) */
  services: Array<{ name: string; url: string }>;
  /**
   * Passes `signal` to every worker and resolves when all have exited.
   * @returns whether every worker exited 0
   */
  stop(signal: NodeJS.Signals): Promise<boolean>;
}

/**
 * In the primary: forks `count` workers running this same script (they call serveInWorker) and
 * waits until each reports its services listening.
 * @param options.onReplaced called with one line when a worker that died on its own was replaced
 * @returns the workers
 * @throws Error with the first failing worker's one-line message (and its `code`); the other
 *   workers are stopped first
 */
export async function forkWorkers(count: number, options: { onReplaced?: (line: string) => void } = {}): Promise<Workers> {
  const live = new Set<Worker>();
  /** the workers whose services listen: the ones whose metrics a scrape sums */
  const serving = new Set<Worker>();
  serveClusterMetrics(() => serving);
  let stopping = false;
  let services: Array<{ name: string; url: string }> = [];

  const fork = (slot: number): Promise<Worker> =>
    new Promise((resolve, reject) => {
      const worker = cluster.fork(workerEnv(count, slot));
      live.add(worker);
      let ready = false;
      worker.on("message", (message: WorkerReport) => {
        if (message.kind === "ready") {
          ready = true;
          serving.add(worker);
          services = message.services;
          resolve(worker);
        } else if (message.kind === "failed") {
          reject(Object.assign(new Error(message.message), message.code ? { code: message.code } : {}));
        }
      });
      worker.on("exit", (code, signal) => {
        live.delete(worker);
        serving.delete(worker);
        if (!ready) {
          reject(new Error(`a worker exited during start-up (${signal ?? `status ${code}`})`));
          return;
        }
        if (stopping) return;
        options.onReplaced?.(`worker ${worker.process.pid} exited (${signal ?? `status ${code}`}): starting another`);
        fork(slot).catch((err: Error) => options.onReplaced?.(`the replacement worker could not start: ${err.message}`));
      });
    });

  const stop = (signal: NodeJS.Signals): Promise<boolean> => {
    stopping = true;
    let clean = true;
    const exits = [...live].map(
      (worker) =>
        new Promise<void>((resolve) => {
          worker.once("exit", (code) => {
            if (code !== 0) clean = false;
            resolve();
          });
          worker.process.kill(signal);
        }),
    );
    return Promise.all(exits).then(() => clean);
  };

  try {
    await Promise.all(Array.from({ length: count }, (_, slot) => fork(slot)));
  } catch (err) {
    await stop("SIGTERM");
    throw err;
  }
  return { services, stop };
}
