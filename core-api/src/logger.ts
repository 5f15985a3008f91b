/**
 * The core API's structured log: the calls the service makes, in pino's `(fields, message)`
 * shape, so tests pass a fake (AppDeps.logger) and only this module knows pino. JSON lines on
 * stdout; the Node entry asks for pino-pretty when stdout is a terminal (pretty-log.ts of
 * @service/shared/node).
 * Lines to stdout are buffered (bufferedStdout, log-output.ts of @service/shared/node).
 */
import { pino, type LoggerOptions as PinoOptions } from "pino";
import { bufferedStdout } from "@service/shared/node";

import type { Logger, LogLevel } from "@service/shared/logging";

export { LOG_LEVELS, type Logger, type LogLevel } from "@service/shared/logging";

/** How the default log writes. */
export interface LogOutput {
  /** the lowest level written (LOG_LEVEL); default `info` */
  level?: LogLevel;
  /** a pino transport for people (pino-pretty), when stdout is a terminal; JSON lines without */
  transport?: PinoOptions["transport"];
}

/** The default log: pino, named `core-api`, JSON lines on (buffered) stdout unless `output` names a transport. */
export function defaultLogger(output: LogOutput = {}): Logger {
  const options: PinoOptions = { name: "core-api", level: output.level ?? "info" };
  if (output.transport) return pino({ ...options, transport: output.transport });
  // A silent log writes nothing: it needs no stdout (tests build many apps with one).
  if (options.level === "silent") return pino(options);
  return pino(options, bufferedStdout());
}
