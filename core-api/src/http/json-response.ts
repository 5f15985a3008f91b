/**
 * A JSON response that carries the request's id from the start: `c.json` builds the response with
 * its content type only, and the request log then adds `X-Request-Id`, which turns the response's
 * headers into a fetch `Headers` object (and @hono/node-server back into a plain one to write
 * them). Built here with both headers in one plain object, the response is written as it is; the
 * request log (http/request-log.ts) sees it carries the id and leaves it alone. The bytes on the
 * wire are the same: the same headers, names in lower case, in the same order.
 */
import type { Context } from "hono";
import { REQUEST_ID_HEADER } from "@service/shared/logging";
import { jsonText } from "./json-line.ts";

/** The responses built here, which carry their request's id already. */
const stamped = new WeakSet<Response>();
const REQUEST_ID_NAME = REQUEST_ID_HEADER.toLowerCase();

/**
 * `body` as JSON (`application/json`, as `c.json` sends it, ending with a newline: http/json-line.ts)
 * with the request's id header.
 * @param status HTTP status, default 200
 */
export function jsonResponse(c: Context, body: unknown, status = 200): Response {
  const requestId = c.get("requestId") as string | undefined;
  if (requestId === undefined) return c.json(body as object, status as 200);
  const response = new Response(jsonText(body), { status, headers: { "content-type": "application/json", [REQUEST_ID_NAME]: requestId } });
  stamped.add(response);
  return response;
}

/** Whether `response` was built by jsonResponse (and so carries the request id). */
export function carriesRequestId(response: Response): boolean {
  return stamped.has(response);
}
