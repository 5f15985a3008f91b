/**
 * Reading a request body that may never fully arrive (issue 11: a client aborting an upload was
 * logged as an unhandled error with its stack). A body whose stream fails (the client hung up,
 * the connection reset) is the client's failure: it becomes parameter_invalid (419, HTTP 400), a
 * spec error the app answers like any other (nobody may be listening) and does not log as a fault.
 */
import type { Context, MiddlewareHandler } from "hono";
import { ServiceError } from "./service-error.ts";

/** The error for a body that could not be read to its end. */
export function bodyUnreadable(): ServiceError {
  return new ServiceError("parameter_invalid", "The request body could not be read: the connection ended before it arrived.");
}

/**
 * The whole body as text.
 * @throws ServiceError parameter_invalid (419) when the body stream fails before its end
 */
export async function readBodyText(c: Context): Promise<string> {
  try {
    return await c.req.text();
  } catch {
    throw bodyUnreadable();
  }
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
