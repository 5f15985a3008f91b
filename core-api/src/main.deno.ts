/**
 * Deno entry of the core API: `deno run --allow-net --allow-env --allow-read --allow-sys
 * core-api/src/main.deno.ts`. Same app, same configuration variables as on Node; the database
 * must already be migrated (`npm run migrate`). /docs serves Scalar's bundle from node_modules as
 * on Node (resources/docs.ts), so the page works offline here too. SIGTERM / SIGINT stop it
 * gracefully: requests in flight finish, the pool closes, exit 0.
 */
import { getConnInfo } from "hono/deno";
import { createApp } from "./app.ts";
import { parseCoreConfig } from "./config.ts";
import { SECRET_KEY_MISSING } from "@service/shared/service-env";
import { openCoreDatabase } from "./db/client.ts";
import { defaultLogger } from "./logger.ts";
import { OutboxWorker } from "./outbox/outbox-worker.ts";
import { openSecretBox } from "@service/shared/secret-box";

declare const Deno: {
  env: { toObject(): Record<string, string> };
  resolveDns(hostname: string, type: "A" | "AAAA"): Promise<string[]>;
  readTextFile(path: URL): Promise<string>;
  addSignalListener(signal: "SIGTERM" | "SIGINT", handler: () => void): void;
  exit(code: number): never;
  serve(
    options: { port: number; hostname: string; onListen?: (addr: { hostname: string; port: number }) => void },
    handler: (req: Request) => Response | Promise<Response>,
  ): { shutdown(): Promise<void> };
};

/** The standalone Scalar bundle, resolved like any import (through node_modules). */
const SCALAR_BUNDLE = "@scalar/api-reference/browser/standalone.js";

const parsed = parseCoreConfig(Deno.env.toObject());
if (!parsed.ok) {
  for (const line of parsed.problems) console.error(line);
  Deno.exit(2);
}
if (!parsed.config.secretKey) {
  console.error(SECRET_KEY_MISSING);
  Deno.exit(2);
}
const config = parsed.config;
const database = openCoreDatabase(config.databaseUrl, config.dbName);
/** Host name -> its A and AAAA addresses (an IP literal as it is), for the webhook SSRF checks. */
const resolveHost = async (hostname: string): Promise<string[]> => {
  if (/^[\d.]+$/.test(hostname) || hostname.includes(":")) return [hostname.replace(/^\[|\]$/g, "")];
  const found = await Promise.allSettled([Deno.resolveDns(hostname, "A"), Deno.resolveDns(hostname, "AAAA")]);
  const addresses = found.flatMap((r) => (r.status === "fulfilled" ? r.value : []));
  if (addresses.length === 0) throw new Error(`${hostname} does not resolve`);
  return addresses;
};
// The outbox worker of this process, as on Node (main.node.ts).
const worker = new OutboxWorker({
  db: database.db,
  secretBox: await openSecretBox(config.secretKey!),
  resolveHost,
  allowPrivate: config.allowPrivateWebhooks,
  pollMs: config.outboxPollMs,
  timeoutMs: config.outboxTimeoutMs,
  logger: defaultLogger({ level: config.logLevel }),
});
// Deno.serve hands its ServeHandlerInfo (remoteAddr) to app.fetch as the Hono env.
const app = createApp({
  db: database.db,
  config,
  clientAddress: (c) => getConnInfo(c).remote.address,
  docsScript: () => Deno.readTextFile(new URL(import.meta.resolve(SCALAR_BUNDLE))),
  resolveHost,
  outboxWake: () => worker.wake(),
});
worker.start();
const server = Deno.serve(
  {
    port: config.port,
    hostname: config.host,
    onListen: ({ hostname, port }) => console.log(`core-api listening on http://${hostname}:${port}`),
  },
  app.fetch,
);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void Promise.all([server.shutdown(), worker.stop()]).then(() => database.close()).then(() => Deno.exit(0), () => Deno.exit(1));
};
Deno.addSignalListener("SIGTERM", stop);
Deno.addSignalListener("SIGINT", stop);
