/**
 * Deno entry of the core API: `deno run --allow-net --allow-env --allow-read --allow-sys
 * core-api/src/main.deno.ts`. Same app, same configuration variables as on Node; the database
 * must already be migrated (`npm run migrate`). /docs serves Scalar's bundle from node_modules as
 * on Node (resources/docs.ts), so the page works offline here too. SIGTERM / SIGINT stop it
 * gracefully: the server closes, requests in flight finish, the pool closes, exit 0 (started by
 * `npx deno run`, also when npx goes: npm passes the signal to its shell only). An address
 * it cannot bind is one line naming HOST or CORE_API_PORT, exit 1. SERVICE_SECRET_KEY comes from
 * the environment, else the secret-key file npm start keeps (shared/src/node/secret-key-file.ts).
 */
import { getConnInfo } from "hono/deno";
import { createApp } from "./app.ts";
import { parseCoreConfig } from "./config.ts";
import { configOrExit, listenError, withSecretKeyFile } from "@service/shared/node";
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
  /** the parent's process id, read afresh on each access */
  readonly ppid: number;
  serve(
    options: { port: number; hostname: string; onListen?: (addr: { hostname: string; port: number }) => void },
    handler: (req: Request) => Response | Promise<Response>,
  ): { shutdown(): Promise<void> };
};

/** How often a process started by npx checks that its launcher is still there, in milliseconds. */
const LAUNCHER_CHECK_MS = 500;

/** The standalone Scalar bundle, resolved like any import (through node_modules). */
const SCALAR_BUNDLE = "@scalar/api-reference/browser/standalone.js";

// Checked as on Node (configOrExit: one line per problem, exit 2); the secret-key file npm start
// keeps is read as there too (shared/src/node/secret-key-file.ts).
const config = configOrExit(parseCoreConfig(withSecretKeyFile(Deno.env.toObject())));
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
  secretBox: await openSecretBox(config.secretKey),
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
// The signal listeners come first: a signal right after the "listening" line must stop the server.
let server: { shutdown(): Promise<void> } | undefined;
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void Promise.all([server?.shutdown(), worker.stop()]).then(() => database.close()).then(() => Deno.exit(0), () => Deno.exit(1));
};
Deno.addSignalListener("SIGTERM", stop);
Deno.addSignalListener("SIGINT", stop);
server = serve();
worker.start();

/**
 * Deno.serve on HOST:CORE_API_PORT. An address it cannot bind (port in use, HOST that does not
 * resolve ...) is one line naming the variable to change (shared/src/node/listen-error.ts) and exit 1.
 */
function serve(): { shutdown(): Promise<void> } {
  try {
    return Deno.serve(
      {
        port: config.port,
        hostname: config.host,
        onListen: ({ hostname, port }) => console.log(`core-api listening on http://${hostname}:${port}`),
      },
      app.fetch,
    );
  } catch (err) {
    console.error(listenError("core-api", "CORE_API_PORT", config.host, config.port, err).message);
    // Nothing was served and the outbox worker has not started: nothing to drain.
    Deno.exit(1);
  }
}

// Started by `npx deno run ...`, this process runs under npm's `sh -c`, and npm passes a SIGTERM or
// SIGINT on to that shell only: the shell ends and this process is left, re-parented. So under
// npx the launcher going away is the signal to stop, as it was meant.
if (Deno.env.toObject().npm_command === "exec") {
  const launcher = Deno.ppid;
  setInterval(() => {
    if (Deno.ppid !== launcher) stop();
  }, LAUNCHER_CHECK_MS);
}
