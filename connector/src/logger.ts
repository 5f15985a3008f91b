/**
 * The connector's structured log: the calls the service makes, in pino's `(fields, message)`
 * shape, so tests pass a fake (ConnectorAppDeps.logger) and only this module knows pino. JSON
 * lines on stdout, or pino-pretty for people when stdout is a terminal and it is installed.
 */
import { createRequire } from "node:module";
import { pino, type LoggerOptions } from "pino";

import type { Logger, LogLevel } from "@service/shared/logging";

export { LOG_LEVELS, type Logger, type LogLevel } from "@service/shared/logging";

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
