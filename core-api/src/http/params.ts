/**
 * Request parameters of the internal calls and the Resources API, read from the query string and
 * the body (application/json, application/x-www-form-urlencoded or multipart/form-data), in one
 * nested form for every encoding:
 * - a JSON body is the JSON object as sent;
 * - query and form values are text, and their bracket keys are nested here, once:
 *   `search[name]=x` is `{search: {name: "x"}}`, as the JSON body `{"search":{"name":"x"}}` is.
 * Either way no value may nest deeper than MAX_PARAM_DEPTH (checked without recursion, so a
 * hostile body cannot exhaust the stack): deeper is 419 parameter_invalid.
 */
import type { Context } from "hono";
import { readBodyText } from "./body-read.ts";
import { exceedsDepth, MAX_PARAM_DEPTH } from "./json-depth.ts";
import { requestHeader } from "./request-headers.ts";
import { ServiceError } from "./service-error.ts";

export { MAX_PARAM_DEPTH } from "./json-depth.ts";

export type ParamValue = string | number | boolean | null | ParamValue[] | { [key: string]: ParamValue };
export type Params = Record<string, ParamValue>;

/**
 * Query-string parameters, nested from bracket keys; a repeated key keeps its last value.
 * @throws ServiceError parameter_invalid (419) for conflicting or too deeply nested keys (see nestBracketKeys)
 */
export function queryParams(c: Context): Params {
  return nestBracketKeys(new URLSearchParams(queryOf(c.req.url)));
}

/**
 * The query string of `url` (without `?`), "" when there is none. The request URL is already
 * parsed and serialised (`href`), so this is what `new URL(url).search` holds, without parsing
 * the URL again per read.
 */
export function queryOf(url: string): string {
  // A serialised URL has no "#" before its fragment (a "#" in the path or query is %23).
  const hash = url.indexOf("#");
  const end = hash < 0 ? url.length : hash;
  const q = url.indexOf("?");
  return q < 0 || q > end ? "" : url.slice(q + 1, end);
}

/**
 * The path of `url`, as `new URL(url).pathname` reads it from a serialised absolute URL (`href`:
 * scheme, `//`, host, then the path up to `?` or `#`), without parsing it again.
 */
export function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return "/";
  let end = url.length;
  for (let i = start; i < url.length; i++) {
    const ch = url.charCodeAt(i);
    if (ch === 63 /* ? */ || ch === 35 /* # */) {
      end = i;
      break;
    }
  }
  return url.slice(start, end);
}

/**
 * Body parameters by content type.
 * @returns the JSON object as sent, or the form fields nested from bracket keys; an empty map
 *   when there is no body (always for GET and HEAD)
 * @throws ServiceError parameter_invalid (419) when the body cannot be parsed as its content
 *   type, is not a JSON object, nests deeper than MAX_PARAM_DEPTH, carries a file, or has an
 *   unsupported content type; also when the body stream fails before its end (http/body-read.ts)
 */
export async function bodyParams(c: Context): Promise<Params> {
  // A GET or HEAD request has no body (fetch's Request refuses one); asking would only build the
  // full Request object on Node (@hono/node-server keeps a light one until something asks).
  if (c.req.method === "GET" || c.req.method === "HEAD") return {};
  const type = (requestHeader(c, "content-type") ?? "").toLowerCase();
  if (type.startsWith("application/json")) {
    const text = await readBodyText(c);
    if (text.trim() === "") return {};
    let json: unknown;
    try {
      // JSON.parse does not recurse on the stack, so it is safe before the depth check.
      json = JSON.parse(text);
    } catch {
      throw new ServiceError("parameter_invalid", "The request body is not valid JSON.");
    }
    if (json === null || typeof json !== "object" || Array.isArray(json)) {
      throw new ServiceError("parameter_invalid", "The request body must be a JSON object.");
    }
    if (exceedsDepth(json, MAX_PARAM_DEPTH)) {
      throw new ServiceError("parameter_invalid", `The request body nests deeper than ${MAX_PARAM_DEPTH} levels.`);
    }
    return json as Params;
  }
  if (type.startsWith("application/x-www-form-urlencoded")) {
    // The WHATWG urlencoded parser, as FormData's, without building a Response to run it.
    return nestBracketKeys(new URLSearchParams(await readBodyText(c)));
  }
  if (type.startsWith("multipart/form-data")) {
    let form: Record<string, string | File | (string | File)[]>;
    try {
      form = await c.req.parseBody({ all: true });
    } catch {
      throw new ServiceError("parameter_invalid", "The form body cannot be parsed.");
    }
    const fields: Array<[string, string]> = [];
    for (const [k, v] of Object.entries(form)) {
      const last = Array.isArray(v) ? v[v.length - 1] : v;
      if (typeof last === "string") fields.push([k, last]);
      else if (last !== undefined) throw new ServiceError("parameter_invalid", `${k}: file uploads are not accepted.`);
    }
    return nestBracketKeys(fields);
  }
  const text = await readBodyText(c);
  if (text.length > 0) {
    throw new ServiceError("parameter_invalid", `Unsupported content type "${type || "none"}".`);
  }
  return {};
}

/** Query and body parameters together; a body value wins over a query value of the same name. */
export async function allParams(c: Context): Promise<Params> {
  return { ...queryParams(c), ...(await bodyParams(c)) };
}

const BRACKETED = /^([^[\]]+)((?:\[[^[\]]*\])+)$/;

/**
 * Nests text fields by their bracket keys: `chain[id]=1` -> `{chain: {id: "1"}}`,
 * `a[b][c]=1` -> `{a: {b: {c: "1"}}}`; a key without brackets (or not of the bracket form) is
 * kept as it is. A later field of the same key wins.
 * @throws ServiceError parameter_invalid (419) when a key is both a value and an object
 *   (`chain=1&chain[id]=1`), or nests deeper than MAX_PARAM_DEPTH
 */
export function nestBracketKeys(fields: Iterable<[string, string]>): Params {
  const out: Params = {};
  for (const [key, value] of fields) {
    const m = BRACKETED.exec(key);
    const path = m ? [m[1]!, ...[...m[2]!.matchAll(/\[([^[\]]*)\]/g)].map((x) => x[1]!)] : [key];
    // The top-level object is level 1, as in a JSON body.
    if (path.length > MAX_PARAM_DEPTH) throw new ServiceError("parameter_invalid", `${path[0]} nests deeper than ${MAX_PARAM_DEPTH} levels.`);
    let node: Params = out;
    for (const [i, part] of path.entries()) {
      const existing = Object.hasOwn(node, part) ? node[part] : undefined;
      if (i === path.length - 1) {
        if (isObject(existing)) throw new ServiceError("parameter_invalid", `${key} conflicts with ${path[0]}[...].`);
        put(node, part, value);
        break;
      }
      if (existing !== undefined && !isObject(existing)) throw new ServiceError("parameter_invalid", `${key} conflicts with ${path.slice(0, i + 1).join("][")}.`);
      node = existing ?? put<Params>(node, part, {});
    }
  }
  return out;
}

/** Sets an own property, also for keys such as `__proto__` that plain assignment treats specially (as JSON.parse does). */
function put<T extends ParamValue>(node: Params, key: string, value: T): T {
  Object.defineProperty(node, key, { value, enumerable: true, writable: true, configurable: true });
  return value;
}

function isObject(v: ParamValue | undefined): v is Params {
  return v !== null && v !== undefined && typeof v === "object" && !Array.isArray(v);
}
