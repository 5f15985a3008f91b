/**
 * The connector's Express 5 application (handbook, "connector/src"). Every customer endpoint
 * needs an integration token (the operations endpoints /health, /ready and / do not); every
 * failure is a ConnectorError rendered here, and only here, in Magento's REST error shape. Every
 * request gets one log line with its request id (pino-http, http/http-log.ts).
 */
import express, { type ErrorRequestHandler } from "express";
import type { Logger as PinoLogger } from "pino";
import { DEFAULT_REQUEST_DEADLINE_MS, parseTrustedProxies, withDeadline } from "@service/shared/node";
import type { ConnectorConfig } from "./config.ts";
import type { ConnectorDb } from "./db/client.ts";
import { requireIntegrationToken } from "./http/auth.ts";
import { connectorMetrics, type MetricsExpositionFactory } from "./http/connector-metrics.ts";
import type { PasswordVerifier } from "./customers/authenticate.ts";
import { ConnectorError } from "./http/errors.ts";
import { httpLog } from "./http/http-log.ts";
import { loggablePath } from "./http/loggable-path.ts";
import { isDatabaseUnavailable, sendDatabaseUnavailable } from "./http/unavailable.ts";
import { healthRoutes } from "./health/health-routes.ts";
import { defaultLogger, type Logger } from "./logger.ts";
import { CUSTOMER_ROUTE_PREFIX, customerRoutes, STORE_CUSTOMER_ROUTE_PREFIX } from "./routes/customer.ts";
import { storeFromPath } from "./http/store-code.ts";
import { jsonLines } from "./http/json-line.ts";

export interface ConnectorAppDeps {
  db: ConnectorDb;
  /** the current time; defaults to the system clock (tests pass a fake) */
  clock?: () => Date;
  /** trustedProxies (TRUSTED_PROXIES) default to none: X-Forwarded-For and X-Request-Id are then never believed; `metricsToken` guards GET /metrics when set (http/connector-metrics.ts) */
  config: Pick<ConnectorConfig, "bodyLimitBytes"> & Partial<Pick<ConnectorConfig, "trustedProxies" | "logLevel" | "metricsToken" | "requestDeadlineMs">>;
  /** the `/metrics` body from the app's registry (main.ts: cluster-metrics.ts of @service/shared/node); default the registry alone */
  metricsExposition?: MetricsExpositionFactory;
  /** authenticate's password check (default verifyMagentoPassword; tests count its calls) */
  verifyPassword?: PasswordVerifier;
  /** the pino logger (logger.ts; pino-http writes the request lines on it); default one on stdout at config.logLevel */
  logger?: PinoLogger;
}

/**
 * Builds the app. No state outside the database, so any number of instances can serve.
 * @example createApp({ db, config: loadConnectorConfig() }).listen(8081)
 */
export function createApp(deps: ConnectorAppDeps): express.Express {
  const clock = deps.clock ?? (() => new Date());
  const log = deps.logger ?? defaultLogger(deps.config.logLevel);
  const app = express();
  app.disable("x-powered-by");
  jsonLines(app); // every JSON answer ends with a newline
  app.use(connectorMetrics({ db: deps.db, metricsToken: deps.config.metricsToken, metricsExposition: deps.metricsExposition })); // first: times every request
  // One deadline for everything the request does with the database (request-deadline.ts of
  // @service/shared/node); it travels with the request's asynchronous work, body parsing included.
  const deadlineMs = deps.config.requestDeadlineMs ?? DEFAULT_REQUEST_DEADLINE_MS;
  app.use((_req, _res, next) => withDeadline(deadlineMs, next));
  // req.ip is the socket peer, or the X-Forwarded-For entry added by a trusted proxy (handbook, "client IP").
  const trusted = deps.config.trustedProxies ?? [];
  app.set("trust proxy", trusted.length > 0 ? trusted : false);
  const trustedProxies = parseTrustedProxies(trusted);
  app.use(httpLog({ logger: log, trustedProxies }));
  app.use(healthRoutes({ db: deps.db, logger: log }));
  app.use(
    [CUSTOMER_ROUTE_PREFIX, STORE_CUSTOMER_ROUTE_PREFIX], // Magento's paths without and with a store code
    requireIntegrationToken(deps.db), // before parsing: an unauthenticated body is never read
    storeFromPath(deps.db, STORE_CUSTOMER_ROUTE_PREFIX), // after the token: an unauthenticated caller learns no store code
    express.json({ limit: deps.config.bodyLimitBytes }),
    customerRoutes({ db: deps.db, clock, trustedProxies, verifyPassword: deps.verifyPassword }),
  );
  app.use((_req, _res) => {
    throw new ConnectorError(404, "Request does not match any route.");
  });
  app.use(errorHandler(log));
  return app;
}

/**
 * Renders every error as `{message, parameters?}`: an unavailable database as 503 with
 * Retry-After (http/unavailable.ts), unexpected ones as 500 without details, logged.
 */
const errorHandler = (log: Logger): ErrorRequestHandler => (err, req, res, _next) => {
  if (err instanceof ConnectorError) {
    if (err.headers) res.set(err.headers);
    res.status(err.status).json(err.toBody());
    return;
  }
  if (isDatabaseUnavailable(err)) {
    sendDatabaseUnavailable(err, req, res, log);
    return;
  }
  // body-parser failures carry an HTTP status and a type.
  const type = (err as { type?: string }).type;
  if (type === "entity.too.large") {
    res.status(413).json({ message: "The request body is too large." });
  } else if (type === "entity.parse.failed") {
    res.status(400).json({ message: "Decoding error: the request body is not valid JSON." });
  } else if (typeof (err as { status?: unknown }).status === "number" && (err as { status: number }).status < 500) {
    res.status((err as { status: number }).status).json({ message: String((err as Error).message) });
  } else {
    log.error({ err, requestId: req.id, method: req.method, path: loggablePath(req.originalUrl ?? req.url) }, "connector: unexpected error");
    res.status(500).json({ message: "Internal Error. Details are available in the connector log." });
  }
};
