/**
 * One log line per request (operations), as the core API writes it: request id, method, route,
 * status and duration, written when the response has been sent (or the client went away).
 * Written on the service's pino logger (logger.ts) in the same shape as the core API's lines, so
 * one query reads both services' logs. (pino-http's default line carries the whole request and
 * response, headers included, which would have to be filtered back down to this.)
 *
 * The request id is the `X-Request-Id` a trusted proxy sent (TRUSTED_PROXIES,
 * http/trusted-proxies.ts), when it is a plain token of at most 128 characters; otherwise a new
 * UUID. It is echoed in the response's `X-Request-Id` and kept in `res.locals.requestId`.
 *
 * Only the route's pattern is logged, never the URL: customer emails travel in the paths
 * (`/user_info_by_email/:customerEmail`). A path is logged only when no route matched. No header,
 * query string or body is logged, so no integration token or password reaches the log.
 */
import { randomUUID } from "node:crypto";
import type { BlockList } from "node:net";
import type { RequestHandler } from "express";
import type { Logger } from "../logger.ts";
import { isTrustedProxy } from "./trusted-proxies.ts";
import { watchMatchedRoute } from "./matched-route.ts";
import { ACCEPTED_REQUEST_ID, REQUEST_ID_HEADER } from "@service/shared/logging";

export { REQUEST_ID_HEADER };


/** The fields of one request's log line (message `request`). */
export interface RequestLogLine {
  requestId: string;
  method: string;
  /** the route pattern that answered, mount path included; null when none matched */
  route: string | null;
  /** the URL path without the query string, only when no route matched */
  path?: string;
  /** the status sent; for a client that went away before the response, the status set so far */
  status: number;
  /** from the request's arrival to the response's end, in milliseconds (0.1 ms steps) */
  durationMs: number;
  /** true when the client closed the connection before the response was sent */
  aborted?: true;
}

/** What the middleware needs. */
export interface RequestLogOptions {
  logger: Pick<Logger, "info">;
  /** our proxies (http/trusted-proxies.ts) */
  trustedProxies: BlockList;
  /** a new request id; default crypto.randomUUID */
  newId?: () => string;
}

/** The middleware; register it first, so every request is timed and logged. */
export function requestLog(options: RequestLogOptions): RequestHandler {
  const newId = options.newId ?? randomUUID;
  return (req, res, next) => {
    const started = performance.now();
    const sent = req.get(REQUEST_ID_HEADER);
    const requestId =
      sent !== undefined && ACCEPTED_REQUEST_ID.test(sent) && isTrustedProxy(options.trustedProxies, req.socket.remoteAddress) ? sent : newId();
    res.locals.requestId = requestId;
    res.setHeader(REQUEST_ID_HEADER, requestId);
    const route = watchMatchedRoute(req);
    let logged = false;
    const log = (aborted: boolean) => {
      if (logged) return;
      logged = true;
      const line: RequestLogLine = {
        requestId,
        method: req.method,
        route: route(),
        ...(route() === null ? { path: (req.originalUrl ?? req.url).split("?")[0] } : {}),
        status: res.statusCode,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
        ...(aborted ? { aborted: true as const } : {}),
      };
      options.logger.info(line, "request");
    };
    res.once("finish", () => log(false));
    res.once("close", () => log(!res.writableFinished));
    next();
  };
}
