/**
 * Reading a request body that may never fully arrive (a client aborting an upload was logged as an
 * unhandled error with its stack). A body whose stream fails (the client hung up, the connection
 * reset) is the client's failure: it becomes parameter_invalid (419, HTTP 400), a spec error the
 * app answers like any other (nobody may be listening) and does not log as a fault.
 *
 * On Node (@hono/node-server, which hands the app `{incoming, outgoing}` as its env) a body with
 * Content-Length is read from the IncomingMessage directly: asking hono for it builds a fetch
 * Request and a web stream over the socket first, a tenth of the CPU of an add-business call.
 * Elsewhere (Deno, app.request in tests, a chunked body the body limit has read) the
 * body is read through hono as before.
 */
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { requestHeader } from "./request-headers.ts";
import { ServiceError } from "./service-error.ts";

/** The error for a body that could not be read to its end. */
function bodyUnreadable(): ServiceError {
  return new ServiceError("parameter_invalid", "The request body could not be read: the connection ended before it arrived.");
}

/**
 * The whole body as text.
 * @throws ServiceError parameter_invalid (419) when the body stream fails before its end
 */
export async function readBodyText(c: Context): Promise<string> {
  const incoming = unreadNodeBody(c);
  if (incoming) {
    const text = await readIncoming(incoming);
    // Anything asking hono for the body later gets this text: hono keeps the promises of what it
    // read in bodyCache (typed as the values) and answers every later read from them.
    (c.req.bodyCache as { text?: Promise<string> }).text = Promise.resolve(text);
    return text;
  }
  try {
    return await c.req.text();
  } catch {
    throw bodyUnreadable();
  }
}

/** What readBodyText needs of Node's http.IncomingMessage (structural: this module runs on Deno too). */
interface NodeIncoming {
  readonly complete: boolean;
  readonly destroyed: boolean;
  readonly readableDidRead: boolean;
  readonly readableEnded: boolean;
  on(event: "data", listener: (chunk: Uint8Array) => void): unknown;
  on(event: "end" | "close", listener: () => void): unknown;
  on(event: "error", listener: (err: unknown) => void): unknown;
  off(event: string, listener: (...args: never[]) => void): unknown;
}

/**
 * The Node request of `c` when its body has a Content-Length and nothing has read it yet (not
 * hono, not the body limit) nor ended it (a client that hung up already), else null.
 */
function unreadNodeBody(c: Context): NodeIncoming | null {
  const incoming = (c.env as { incoming?: Partial<NodeIncoming> } | undefined)?.incoming;
  if (!incoming || typeof incoming.on !== "function") return null;
  if (incoming.readableDidRead !== false || incoming.readableEnded !== false || incoming.destroyed !== false) return null;
  if (declaredLength(c) === undefined) return null;
  return incoming as NodeIncoming;
}

/**
 * The request's Content-Length header when the body is framed by it (no Transfer-Encoding), else
 * undefined; read by `requestHeader` like every other header (on Node from the raw header list,
 * without building a fetch Headers object).
 */
function declaredLength(c: Context): string | undefined {
  return requestHeader(c, "transfer-encoding") === undefined ? requestHeader(c, "content-length") : undefined;
}

/** UTF-8 as fetch's `text()` decodes a body: a leading BOM dropped, bad bytes replaced. */
const UTF8 = new TextDecoder();

/**
 * The whole body of a Node request as text.
 * @throws ServiceError parameter_invalid (419) when the request ends or fails before its body did
 */
function readIncoming(incoming: NodeIncoming): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const onData = (chunk: Uint8Array) => {
      chunks.push(chunk);
      size += chunk.length;
    };
    const done = () => {
      incoming.off("data", onData);
      incoming.off("end", onEnd);
      incoming.off("error", onFail);
      incoming.off("close", onClose);
    };
    const onEnd = () => {
      done();
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
      resolve(UTF8.decode(body));
    };
    const onFail = () => {
      done();
      reject(bodyUnreadable());
    };
    const onClose = () => {
      if (!incoming.complete) onFail();
    };
    incoming.on("data", onData);
    incoming.on("end", onEnd);
    incoming.on("error", onFail);
    incoming.on("close", onClose);
  });
}

/**
 * hono's bodyLimit, answering from the Content-Length header alone when the body has one (hono's
 * own looks at the fetch Request's body first, which builds that Request on Node); a body without
 * one (chunked) is counted by hono's as it is read.
 * @param options as hono's bodyLimit: the largest body in bytes and the answer to a larger one
 */
export function bodyLimitByLength(options: Parameters<typeof bodyLimit>[0]): MiddlewareHandler {
  const counting = bodyLimit(options);
  return (c, next) => {
    const length = declaredLength(c);
    if (length === undefined) return counting(c, next);
    return Number.parseInt(length, 10) > options.maxSize ? counting(c, next) : next();
  };
}

/**
 * Wraps a middleware that reads the body itself (hono's bodyLimit reads a body without
 * Content-Length to count it) so that a failure before it hands on (a failing body stream) is
 * `bodyUnreadable`; its own spec errors, and anything from later handlers, pass unchanged.
 */
export function readingBody(middleware: MiddlewareHandler): MiddlewareHandler {
  return async (c, next) => {
    let handedOn = false;
    try {
      return await middleware(c, () => {
        handedOn = true;
        return next();
      });
    } catch (err) {
      if (handedOn || err instanceof ServiceError) throw err;
      throw bodyUnreadable();
    }
  };
}
