/**
 * What both services' logs have in common: the calls a service makes on its logger (pino's
 * `(fields, message)` shape), the levels LOG_LEVEL accepts, and the request id they carry.
 * Driver-free: each service builds its own pino logger on these.
 */

/** The log calls the services make. */
export interface Logger {
  /** an unexpected failure (a 500 answered to the client) */
  error(fields: object, message: string): void;
  /** a problem the service works around (for example a database that does not answer /ready) */
  warn(fields: object, message: string): void;
  /** the normal course of things: one line per request */
  info(fields: object, message: string): void;
}

/** The levels LOG_LEVEL accepts (pino's), from the most severe; `silent` logs nothing. */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The response header (and, from a trusted proxy, the request header) carrying the request id. */
export const REQUEST_ID_HEADER = "X-Request-Id";

/** What a proxy's request id may look like: no spaces, quotes or control characters, at most 128. */
export const ACCEPTED_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;
