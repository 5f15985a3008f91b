/**
 * Node entry of the core API: serves the fetch handler with @hono/node-server.
 * Run directly (`tsx core-api/src/main.node.ts`) it starts from the environment (handbook,
 * "Configuration"); `npm start` imports startCoreApi instead.
 */
import { serve } from "@hono/node-server";
import { getConnInfo } from "@hono/node-server/conninfo";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { createApp } from "./app.ts";
import { loadCoreConfig, type CoreConfig } from "./config.ts";
import { openCoreDatabase } from "./db/client.ts";
import { defaultLogger } from "./logger.ts";
import { prettyWhenTerminal } from "./pretty-log.node.ts";
import { loadScalarBundle } from "./resources/docs-asset.node.ts";

export interface RunningService {
  /** base URL, for example http://127.0.0.1:8080 */
  url: string;
  close(): Promise<void>;
}

/**
 * Starts the core API on `config.host`:`config.port` (port 0 picks a free one).
 * The database must already be migrated (see db/migrate.node.ts).
 */
export async function startCoreApi(config: CoreConfig): Promise<RunningService> {
  const database = openCoreDatabase(config.databaseUrl, config.dbName);
  const app = createApp({
    db: database.db,
    config,
    docsScript: loadScalarBundle,
    clientAddress: (c) => getConnInfo(c).remote.address,
    logger: defaultLogger({ level: config.logLevel, transport: prettyWhenTerminal() }),
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;
  return {
    url: `http://${host}:${port}`,
    close: async () => {
      await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
      await database.close();
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const service = await startCoreApi(loadCoreConfig(process.env));
  console.log(`core-api listening on ${service.url}`);
}
