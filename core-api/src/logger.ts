/**
 * The core API's structured log: the calls the service makes, in pino's `(fields, message)`
 * shape, so tests pass a fake (AppDeps.logger) and only this module knows pino. JSON lines on
 * stdout; the Node entry asks for pino-pretty when stdout is a terminal (pretty-log.node.ts).
 */
import { pino, type LoggerOptions as PinoOptions } from "pino";

import type { Logger, LogLevel } from "@service/shared/logging";

export { LOG_LEVELS, type Logger, type LogLevel } from "@service/shared/logging";

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
