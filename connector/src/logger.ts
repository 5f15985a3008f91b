/**
 * The connector's structured log: the calls the service makes, in pino's `(fields, message)`
 * shape, so tests pass a fake (ConnectorAppDeps.logger) and only this module knows pino.
 */
import { pino } from "pino";

/** The log calls the connector makes. */
export interface Logger {
  /** an unexpected failure (a 500 answered to the client) */
  error(fields: object, message: string): void;
}

/** The default log: pino, JSON lines on stdout, named `connector`. */
export function defaultLogger(): Logger {
  return pino({ name: "connector" });
}
