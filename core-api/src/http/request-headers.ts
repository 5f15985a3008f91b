/**
 * Request headers read as `Headers.get` reads them (`c.req.header`), without building a fetch
 * `Headers` object per request on Node (@hono/node-server builds one from every header of the
 * request the first time a handler asks for any, through undici's checks, for the few headers a
 * request reads).
 *
 * On Node the runtime hands over the raw header list (`c.env.incoming.rawHeaders` of
 * @hono/node-server, the request's header lines as the HTTP parser read and checked them); they
 * are read here once per request the way `Headers` reads them: names case-insensitive, each value
 * with leading and trailing HTTP whitespace (tab, space, CR, LF) removed, repeated headers joined
 * with ", " in their order, HTTP/2 pseudo-headers (`:path`) left out. Elsewhere (Deno,
 * `app.request` in tests) it is `c.req.header`.
 */
import type { Context } from "hono";

/** What @hono/node-server puts in `c.env` (duck-typed: no Node import under src/). */
interface NodeBindings {
  incoming?: { rawHeaders?: readonly string[] };
}

const read = new WeakMap<object, Map<string, string>>();

/**
 * The request header `name`, as `c.req.header(name)` returns it.
 * @param name lower case
 * @returns undefined when the request has no such header
 */
export function requestHeader(c: Context, name: string): string | undefined {
  const incoming = (c.env as NodeBindings | undefined)?.incoming;
  const raw = incoming?.rawHeaders;
  if (!incoming || !Array.isArray(raw)) return c.req.header(name);
  let headers = read.get(incoming);
  if (!headers) {
    headers = new Map();
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const key = raw[i]!;
      if (key.charCodeAt(0) === 58 /* : */) continue;
      const lower = key.toLowerCase();
      const value = trimHttpWhitespace(raw[i + 1]!);
      const before = headers.get(lower);
      headers.set(lower, before === undefined ? value : `${before}, ${value}`);
    }
    read.set(incoming, headers);
  }
  return headers.get(name);
}

/** `value` without leading and trailing HTTP whitespace (tab, LF, CR, space), as `Headers` normalises it. */
function trimHttpWhitespace(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && isHttpWhitespace(value.charCodeAt(start))) start++;
  while (end > start && isHttpWhitespace(value.charCodeAt(end - 1))) end--;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}

function isHttpWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}
