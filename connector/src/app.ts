/**
 * The connector's Express 5 application (handbook, "connector/src"). Every endpoint needs an
 * integration token; every failure is a ConnectorError rendered here, and only here, in Magento's
 * REST error shape.
 */
import express, { type ErrorRequestHandler } from "express";
import type { ConnectorConfig } from "./config.ts";
import type { ConnectorDb } from "./db/client.ts";
import { requireIntegrationToken } from "./http/auth.ts";
import { connectorMetrics } from "./http/connector-metrics.ts";
import { ConnectorError } from "./http/errors.ts";
import { defaultLogger, type Logger } from "./logger.ts";
import { CUSTOMER_ROUTE_PREFIX, customerRoutes } from "./routes/customer.ts";

export interface ConnectorAppDeps {
  db: ConnectorDb;
  /** the current time; defaults to the system clock (tests pass a fake) */
  clock?: () => Date;
  /** `metricsToken` guards GET /metrics when set (http/connector-metrics.ts) */
  config: Pick<ConnectorConfig, "bodyLimitBytes"> & Partial<Pick<ConnectorConfig, "metricsToken">>;
  /** structured log (logger.ts); default a pino logger on stdout */
  logger?: Logger;
}

/**
 * Builds the app. No state outside the database, so any number of instances can serve.
 * @example createApp({ db, config: loadConnectorConfig() }).listen(8081)
 */
export function createApp(deps: ConnectorAppDeps): express.Express {
  const clock = deps.clock ?? (() => new Date());
  const app = express();
  app.disable("x-powered-by");
  app.use(connectorMetrics({ db: deps.db, metricsToken: deps.config.metricsToken })); // first: times every request
  app.use(
    CUSTOMER_ROUTE_PREFIX,
    requireIntegrationToken(deps.db), // before parsing: an unauthenticated body is never read
    express.json({ limit: deps.config.bodyLimitBytes }),
    customerRoutes({ db: deps.db, clock }),
  );
  app.use((_req, _res) => {
    throw new ConnectorError(404, "Request does not match any route.");
  });
  app.use(errorHandler(deps.logger ?? defaultLogger()));
  return app;
}

/** Renders every error as `{message, parameters?}`; unexpected ones as 500 without details, logged. */
const errorHandler = (log: Logger): ErrorRequestHandler => (err, req, res, _next) => {
  if (err instanceof ConnectorError) {
    res.status(err.status).json(err.toBody());
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
    log.error({ err, method: req.method, path: req.path }, "connector: unexpected error");
    res.status(500).json({ message: "Internal Error. Details are available in the connector log." });
  }
};
