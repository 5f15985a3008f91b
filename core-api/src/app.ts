/**
 * The core API as a web-standard fetch handler (Hono). No Node-only imports under src/ except
 * main.node.ts and *.node.ts, so the same app runs on Node and Deno (the node: modules of
 * @service/shared/node, such as crypto, are Deno's too).
 *
 * @example
 *   const app = createApp({ db, config });
 *   Deno.serve(app.fetch);
 */
import { errorBody } from "@service/shared";
import { loginCall, logoutCall } from "@service/shared/internal/login";
import { lazySecretBox } from "@service/shared/secret-box";
import { parseTrustedProxies } from "@service/shared/node";
import { Hono, type Context, type MiddlewareHandler } from "hono";
import { clientIpOf, fromTrustedProxy } from "./auth/client-ip.ts";
import { readCredentials } from "./auth/credentials.ts";
import { ShopperTokenVerifier } from "./auth/jwt.ts";
import { resolvesNothing } from "./net/public-target.ts";
import { login, logout } from "./auth/login.ts";
import { CheckCoalescer } from "./auth/check-coalescer.ts";
import { useGroupCommit, useRowsAsWritten } from "./businesses/business-repository.ts";
import { useSaleGroupCommit } from "./baskets/sale-batch.ts";
import { databaseUntil } from "./db/request-database.ts";
import { useCompiledSelects } from "./db/compiled-select.ts";
import { useSearchShapes } from "./businesses/query.ts";
import type { ChainGrant } from "./auth/identity.ts";
import { RequestAuth } from "./auth/request-auth.ts";
import { parseApiVersion } from "./http/api-version.ts";
import { bodyLimitByLength, readingBody } from "./http/body-read.ts";
import { databaseUnavailable, isDatabaseUnavailable } from "./http/database-unavailable.ts";
import { registerMetrics } from "./metrics/core-metrics.ts";
import type { AppDeps, AppEnv } from "./auth/request-context.ts";
import { requestLog } from "./http/request-log.ts";
import { ServiceError } from "./http/service-error.ts";
import { registerHealth } from "./health/health-routes.ts";
import { CALLS, registerInternalCalls } from "./internal/call-routes.ts";
import { defaultLogger, type Logger } from "./logger.ts";
import { DOCS_PATH, registerDocs } from "./resources/docs.ts";
import { registerResources } from "./resources/resource-routes.ts";
import { SCHEMA_PATH } from "./resources/schema-document.ts";
import { requestHeader } from "./http/request-headers.ts";
import { closeWhenBodyUnread } from "./http/unread-body.ts";
import { answerOtherMethods, callRoutingPath } from "./http/routing.ts";
import { jsonLines } from "./http/json-line.ts";

/** Largest accepted request body (handbook: over 1 MiB is refused with 413 / 419). */
export const MAX_BODY_BYTES = 1024 * 1024;

export type { AppDeps } from "./auth/request-context.ts";

/**
 * Turns each speed device on `db` on or off as the config says (docs/performance.md: each has a
 * switch so that `npm run bench` can measure the service with and without it).
 */
function useSpeedDevices(db: AppDeps["db"], config: AppDeps["config"]): void {
  useGroupCommit(db, config.groupCommit);
  useSaleGroupCommit(db, config.groupCommit);
  useRowsAsWritten(db, config.rowsAsWritten);
  useCompiledSelects(db, config.compiledSelects);
  useSearchShapes(db, config.searchShapes);
}

