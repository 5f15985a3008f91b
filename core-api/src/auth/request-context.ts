import type { SecretBox } from "@service/shared/secret-box";
import type { Context } from "hono";
import type { Registry } from "prom-client";
import type { RequestAuth } from "./request-auth.ts";
import type { CoreConfig } from "../config.ts";
import type { CoreDb } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import type { ApiVersion } from "../http/api-version.ts";

/** What the core API needs from outside: one object, so tests pass their own (handbook). */
export interface AppDeps {
  db: CoreDb;
  config: CoreConfig;
  /** current time; tests pass a fixed clock */
  clock?: () => Date;
  /**
   * the socket peer's address of a request, from the runtime (getConnInfo in main.node.ts /
   * main.deno.ts; a fake in tests); absent or undefined: unknown (auth/client-ip.ts)
   */
  clientAddress?: (c: Context) => string | undefined;
  /** outbound HTTP (the webshop connector; shopper key sets with WEBHOOK_ALLOW_PRIVATE); default globalThis.fetch */
  fetch?: typeof fetch;
  /**
   * outbound HTTP to targets that must be public (shopper key sets, auth/jwt.ts): the Node entry
   * passes net/public-fetch.node.ts, which checks the address the socket connects to; default
   * `fetch` (the address is then checked only before the request, net/public-target.ts)
   */
  publicFetch?: typeof fetch;
  /** waits `ms` milliseconds (the failed-login delay, auth/throttle.ts); tests pass a fake */
  sleep?: (ms: number) => Promise<void>;
  /** the Scalar bundle for /docs, served locally when given (resources/docs.ts); the CDN otherwise */
  docsScript?: () => Promise<string>;
  /** structured log (logger.ts); default a pino logger on stdout */
  logger?: Logger;
  /**
   * host name -> addresses, for the SSRF checks of webhook targets and key-set URLs (net/public-target.ts);
   * the entries pass the runtime's resolver; default: resolves nothing, so only IP literals pass
   * (or anything, with WEBHOOK_ALLOW_PRIVATE)
   */
  resolveHost?: (hostname: string) => Promise<string[]>;
  /**
   * the `/metrics` body from the app's registry (the series core-metrics.ts keeps); the Node entry
   * adds the default Node metrics and sums over the worker processes
   * (cluster-metrics.ts of @service/shared/node); default: the registry alone (the Deno entry, tests)
   */
  metricsExposition?: (registry: Registry) => () => Promise<string>;
  /** tells this process's outbox worker that a delivery was just committed (outbox/outbox-worker.ts wake) */
  outboxWake?: () => void;
}

/** Per-request context handed to every handler. */
export interface RequestContext {
  /** the app's dependencies; the database only as the request's handle, `db` */
  deps: Omit<AppDeps, "db">;
  /**
   * the request's handle of the database: its statements, waits for a connection and
   * transaction retries end at the request's deadline (REQUEST_DEADLINE_MS, db/request-database.ts)
   */
  db: CoreDb;
  /** the caller, checked lazily with the chain the handler needs (auth/request-auth.ts) */
  auth: RequestAuth;
  version: ApiVersion;
  now: Date;
  /** canonical client address (auth/client-ip.ts); null when unknown */
  clientIp: string | null;
  /**
   * the secret box of SERVICE_SECRET_KEY (@service/shared/secret-box), opened once per app
   * @throws Error when the service runs without SERVICE_SECRET_KEY (only tests can)
   */
  secretBox(): Promise<SecretBox>;
}

/** Hono environment of the core API. */
export interface AppEnv {
  /** requestId: the request's id, logged and echoed (http/request-log.ts) */
  Variables: { ctx: RequestContext; requestId: string };
}
