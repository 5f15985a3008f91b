/**
 * Every JSON answer of the connector ends with a newline, as a line of text does: `curl` output
 * then ends its line instead of running into the shell prompt. Parsers ignore the trailing
 * whitespace (RFC 8259, section 2); Content-Length counts it (Express's `res.send` sets it from
 * the text it sends).
 */
import type { Express, Response } from "express";

/**
 * Makes `res.json` of every request of `app` send JSON.stringify's text and a newline, as
 * `application/json; charset=utf-8` (what Express's own `res.json` sends). Extends the app's own
 * response prototype (`app.response`), so other Express apps in the process are untouched.
 */
export function jsonLines(app: Express): void {
  app.response.json = function json(this: Response, body: unknown) {
    if (!this.get("Content-Type")) this.set("Content-Type", "application/json");
    return this.send(`${JSON.stringify(body)}\n`);
  };
}
