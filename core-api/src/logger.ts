/**
 * The core API's structured log: the calls the service makes, in pino's `(fields, message)`
 * shape, so tests pass a fake (AppDeps.logger) and only this module knows pino.
 */
import { pino } from "pino";

/** The log calls the core API makes. */
export interface Logger {
  /** an unexpected failure (a 500 answered to the client) */
  error(fields: object, message: string): void;
  /** a problem the service works around (for example a shopper key set it cannot use) */
  warn(fields: object, message: string): void;
}

/** The default log: pino, JSON lines on stdout, named `core-api`. */
export function defaultLogger(): Logger {
  return pino({ name: "core-api" });
}
