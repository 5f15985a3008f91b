/**
 * The core API's structured log: the calls the service makes, in pino's `(fields, message)`
 * shape, so tests pass a fake (AppDeps.logger) and only this module knows pino. JSON lines on
 * stdout; the Node entry asks for pino-pretty when stdout is a terminal (pretty-log.node.ts).
 */
import { pino, type LoggerOptions as PinoOptions } from "pino";

/** The log calls the core API makes. */
export interface Logger {
  /** an unexpected failure (a 500 answered to the client) */
  error(fields: object, message: string): void;
  /** a problem the service works around (for example a shopper key set it cannot use) */
  warn(fields: object, message: string): void;
  /** the normal course of things: one line per request (http/request-log.ts) */
  info(fields: object, message: string): void;
}

/** The levels LOG_LEVEL accepts (pino's), from the most severe; `silent` logs nothing. */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** How the default log writes. */
export interface LogOutput {
  /** the lowest level written (LOG_LEVEL); default `info` */
  level?: LogLevel;
  /** a pino transport for people (pino-pretty), when stdout is a terminal; JSON lines without */
  transport?: PinoOptions["transport"];
}

/** The default log: pino, named `core-api`, JSON lines on stdout unless `output` names a transport. */
export function defaultLogger(output: LogOutput = {}): Logger {
  return pino({ name: "core-api", level: output.level ?? "info", ...(output.transport ? { transport: output.transport } : {}) });
}
