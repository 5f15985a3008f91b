/**
 * Deno entry of the core API: `deno run --allow-net --allow-env --allow-read --allow-sys
 * core-api/src/main.deno.ts`. Same app, same configuration variables as on Node; the database
 * must already be migrated (`npm run migrate`).
 */
import { getConnInfo } from "hono/deno";
import { createApp } from "./app.ts";
import { loadCoreConfig } from "./config.ts";
import { openCoreDatabase } from "./db/client.ts";

declare const Deno: {
  env: { toObject(): Record<string, string> };
  serve(
    options: { port: number; hostname: string; onListen?: (addr: { hostname: string; port: number }) => void },
    handler: (req: Request) => Response | Promise<Response>,
  ): unknown;
};

const config = loadCoreConfig(Deno.env.toObject());
const database = openCoreDatabase(config.databaseUrl, config.dbName);
// Deno.serve hands its ServeHandlerInfo (remoteAddr) to app.fetch as the Hono env.
const app = createApp({ db: database.db, config, clientAddress: (c) => getConnInfo(c).remote.address });
Deno.serve(
  {
    port: config.port,
    hostname: config.host,
    onListen: ({ hostname, port }) => console.log(`core-api listening on http://${hostname}:${port}`),
  },
  app.fetch,
);
