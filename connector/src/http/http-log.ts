/**
 * The connector's request log: pino-http, configured for one line per request in the core API's
 * shape (core-api/src/http/request-log.ts), so one query reads both services' logs: message
 * `request` with requestId, method, route, status and durationMs, written when the response has
 * been sent or the client went away. pino-http's default line (the whole request and response,
 * headers included) is replaced by these fields (`customSuccessObject` / `customErrorObject`), and
 * its request id is bound as `requestId` (`quietReqLogger`, `customAttributeKeys.reqId`): `req.log`
 * lines of handlers carry it too.
 *
 * The request id (`genReqId`) is the `X-Request-Id` a trusted proxy sent (TRUSTED_PROXIES,
 * trusted-proxies.ts of @service/shared/node), when it is a plain token of at most 128 characters; otherwise a new
 * UUID. It is echoed in the response's `X-Request-Id` and is `req.id`.
 *
 * Only the route's pattern is logged, never the URL: customer emails travel in the paths
 * (`/user_info_by_email/:customerEmail`). A path is logged only when no route matched, and then
 * with emails redacted (http/loggable-path.ts). No header, query string or body is logged; should a
 * handler log the request or response object (`req.log.info({ req, res })`), the logger's
 * redaction (logger.ts) censors the Authorization header, cookies and passwords, and the request's
 * `url` and `params` have emails redacted as the path is.
 */
import { randomUUID } from "node:crypto";
import type { Request, RequestHandler, Response } from "express";
import type { Logger as PinoLogger } from "pino";
import { pinoHttp } from "pino-http";
import { ACCEPTED_REQUEST_ID, REQUEST_ID_HEADER } from "@service/shared/logging";
import { loggableParams, loggablePath } from "./loggable-path.ts";
import { watchMatchedRoute } from "./matched-route.ts";
import { isTrustedProxy, type TrustedProxies } from "@service/shared/node";

export { REQUEST_ID_HEADER };

/** The fields of one request's log line (message `request`), besides pino's own (level, time, name, ...). */
export interface RequestLogLine {
  requestId: string;
  method: string;
  /** the route pattern that answered, mount path included; null when none matched */
  route: string | null;
  /** the URL path without the query string, emails redacted (loggablePath), only when no route matched */
  path?: string;
  /** the status sent; for a client that went away before the response, the status set so far */
  status: number;
  /** from the request's arrival to the response's end, in whole milliseconds (pino-http's responseTime) */
  durationMs: number;
  /** true when the client closed the connection before the response was sent */
  aborted?: true;
}

/** The message of the request lines. */
export const REQUEST_LOG_MESSAGE = "request";

/** What the request log needs. */
export interface HttpLogOptions {
  /** the service's pino logger (logger.ts); its level is LOG_LEVEL */
  logger: PinoLogger;
  /** our proxies (trusted-proxies.ts of @service/shared/node) */
  trustedProxies: TrustedProxies;
  /** a new request id; default crypto.randomUUID */
  newId?: () => string;
}

/**
 * The request log middleware; register it before the routers (after the metrics, which answer
 * GET /metrics unlogged, as before), so every request is timed and logged.
 */
export function httpLog(options: HttpLogOptions): RequestHandler {
  const newId = options.newId ?? randomUUID;
  /** The line's fields but the request id, which pino-http binds. */
  const fields = (req: Request, res: Response, responseTime: number): Omit<RequestLogLine, "requestId"> => {
    const route = watchMatchedRoute(req)();
    return {
      method: req.method,
      route,
      ...(route === null ? { path: loggablePath(req.originalUrl ?? req.url) } : {}),
      status: res.statusCode,
      durationMs: responseTime,
      ...(res.writableFinished ? {} : { aborted: true as const }),
    };
  };
  const log = pinoHttp<Request, Response>({
    logger: options.logger,
    genReqId(req, res) {
      const sent = req.get(REQUEST_ID_HEADER);
      const trusted = sent !== undefined && ACCEPTED_REQUEST_ID.test(sent) && isTrustedProxy(options.trustedProxies, req.socket.remoteAddress);
      const id = trusted ? sent : newId();
      res.setHeader(REQUEST_ID_HEADER, id);
      return id;
    },
    // pino's request serializer, then the emails out of the URL and the route's parameters
    serializers: { req: redactRequest },
    quietReqLogger: true,
    quietResLogger: true,
    customAttributeKeys: { reqId: "requestId" },
    // Every request at info, 5xx too: the error handler writes the failure's own line at error.
    customSuccessObject: (req, res, val: { responseTime: number }) => fields(req, res, val.responseTime),
    customErrorObject: (req, res, _err, val: { responseTime: number }) => fields(req, res, val.responseTime),
    customSuccessMessage: () => REQUEST_LOG_MESSAGE,
    customErrorMessage: () => REQUEST_LOG_MESSAGE,
  });
  return (req, res, next) => {
    watchMatchedRoute(req); // from the start: the routers note their pattern as they take the request
    log(req, res, next);
  };
}

/** pino's serialized request (pino-std-serializers) with emails redacted from `url` and `params`. */
function redactRequest(serialized: { url?: unknown; params?: unknown }): unknown {
  if (typeof serialized.url === "string") serialized.url = loggablePath(serialized.url);
  if (serialized.params && typeof serialized.params === "object") serialized.params = loggableParams(serialized.params as Record<string, unknown>);
  return serialized;
}
