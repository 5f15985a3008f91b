/**
 * Every JSON answer ends with a newline, as a line of text does: `curl` output then ends its line
 * instead of running into the shell prompt or the next answer. Parsers ignore the trailing
 * whitespace (RFC 8259, section 2), and Content-Length counts it.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** `body` as the text of a JSON answer: JSON.stringify's text and a newline. */
export function jsonText(body: unknown): string {
  return `${JSON.stringify(body)}\n`;
}

/**
 * Middleware: `c.json` of this request writes {@link jsonText} (`application/json`, as Hono's
 * own). Mount it before any route or handler that answers with `c.json`.
 */
export const jsonLines: MiddlewareHandler = async (c, next) => {
  // `arg` is a status or a ResponseInit, as c.json takes it; c.body takes either at run time.
  const json = (body: unknown, arg?: ContentfulStatusCode | ResponseInit, headers?: Record<string, string>) =>
    c.body(jsonText(body), arg as ContentfulStatusCode, { "content-type": "application/json", ...headers });
  c.json = json as unknown as Context["json"];
  await next();
};
