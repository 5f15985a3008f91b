/**
 * Request parameters of the internal calls and the Resources API, read from the query string and
 * the body (application/json, application/x-www-form-urlencoded or multipart/form-data).
 *
 * Every value ends up as a string (form and query values), or as the JSON value itself (JSON
 * bodies); nested JSON objects are flattened to bracket keys (`{"search":{"name":"x"}}` becomes
 * `search[name]`) so both encodings read the same.
 */
import type { Context } from "hono";
import { ServiceError } from "./service-error.ts";

export type ParamValue = string | number | boolean | null | ParamValue[] | { [key: string]: ParamValue };
export type Params = Record<string, ParamValue>;

/** Query-string parameters; a repeated key keeps its last value. */
export function queryParams(c: Context): Params {
  const out: Params = {};
  for (const [k, v] of new URL(c.req.url).searchParams) out[k] = v;
  return out;
}

/**
 * Body parameters by content type.
 * @returns the flat parameter map; an empty map when there is no body
 * @throws ServiceError parameter_invalid (419) when the body cannot be parsed as its content type
 */
export async function bodyParams(c: Context): Promise<Params> {
  const type = (c.req.header("content-type") ?? "").toLowerCase();
  if (type.startsWith("application/json")) {
    const text = await c.req.text();
    if (text.trim() === "") return {};
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ServiceError("parameter_invalid", "The request body is not valid JSON.");
    }
    if (json === null || typeof json !== "object" || Array.isArray(json)) {
      throw new ServiceError("parameter_invalid", "The request body must be a JSON object.");
    }
    return flatten(json as Record<string, ParamValue>);
  }
  if (type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/form-data")) {
    let form: Record<string, string | File | (string | File)[]>;
    try {
      form = await c.req.parseBody({ all: true });
    } catch {
      throw new ServiceError("parameter_invalid", "The form body cannot be parsed.");
    }
    const out: Params = {};
    for (const [k, v] of Object.entries(form)) {
      const last = Array.isArray(v) ? v[v.length - 1] : v;
      if (typeof last === "string") out[k] = last;
      else if (last !== undefined) throw new ServiceError("parameter_invalid", `${k}: file uploads are not accepted.`);
    }
    return out;
  }
  const text = await c.req.text();
  if (text.length > 0) {
    throw new ServiceError("parameter_invalid", `Unsupported content type "${type || "none"}".`);
  }
  return {};
}

/** Query and body parameters together; body values win over query values of the same name. */
export async function allParams(c: Context): Promise<Params> {
  return { ...queryParams(c), ...(await bodyParams(c)) };
}

function flatten(obj: Record<string, ParamValue>, prefix = "", out: Params = {}): Params {
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}[${k}]` : k;
    // Keep objects for keys that are objects by contract (for example a Resources reference
    // `chain: {id}`) and also offer their flat form for bracket-keyed parameters.
    if (v !== null && typeof v === "object" && !Array.isArray(v)) {
      out[key] = v;
      flatten(v, key, out);
    } else {
      out[key] = v;
    }
  }
  return out;
}
