/**
 * Request paths as the connector's logs may show them: customer emails travel in paths
 * (`GET /rest/V1/service/customer/user_info_by_email/<chain id>/<email>`, and the form without the
 * chain id), and a log line must not carry them. Used wherever a line names a path: the request line of a
 * request no route took (http-log.ts), the database-unavailable line (unavailable.ts), the
 * unexpected-error line (app.ts), and the request object a handler logs through `req.log` (its
 * `url` and `params`).
 */

/** What stands in for a redacted part. */
export const REDACTED = "[redacted]";

const BY_EMAIL = /(\/user_info_by_email\/).*$/i;
/** An `@`, raw or percent-encoded (`%40`): the mark of an email in a path segment or a value. */
const AT_SIGN = /@|%40/i;

/**
 * The path of `url` fit for a log line: the query string dropped; everything after
 * `/user_info_by_email/` replaced by `[redacted]` (the chain id goes too: the route pattern, logged
 * when a route matched, says which form it was); and any other segment holding an `@` (raw or
 * `%40`) replaced by `[redacted]`, so an email sent to any path stays out of the log.
 * @param url a request URL or path, e.g. `/rest/V1/service/customer/user_info_by_email/1/ann@example.com?x=1`
 * @returns e.g. `/rest/V1/service/customer/user_info_by_email/[redacted]`
 */
export function loggablePath(url: string): string {
  const path = url.split("?")[0]!.split("#")[0]!;
  return path
    .replace(BY_EMAIL, `$1${REDACTED}`)
    .split("/")
    .map((segment) => (AT_SIGN.test(segment) ? REDACTED : segment))
    .join("/");
}

/**
 * A route's parameters fit for a log line: the customer email (`customerEmail`) and any value
 * holding an `@` replaced by `[redacted]`; other values as they are.
 * @param params Express's `req.params` (string values)
 */
export function loggableParams(params: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).map(([key, value]) => [
    key,
    key === "customerEmail" || (typeof value === "string" && AT_SIGN.test(value)) ? REDACTED : value,
  ]));
}
