/**
 * The core API's structured log: the calls the service makes, in pino's `(fields, message)`
 * shape, so tests pass a fake (AppDeps.logger) and only this module knows pino. JSON lines on
 * stdout; the Node entry asks for pino-pretty when stdout is a terminal (pretty-log.ts of
 * @service/shared/node).
 *
 * Lines to stdout are buffered (one write per request line was a system call and a thread-pool
 * hand-off per request): written once STDOUT_BUFFER_BYTES have gathered, and at the latest
 * STDOUT_FLUSH_MS after a line, so a quiet service still shows its lines at once; what is buffered
 * when the process exits (process.exit, a signal handler's exit, an uncaught error) is written
 * synchronously first (pino's exit hook). Every logger of a process shares the one buffer, so lines
 * keep their order.
 */
import { pino, type DestinationStream, type LoggerOptions as PinoOptions } from "pino";

import type { Logger, LogLevel } from "@service/shared/logging";

export { LOG_LEVELS, type Logger, type LogLevel } from "@service/shared/logging";

/** Buffered stdout: written once this many bytes have gathered ... */
const STDOUT_BUFFER_BYTES = 4096;
/** ... or this many milliseconds after a line, whichever comes first. */
const STDOUT_FLUSH_MS = 50;

/** How the default log writes. */
export interface LogOutput {
  /** the lowest level written (LOG_LEVEL); default `info` */
  level?: LogLevel;
  /** a pino transport for people (pino-pretty), when stdout is a terminal; JSON lines without */
  transport?: PinoOptions["transport"];
}

let stdout: DestinationStream | undefined;

/** The process's buffered stdout (see the module comment), opened on first use. */
function bufferedStdout(): DestinationStream {
  return (stdout ??= pino.destination({ dest: 1, sync: false, minLength: STDOUT_BUFFER_BYTES, periodicFlush: STDOUT_FLUSH_MS }));
}

/** The default log: pino, named `core-api`, JSON lines on (buffered) stdout unless `output` names a transport. */
export function defaultLogger(output: LogOutput = {}): Logger {
  const options: PinoOptions = { name: "core-api", level: output.level ?? "info" };
  if (output.transport) return pino({ ...options, transport: output.transport });
  // A silent log writes nothing: it needs no stdout (tests build many apps with one).
  if (options.level === "silent") return pino(options);
  return pino(options, bufferedStdout());
}
