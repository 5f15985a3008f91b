/**
 * Node entry of the core API: serves the fetch handler with @hono/node-server.
 * Run directly (`tsx core-api/src/main.node.ts`) it starts from the environment (handbook,
 * "Configuration") on an already migrated database, with WEB_CONCURRENCY worker processes
 * (worker-processes.ts of @service/shared/node; default one per core), and stops on SIGTERM / SIGINT;
 * `npm start` (scripts/start.ts) imports startCoreApi instead.
 */
import type { Server } from "node:http";
import { serve } from "@hono/node-server";
import { getConnInfo } from "@hono/node-server/conninfo";
import { closeServer, configOrExit, isEntryScript, listenHttp, nodeMetricsExposition, prettyWhenTerminal, serveEntry, withSecretKeyFile } from "@service/shared/node";
import { openSecretBox } from "@service/shared/secret-box";
import { createApp } from "./app.ts";
import { parseCoreConfig, type CoreConfig } from "./config.ts";
import { openCoreDatabase } from "./db/client.ts";
import { defaultLogger } from "./logger.ts";
import { loadScalarBundle } from "./resources/docs-asset.node.ts";
import { OutboxWorker } from "./outbox/outbox-worker.ts";
import { resolveHostNode } from "./net/resolve-host.node.ts";
import { publicOnlyFetch } from "./net/public-fetch.node.ts";

export interface RunningService {
  /** base URL, for example http://127.0.0.1:8080 */
  url: string;
  /**
   * Stops accepting connections, lets in-flight requests finish (up to DRAIN_LIMIT_MS of
   * @service/shared/node, then cuts them: closeServer) while the outbox worker stops (sends in flight
   * finish within its grace period, the rest are given back), then closes the database pool.
   */
  close(): Promise<void>;
}

/**
 * Starts the core API on `config.host`:`config.port` (port 0 picks a free one), with an outbox
 * worker (outbox/outbox-worker.ts) sending due deliveries until close().
 * The database must already be migrated (see db/migrate.node.ts).
 * @throws a ListenError (listen-error.ts of @service/shared/node) when the port cannot be bound,
 *   its message one line such as `core-api cannot listen on 127.0.0.1:8080: the port is in use
 *   (CORE_API_PORT)`, its `code` EADDRINUSE, EACCES, EADDRNOTAVAIL, ENOTFOUND or ELISTEN
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
  const target = { service: "core-api", portVariable: "CORE_API_PORT", host: config.host, port: config.port };
  const { server, url } = await listenHttp(target, (onListening) =>
    serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () => onListening()) as Server,
  ).catch(async (err: unknown) => {
    await database.close();
    throw err;
  });
  worker?.start();
  return {
    url,
    close: async () => {
      // The worker's sends in flight finish (or are cut and given back) while requests drain.
      await Promise.all([closeServer(server), worker?.stop()]);
      await database.close();
    },
  };
}

// Run directly: WEB_CONCURRENCY worker processes serve (worker-processes.ts of @service/shared/node).
if (isEntryScript(import.meta.url)) {
  const config = configOrExit(parseCoreConfig(withSecretKeyFile(process.env)));
  await serveEntry({ name: "core-api", start: () => startCoreApi(config) }, config.webConcurrency);
}
