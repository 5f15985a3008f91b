/**
 * One log line per request (operations): request id, method, route, path, status and duration,
 * written when the response is ready, whatever answered it (a handler, the error handler, the
 * not-found handler).
 *
 * The request id is the `X-Request-Id` a trusted proxy sent (TRUSTED_PROXIES, auth/client-ip.ts),
 * when it is a plain token of at most 128 characters; otherwise a new UUID: a client cannot plant
 * ids (or text) in the log. It is echoed in the response's `X-Request-Id` and kept as the context
 * variable `requestId` for other log lines of the request.
 *
 * Nothing the client sent is logged but the method and the path (no query string, header or
 * body), so no password, session key, token or Authorization header reaches the log.
 */
import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import type { Logger } from "../logger.ts";
import { pathOf } from "./params.ts";
import { ACCEPTED_REQUEST_ID, REQUEST_ID_HEADER } from "@service/shared/logging";
import { carriesRequestId } from "./json-response.ts";
import { requestHeader } from "./request-headers.ts";

export { REQUEST_ID_HEADER };

/** REQUEST_ID_HEADER as requestHeader names headers (lower case). */
const REQUEST_ID_NAME = REQUEST_ID_HEADER.toLowerCase();


/** The fields of one request's log line (message `request`). */
export interface RequestLogLine {
  requestId: string;
  method: string;
  /** the route pattern that answered, for example `/resources/business/:id`; null when none matched */
  route: string | null;
  /** the URL path, without the query string */
  path: string;
  status: number;
  /** from the request's arrival to its response, in milliseconds (0.1 ms steps) */
  durationMs: number;
}

/** What the middleware needs. */
export interface RequestLogOptions {
  logger: Pick<Logger, "info">;
  /** whether the request came straight from a trusted proxy (auth/client-ip.ts fromTrustedProxy) */
  fromTrustedProxy: (c: Context) => boolean;
  /** a new request id; default crypto.randomUUID */
  newId?: () => string;
}

/** The middleware; register it first, so every request is timed and logged. */
export function requestLog(options: RequestLogOptions): MiddlewareHandler<{ Variables: { requestId: string } }> {
  const newId = options.newId ?? (() => crypto.randomUUID());
  return async (c, next) => {
    const started = performance.now();
    const sent = requestHeader(c, REQUEST_ID_NAME);
    const requestId = sent !== undefined && ACCEPTED_REQUEST_ID.test(sent) && options.fromTrustedProxy(c) ? sent : newId();
    c.set("requestId", requestId);
    await next();
    echo(c, requestId);
    const line: RequestLogLine = {
      requestId,
      method: c.req.method,
      route: answeringRoute(c),
      path: pathOf(c.req.url),
      status: c.res.status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    };
    options.logger.info(line, "request");
  };
}

/** Sets the id on the response, copying a response whose headers are immutable; a jsonResponse carries it already. */
function echo(c: Context, requestId: string): void {
  if (carriesRequestId(c.res)) return;
  try {
    c.res.headers.set(REQUEST_ID_HEADER, requestId);
  } catch {
    c.res = new Response(c.res.body, c.res);
    c.res.headers.set(REQUEST_ID_HEADER, requestId);
  }
}

/** The pattern of the handler that answered; null when only middleware ("*") ran. */
function answeringRoute(c: Context): string | null {
  const route = matchedRoutes(c)[c.req.routeIndex];
  return route && route.path !== "*" && route.path !== "/*" ? route.path : null;
}
