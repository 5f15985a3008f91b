/**
 * A response sent before the request's body was read to its end (413 for a body over 1 MiB,
 * answered from its Content-Length; any refusal that comes before the body is read) leaves the
 * rest of that body on the connection, where it would be read as the next request: RFC 9112 9.6
 * has the server answer with `Connection: close` and close the connection after the response.
 * The response gets that header, and Node's server closes the connection once it is sent (it
 * discards what is left of the body meanwhile); a client that keeps connections open sees the
 * header and sends its next request on a new one.
 *
 * Which responses: on Node, every response whose request (@hono/node-server's `incoming` in the
 * env) has not been received to its end (`complete` false). A body that was read, or that has
 * arrived in full (Node discards what nobody read), keeps the connection. Deno's server closes
 * such a connection by itself (it answers `Connection: close` too), so nothing is added there.
 */
import type { Context, MiddlewareHandler } from "hono";

/** The middleware; register it before any other that can answer, so it sees every response. */
export function closeWhenBodyUnread(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (!nodeBodyUnread(c)) return;
    try {
      c.res.headers.set("connection", "close");
    } catch {
      // A response with immutable headers (one passed through from fetch): copy it.
      const res = new Response(c.res.body, c.res);
      res.headers.set("connection", "close");
      c.res = res;
    }
  };
}

/** Whether `c` is a Node request whose body has not been received to its end (structural: this module runs on Deno too). */
function nodeBodyUnread(c: Context): boolean {
  const incoming = (c.env as { incoming?: { complete?: unknown } } | undefined)?.incoming;
  return incoming !== undefined && incoming.complete === false;
}
