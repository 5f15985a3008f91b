/**
 * The answer when the database is unavailable: 503 `service_unavailable` (904) with `Retry-After`
 * and the usual error body, and one log line without a stack trace. A frozen or unreachable
 * database is an operating condition, not a bug: each failed request is logged once, briefly, so
 * the log stays readable while it lasts.
 */
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from "@service/shared/node";
import { errorBody } from "@service/shared";
import type { Context } from "hono";
import type { Logger } from "../logger.ts";
import { pathOf } from "./params.ts";

export { isDatabaseUnavailable };

/**
 * Answers a request that failed because the database is unavailable and logs it.
 * @param err an error for which `isDatabaseUnavailable(err)` holds
 * @returns 503 with Retry-After (seconds) and error 904 service_unavailable
 */
export function databaseUnavailable(c: Context, err: unknown, log: Logger): Response {
  log.error({ ...driverFailure(err), method: c.req.method, path: pathOf(c.req.url) }, "database unavailable");
  c.header("Retry-After", String(DATABASE_RETRY_AFTER_SECONDS));
  return c.json(errorBody("service_unavailable"), 503);
}

/**
 * The driver's code and message of a database failure, for a log line without a stack trace:
 * under drizzle's wrapper (whose own message names the whole statement, parameters included: not
 * logged) they are its `cause`'s, else the error's own.
 * @returns `code` (ECONNREFUSED, PROTOCOL_SEQUENCE_TIMEOUT ...) when the error carries one as a
 *   string; `reason`, the message, or the error as text when it has none
 */
export function driverFailure(err: unknown): { code?: string; reason: string } {
  const e = err as { code?: unknown; message?: unknown; cause?: { code?: unknown; message?: unknown } } | null;
  const code = e?.cause?.code ?? e?.code;
  const reason = e?.cause?.message ?? e?.message;
  return { ...(typeof code === "string" && { code }), reason: typeof reason === "string" ? reason : String(err) };
}
