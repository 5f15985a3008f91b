/**
 * How both services' Node entries start and stop (core-api/src/main.node.ts,
 * connector/src/main.ts; `npm start`, scripts/start.ts, runs both in one process on the same
 * pieces): bind the HTTP server with a one-line error for an address that cannot be bound
 * (listen-error.ts), close it gracefully, and run from the environment: check the configuration
 * (one line per problem, exit 2), do what happens once (migrate, seed), then serve in this process
 * or in WEB_CONCURRENCY worker processes (worker-processes.ts) until SIGTERM / SIGINT.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { listenError } from "./listen-error.ts";
import { forkWorkers, isWorkerProcess, serveInWorker, workerCount } from "./worker-processes.ts";

/** How long closeServer lets in-flight requests finish before cutting their connections. */
export const DRAIN_LIMIT_MS = 8_000;
/** How often closeServer drops connections that went idle (keep-alive) while draining. */
const IDLE_SWEEP_MS = 50;

/** Where a service listens, and the names its one-line listen error uses. */
export interface ListenTarget {
  /** for example `core-api` */
  service: string;
  /** the variable that sets the port, for example `CORE_API_PORT` */
  portVariable: string;
  /** the listening address, for example `127.0.0.1` */
  host: string;
  /** the port; 0 picks a free one */
  port: number;
}

/** A server that listens. */
export interface ListeningServer {
  server: Server;
  /** base URL, for example http://127.0.0.1:8080 (the port the system picked for port 0) */
  url: string;
}

/**
 * Starts a server and waits until it listens.
 * @param create starts the framework's server on `target` (`serve` of @hono/node-server,
 *   Express's `listen`), calling `onListening` once bound (with an error when binding failed)
 * @throws ListenError (listen-error.ts) when the address cannot be bound, for example
 *   `core-api cannot listen on 127.0.0.1:8080: the port is in use (CORE_API_PORT)`; its `code`
 *   is EADDRINUSE, EACCES, EADDRNOTAVAIL, ENOTFOUND or ELISTEN
 */
export async function listenHttp(target: ListenTarget, create: (onListening: (err?: Error) => void) => Server): Promise<ListeningServer> {
  let server: Server;
  try {
    server = await new Promise<Server>((resolve, reject) => {
      const s = create((err) => (err ? reject(err) : resolve(s)));
      s.once("error", reject);
    });
  } catch (err) {
    throw listenError(target.service, target.portVariable, target.host, target.port, err);
  }
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://${target.host.includes(":") ? `[${target.host}]` : target.host}:${port}` };
}

/**
 * Closes `server` gracefully: no new connections; requests in flight finish and their keep-alive
 * connections are dropped as soon as they go idle (Node would otherwise wait out the keep-alive
 * timeout); after DRAIN_LIMIT_MS whatever is left is cut.
 */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    const cut = setTimeout(() => server.closeAllConnections(), DRAIN_LIMIT_MS);
    server.close((err) => {
      clearInterval(sweep);
      clearTimeout(cut);
      if (err && (err as NodeJS.ErrnoException).code !== "ERR_SERVER_NOT_RUNNING") reject(err);
      else resolve();
    });
    server.closeIdleConnections();
  });
}

/** Whether the module at `moduleUrl` (its `import.meta.url`) is the script node was started with. */
export function isEntryScript(moduleUrl: string): boolean {
  return process.argv[1] !== undefined && moduleUrl === pathToFileURL(process.argv[1]).href;
}

/** A service an entry serves. */
export interface EntryService {
  /** for example `core-api` */
  name: string;
  /** starts it (throws a one-line Error, with a `code` such as EADDRINUSE, when it cannot) */
  start(): Promise<{ url: string; close(): Promise<void> }>;
  /** what happens once, before any worker serves (migrate, seed); not in the worker processes */
  prepare?(): Promise<void>;
}

/**
 * Serves `service` from a script run directly: in a worker process, starts it and reports to the
 * primary (serveInWorker); otherwise prepares, then serves in this process (`webConcurrency` 1) or
 * forks that many workers, prints `<name> listening on <url>` (with ` (<n> workers)`), and stops
 * on SIGTERM / SIGINT: exit 0 once everything closed cleanly, else 1. A failure to start is its
 * one line on stderr and exit 1, without a stack.
 * @param webConcurrency WEB_CONCURRENCY; undefined: the machine's core count
 */
export async function serveEntry(service: EntryService, webConcurrency: number | undefined): Promise<void> {
  try {
    if (isWorkerProcess()) return await serveInWorker(async () => [{ name: service.name, ...(await service.start()) }]);
    await service.prepare?.();
    const workers = workerCount(webConcurrency);
    if (workers === 1) {
      const running = await service.start();
      console.log(`${service.name} listening on ${running.url}`);
      onStopSignal(() => running.close().then(() => true));
    } else {
      const forked = await forkWorkers(workers, { onReplaced: (line) => console.error(line) });
      console.log(`${service.name} listening on ${forked.services[0]!.url} (${workers} workers)`);
      onStopSignal((signal) => forked.stop(signal));
    }
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
}

/** Calls `stop` on the first SIGTERM or SIGINT, then exits 0 when it resolves true, else 1. */
function onStopSignal(stop: (signal: NodeJS.Signals) => Promise<boolean>): void {
  const handler = (signal: NodeJS.Signals) =>
    void stop(signal).then((clean) => process.exit(clean ? 0 : 1), () => process.exit(1));
  process.once("SIGTERM", handler);
  process.once("SIGINT", handler);
}
