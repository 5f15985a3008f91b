/**
 * The connector's structured log: the calls the service makes, in pino's `(fields, message)`
 * shape, so tests pass a fake (ConnectorAppDeps.logger) and only this module knows pino. JSON
 * lines on stdout, or pino-pretty for people when stdout is a terminal and it is installed.
 */
import { createRequire } from "node:module";
import { pino, type LoggerOptions } from "pino";

/** The log calls the connector makes. */
export interface Logger {
  /** an unexpected failure (a 500 answered to the client) */
  error(fields: object, message: string): void;
  /** a problem the service works around (for example a database that does not answer /ready) */
  warn(fields: object, message: string): void;
  /** the normal course of things: one line per request (http/request-log.ts) */
  info(fields: object, message: string): void;
}

/** The levels LOG_LEVEL accepts (pino's), from the most severe; `silent` logs nothing. */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const require = createRequire(import.meta.url);

/**
 * The default log: pino, named `connector`.
 * @param level the lowest level written (LOG_LEVEL); default `info`
 * @param isTerminal whether stdout is a terminal (pretty output); default `process.stdout.isTTY`
 */
export function defaultLogger(level: LogLevel = "info", isTerminal: boolean = process.stdout.isTTY === true): Logger {
  const transport = prettyTransport(isTerminal);
  return pino({ name: "connector", level, ...(transport ? { transport } : {}) });
}

/**
 * pino-pretty when stdout is a terminal and the package is installed; undefined (JSON lines, for
 * log collectors) otherwise.
 */
export function prettyTransport(isTerminal: boolean): LoggerOptions["transport"] | undefined {
  if (!isTerminal) return undefined;
  try {
    require.resolve("pino-pretty");
  } catch {
    return undefined;
  }
  return { target: "pino-pretty", options: { colorize: true } };
}
