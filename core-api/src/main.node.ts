/**
 * Node entry of the core API: serves the fetch handler with @hono/node-server.
 * Run directly (`tsx core-api/src/main.node.ts`) it starts from the environment (handbook,
 * "Configuration") on an already migrated database, with WEB_CONCURRENCY worker processes
 * (shared/src/worker-processes.ts; default one per core), and stops on SIGTERM / SIGINT;
 * `npm start` (scripts/start.ts) imports startCoreApi instead.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { serve } from "@hono/node-server";
import { getConnInfo } from "@hono/node-server/conninfo";
import { createApp } from "./app.ts";
import { parseCoreConfig, type CoreConfig } from "./config.ts";
import { SECRET_KEY_MISSING } from "@service/shared/service-env";
import { listenError as sharedListenError } from "@service/shared/listen-error";
import { withSecretKeyFile } from "@service/shared/secret-key-file";
import { forkWorkers, isWorkerProcess, serveInWorker, workerCount } from "@service/shared/worker-processes";
import { openCoreDatabase } from "./db/client.ts";
import { defaultLogger } from "./logger.ts";
import { prettyWhenTerminal } from "./pretty-log.node.ts";
import { loadScalarBundle } from "./resources/docs-asset.node.ts";
import { OutboxWorker } from "./outbox/outbox-worker.ts";
import { resolveHostNode } from "./net/resolve-host.node.ts";
import { publicOnlyFetch } from "./net/public-fetch.node.ts";
import { openSecretBox } from "@service/shared/secret-box";
import { nodeMetricsExposition } from "@service/shared/cluster-metrics";

/** How long close() lets in-flight requests finish before cutting their connections. */
export const DRAIN_LIMIT_MS = 8_000;
/** How often close() drops connections that went idle (keep-alive) while draining. */
const IDLE_SWEEP_MS = 50;

export interface RunningService {
  /** base URL, for example http://127.0.0.1:8080 */
  url: string;
  /**
   * Stops accepting connections, lets in-flight requests finish (up to DRAIN_LIMIT_MS, then cuts
   * them) while the outbox worker stops (sends in flight finish within its grace period, the rest
   * are given back), then closes the database pool.
   */
  close(): Promise<void>;
}

/**
 * Starts the core API on `config.host`:`config.port` (port 0 picks a free one), with an outbox
 * worker (outbox/outbox-worker.ts) sending due deliveries until close().
 * The database must already be migrated (see db/migrate.node.ts).
 * @throws Error with a one-line message when the port cannot be bound, for example
 *   `core-api cannot listen on 127.0.0.1:8080: the port is in use (CORE_API_PORT)`; its `code`
 *   is Node's (`EADDRINUSE`, `EACCES`)
 */
export async function startCoreApi(config: CoreConfig): Promise<RunningService> {
  const database = openCoreDatabase(config.databaseUrl, config.dbName);
  const logger = defaultLogger({ level: config.logLevel, transport: prettyWhenTerminal() });
  // The outbox worker of this process (outbox/outbox-worker.ts): needs the key of the sealed payloads.
  const worker = config.secretKey
    ? new OutboxWorker({
      db: database.db,
      secretBox: await openSecretBox(config.secretKey),
      resolveHost: resolveHostNode,
      publicFetch: publicOnlyFetch(),
      allowPrivate: config.allowPrivateWebhooks,
      pollMs: config.outboxPollMs,
      timeoutMs: config.outboxTimeoutMs,
      logger,
    })
    : null;
  if (!worker) logger.warn({}, "SERVICE_SECRET_KEY is not set: no outbox worker runs in this process");
  const app = createApp({
    db: database.db,
    config,
    docsScript: loadScalarBundle,
    clientAddress: (c) => getConnInfo(c).remote.address,
    logger,
    resolveHost: resolveHostNode,
    publicFetch: publicOnlyFetch(),
    outboxWake: () => worker?.wake(),
    // the default Node metrics, and with worker processes the sum over all of them
    metricsExposition: (registry) => nodeMetricsExposition("core-api", registry),
  });
  let server: Server;
  try {
    server = await new Promise<Server>((resolve, reject) => {
      const s = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () => resolve(s as Server)) as Server;
      s.once("error", reject);
    });
  } catch (err) {
    await database.close();
    throw listenError(config.host, config.port, err);
  }
  const { port } = server.address() as AddressInfo;
  worker?.start();
  return {
    url: `http://${urlHost(config.host)}:${port}`,
    close: async () => {
      // The worker's sends in flight finish (or are cut and given back) while requests drain.
      await Promise.all([closeServer(server), worker?.stop()]);
      await database.close();
    },
  };
}

/**
 * Closes `server` gracefully: no new connections; requests in flight finish and their keep-alive
 * connections are dropped as soon as they go idle (Node would otherwise wait out the keep-alive
 * timeout); after DRAIN_LIMIT_MS whatever is left is cut.
 */
function closeServer(server: Server): Promise<void> {
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

/** The one-line error for an address that cannot be bound (shared/src/listen-error.ts). */
function listenError(host: string, port: number, err: unknown): Error {
  return sharedListenError("core-api", "CORE_API_PORT", host, port, err);
}

function urlHost(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const parsed = parseCoreConfig(withSecretKeyFile(process.env));
  if (!parsed.ok) {
    for (const line of parsed.problems) console.error(line);
    process.exit(2);
  }
  if (!parsed.config.secretKey) {
    console.error(SECRET_KEY_MISSING);
    process.exit(2);
  }
  const config = parsed.config;
  const workers = workerCount(config.webConcurrency);
  if (isWorkerProcess()) {
    await serveInWorker(async () => [{ name: "core-api", ...(await startCoreApi(config)) }]);
  } else if (workers === 1) {
    const service = await startCoreApi(config).catch((err: Error) => {
      console.error(err.message);
      process.exit(1);
    });
    console.log(`core-api listening on ${service.url}`);
    const stop = () => void service.close().then(() => process.exit(0), () => process.exit(1));
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
  } else {
    // WEB_CONCURRENCY workers serve (shared/src/worker-processes.ts); this process only passes signals on.
    const forked = await forkWorkers(workers, { onReplaced: (line) => console.error(line) }).catch((err: Error) => {
      console.error(err.message);
      process.exit(1);
    });
    console.log(`core-api listening on ${forked.services[0]!.url} (${workers} workers)`);
    const stop = (signal: NodeJS.Signals) => void forked.stop(signal).then((clean) => process.exit(clean ? 0 : 1));
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
  }
}
