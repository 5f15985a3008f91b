/**
 * The answer when the database is unavailable (issue 11): 503 `service_unavailable` (904) with
 * `Retry-After` and the usual error body, and one log line without a stack trace. A frozen or
 * unreachable database is an operating condition, not a bug: each failed request is logged once,
 * briefly, so the log stays readable while it lasts.
 */
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from "@service/shared/db-timeouts";
import { errorBody } from "@service/shared";
import type { Context } from "hono";
import type { Logger } from "../logger.ts";

export { isDatabaseUnavailable };

/**
 * Answers a request that failed because the database is unavailable and logs it.
 * @param err an error for which `isDatabaseUnavailable(err)` holds
 * @returns 503 with Retry-After (seconds) and error 904 service_unavailable
 */
export function databaseUnavailable(c: Context, err: unknown, log: Logger): Response {
  log.error(
    { code: driverCode(err), reason: reasonOf(err), method: c.req.method, path: new URL(c.req.url).pathname },
    "database unavailable",
  );
  c.header("Retry-After", String(DATABASE_RETRY_AFTER_SECONDS));
  return c.json(errorBody("service_unavailable"), 503);
}

/** The driver's error code (ECONNREFUSED, PROTOCOL_SEQUENCE_TIMEOUT ...) under drizzle's wrapper. */
function driverCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | null;
  const code = e?.code ?? e?.cause?.code;
  return typeof code === "string" ? code : undefined;
}

/** The driver's message (drizzle's own names the whole statement, parameters included: not logged). */
function reasonOf(err: unknown): string | undefined {
  const e = err as { message?: unknown; cause?: { message?: unknown } } | null;
  const message = e?.cause?.message ?? e?.message;
  return typeof message === "string" ? message : undefined;
}
