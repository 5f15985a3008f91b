/**
 * The connector's answer when its database is unavailable: 503 with `Retry-After` in Magento's
 * error shape, and one log line without a stack trace per failed request (a frozen or unreachable
 * database is an operating condition, not a bug). The line's path has emails redacted
 * (http/loggable-path.ts).
 */
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from "@service/shared/node";
import type { Request, Response } from "express";
import type { Logger } from "../logger.ts";
import { loggablePath } from "./loggable-path.ts";

export { isDatabaseUnavailable };

/**
 * Answers a request that failed because the database is unavailable, and logs it.
 * @param err an error for which `isDatabaseUnavailable(err)` holds
 */
export function sendDatabaseUnavailable(err: unknown, req: Request, res: Response, log: Logger): void {
  const e = err as { code?: unknown; message?: unknown; cause?: { code?: unknown; message?: unknown } } | null;
  // drizzle's own message names the whole statement, parameters included: the driver's is logged.
  log.error(
    { code: e?.cause?.code ?? e?.code, reason: e?.cause?.message ?? e?.message, method: req.method, path: loggablePath(req.originalUrl ?? req.url) },
    "database unavailable",
  );
  res.set("Retry-After", String(DATABASE_RETRY_AFTER_SECONDS));
  res.status(503).json({ message: "The service is temporarily unavailable; try again later." });
}