/** Builds the core API application around its dependencies. */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const clock = deps.clock ?? (() => new Date());
  const log = deps.logger ?? defaultLogger({ level: deps.config.logLevel });
  // Handlers log through the request's deps (the webshop calls, for example): always with a logger.
  const handlerDeps: AppDeps = { ...deps, logger: log };
  const trustedProxies = parseTrustedProxies(deps.config.trustedProxies);
  // One key-set cache per app: public keys only, so per-worker memory is fine (auth/jwt.ts).
  // Key sets are fetched from public addresses only (net/public-target.ts), unless WEBHOOK_ALLOW_PRIVATE.
  const targets = { allowPrivate: deps.config.allowPrivateWebhooks, resolveHost: deps.resolveHost ?? resolvesNothing };
  const keySetFetch = targets.allowPrivate ? deps.fetch : (deps.publicFetch ?? deps.fetch);
  const shopperTokens = new ShopperTokenVerifier({ fetch: keySetFetch, targets, logger: log });
  // Concurrent requests with the same credentials share one check (auth/check-coalescer.ts),
  // unless CHECK_COALESCING=off (for measuring it): then every request runs its own.
  const coalescer = deps.config.checkCoalescing ? new CheckCoalescer<ChainGrant>() : undefined;
  const secretBox = lazySecretBox(deps.config.secretKey);
  // Every spelling of an internal call's path routes to the call (http/routing.ts).
  const app = new Hono<AppEnv>({ getPath: callRoutingPath([loginCall, logoutCall, ...CALLS.map(([, , , call]) => call)]) });
  app.use("*", jsonLines); // before anything answers: every JSON body ends with a newline
  registerMetrics(app, deps); // first route: times every request, whatever answers it
  useSpeedDevices(deps.db, deps.config);
  // A refused body left unread closes its connection after the answer (RFC 9112 9.6).
  app.use("*", closeWhenBodyUnread());

  app.use("*", requestLog({ logger: log, fromTrustedProxy: (c) => fromTrustedProxy(c, deps.clientAddress, trustedProxies) }));
  // Before the authentication middleware: probes need no credentials and cost no session lookup.
  registerHealth(app, { db: deps.db, logger: log, links: { docs: DOCS_PATH, schema: SCHEMA_PATH } });
  app.use("*", limitRequestBody());
  app.use("*", async (c, next) => {
    const now = clock();
    const version = parseApiVersion(requestHeader(c, "x-service-api-version"));
    const clientIp = clientIpOf(c, deps.clientAddress, trustedProxies);
    // One deadline for everything the request does with the database, on its handle of it (db/request-database.ts).
    const db = databaseUntil(deps.db, performance.now() + deps.config.requestDeadlineMs);
    // Headers only: the credentials are checked with the chain the handler needs, in one query.
    const auth = new RequestAuth(readCredentials(c), { db, now, clientIp, shopperTokens, coalescer });
    c.set("ctx", { deps: handlerDeps, db, auth, version, now, clientIp, secretBox });
    await next();
    // Credentials no handler needed (the schema document, an unknown path) are still checked:
    // bad ones are refused on every path, as when every request checked them upfront.
    if (!c.error) {
      const refusal = await auth.refusal();
      if (refusal) c.res = errorResponse(c, refusal);
    }
  });

  app.on(loginCall.method, loginCall.path, login);
  app.on(logoutCall.method, logoutCall.path, logout);
  registerInternalCalls(app);
  registerResources(app);
  registerDocs(app, deps.docsScript);
  answerOtherMethods(app); // last: a known path asked with another method is 13 (405)

  // A path nothing serves (handbook, "unknown or wrong-method path").
  app.notFound((c) => errorResponse(c, new ServiceError("resource_not_found")));
  app.onError(answerError(log));
  return app;
}

/**
 * The body limit: over MAX_BODY_BYTES answers 413 parameter_invalid. A GET or HEAD request has no
 * body (fetch's Request refuses one): asking would only build the full Request object on Node
 * (@hono/node-server keeps a light one until something asks), so they pass untouched.
 */
function limitRequestBody(): MiddlewareHandler<AppEnv> {
  const limitBody = readingBody(
    bodyLimitByLength({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new ServiceError("parameter_invalid", "The request body is larger than 1 MiB.", { status: 413 });
      },
    }),
  );
  return (c, next) => (c.req.method === "GET" || c.req.method === "HEAD" ? next() : limitBody(c, next));
}

/**
 * The answer to an error no handler caught: a ServiceError in the spec's envelope (bad credentials,
 * checked first, answer 6 / 266 whatever else the request got wrong), an unavailable database 503
 * service_unavailable (904), anything else logged and answered 500 internal_error (0).
 */
function answerError(log: Logger) {
  return async (err: Error, c: Context<AppEnv>): Promise<Response> => {
    if (err instanceof ServiceError) return errorResponse(c, (await c.get("ctx")?.auth.refusal()) ?? err);
    if (isDatabaseUnavailable(err)) return databaseUnavailable(c, err, log);
    log.error({ err, requestId: c.get("requestId"), method: c.req.method, path: new URL(c.req.url).pathname }, "unhandled error");
    return c.json(
      { result: { code: 0, status: "error" }, error: { code: 0, name: "internal_error", description: "Internal server error." } },
      500,
    );
  };
}

function errorResponse(c: Context, err: ServiceError): Response {
  if (err.retryAfterSeconds !== undefined) c.header("Retry-After", String(err.retryAfterSeconds));
  return c.json(errorBody(err.errorName, err.message), err.status as 400);
}
