/**
 * The connector's structured log: pino, named `connector`, JSON lines on (buffered) stdout, or pino-pretty
 * for people when stdout is a terminal and it is installed. The request lines come from pino-http
 * on this logger (http/http-log.ts). Secrets are redacted whatever a line carries: the
 * Authorization header, cookies and passwords (REDACTED_PATHS). Tests pass a pino logger on a
 * capturing stream (test-support/log-capture.ts) built from the same options.
 */
import { bufferedStdout, prettyWhenTerminal } from "@service/shared/node";
import { pino, type Logger as PinoLogger, type LoggerOptions } from "pino";

import type { LogLevel } from "@service/shared/logging";

export { LOG_LEVELS, type Logger, type LogLevel } from "@service/shared/logging";

/**
 * What the log never shows (pino `redact` paths, replaced by `[Redacted]`): request and response
 * headers as pino-http's serializers write them (`req.headers`, `res.headers`), bare headers, and
 * a `password` field up to two levels deep (the authenticate and update bodies).
 */
export const REDACTED_PATHS = [
  "req.headers.authorization", "req.headers.cookie", 'res.headers["set-cookie"]',
  "headers.authorization", "headers.cookie", 'headers["set-cookie"]',
  "password", "*.password", "*.*.password",
];

/**
 * The connector's pino options: name `connector`, `level`, redaction of REDACTED_PATHS.
 * @param level the lowest level written (LOG_LEVEL)
 */
export function connectorLoggerOptions(level: LogLevel): LoggerOptions {
  return { name: "connector", level, redact: { paths: REDACTED_PATHS, censor: "[Redacted]" } };
}

/**
 * The default log: pino with connectorLoggerOptions, JSON lines on (buffered) stdout, or
 * pino-pretty when stdout is a terminal.
 * @param level the lowest level written (LOG_LEVEL); default `info`
 * @param isTerminal whether stdout is a terminal (pretty output); default `process.stdout.isTTY`
 */
export function defaultLogger(level: LogLevel = "info", isTerminal: boolean = process.stdout.isTTY === true): PinoLogger {
  const transport = prettyWhenTerminal(isTerminal); // pretty-log.ts of @service/shared/node
  if (transport) return pino({ ...connectorLoggerOptions(level), transport });
  // A silent log writes nothing: it needs no stdout (tests build many apps with one).
  if (level === "silent") return pino(connectorLoggerOptions(level));
  return pino(connectorLoggerOptions(level), bufferedStdout());
}
