/**
 * Validation of Resources write bodies (POST, PUT, PATCH) against the declaration (spec,
 * "Resources API, generic paths" and "Field-table notation"; handbook, "unknown property in a
 * Resources write"). Pure: no database; nothing is written unless this returns.
 */
import type { PropertyInfo, ResourceDeclaration } from "@service/shared/resources/meta";
import { parseBooleanText, parseDecimalText, parseIntegerText } from "@service/shared/text-values";
import type { ParamValue, Params } from "../http/params.ts";
import { ServiceError } from "../http/service-error.ts";

export type WriteMethod = "post" | "put" | "patch";
/**
 * How the body was encoded: form values are text, read per property type by the one text rule
 * of both API families (`@service/shared/text-values`); JSON values are taken as they are (the
 * schema document types every property, so `"true"` is no boolean in a JSON body).
 */
export type BodySource = "json" | "form";

/** Validated property values, by property name; a reference is `{id}`. */
export type WriteValues = Record<string, unknown>;

export interface WriteOptions {
  source: BodySource;
  /** id of the resource a PUT/PATCH targets: an `id` equal to it is tolerated in the body */
  targetId?: unknown;
}

/**
 * Validates a write body.
 * - POST: the given properties plus declared defaults for omitted ones; every req-post property
 *   must be given (441).
 * - PUT: a replacement: every req-post property PUT accepts must be given (441); every other
 *   property PUT may carry that is not given is reset to its declared default, else to null when
 *   nullable; a non-nullable property without a default keeps its stored value (the adapter
 *   leaves it out of the update), and immutable properties are never reset.
 * - PATCH: only the given properties.
 * @param body the body as http/params.ts reads it: a JSON object as sent, form fields nested from
 *   their bracket keys (`chain[id]=1` is `{chain: {id: "1"}}`)
 * @returns the values to store
 * @throws ServiceError parameter_invalid (419) for an unknown property, one not allowed for the
 *   method (ops), a read-only one, an immutable one on PUT/PATCH, or a value of the wrong type or
 *   format; string_parameter_too_long (482) for a string over its maximum;
 *   parameter_missing (441) when a req-post property is missing on POST or PUT
 */
export function validateWrite(decl: ResourceDeclaration, method: WriteMethod, body: Params, opts: WriteOptions): WriteValues {
  const given: Array<[PropertyInfo, ParamValue]> = [];
  // Permission-like checks first over the whole body, so a bad body never half-validates.
  for (const [key, value] of Object.entries(body)) {
    const prop = decl.properties.get(key);
    if (!prop) throw new ServiceError("parameter_invalid", `Unknown property ${key}.`);
    if (key === "id" && method !== "post" && opts.targetId !== undefined && sameId(value, opts.targetId)) continue;
    const refused = refusalOf(prop, method);
    if (refused) throw new ServiceError("parameter_invalid", refused);
    given.push([prop, value]);
  }

  const values: WriteValues = {};
  for (const [prop, raw] of given) values[prop.name] = validateValue(prop, opts.source === "form" ? fromForm(prop, raw) : raw);

  if (method === "post" || method === "put") {
    const missing = requiredProperties(decl, method).filter((p) => !(p.name in values));
    if (missing.length > 0) {
      throw new ServiceError("parameter_missing", `Missing required ${missing.map((p) => p.name).join(", ")}.`);
    }
    for (const prop of decl.properties.values()) {
      if (prop.name in values || !prop.writeOps.has(method) || (method === "put" && prop.immutable)) continue;
      if (prop.default !== undefined) values[prop.name] = prop.default;
      else if (method === "put" && prop.nullable) values[prop.name] = null;
    }
  }
  return values;
}

/**
 * Why `prop` may not be sent with `method`, or undefined when it may. The one rule of which
 * properties a write body accepts: validateWrite applies it and the schema document
 * (resources/schema-document.ts) lists request bodies from it, so the two cannot drift.
 */
export function refusalOf(prop: PropertyInfo, method: WriteMethod): string | undefined {
  if (prop.readOnly) return `${prop.name} is read-only.`;
  if (prop.immutable && method !== "post") return `${prop.name} cannot be changed.`;
  if (!prop.writeOps.has(method)) return `${prop.name} cannot be sent with ${method.toUpperCase()}.`;
  return undefined;
}

/** The properties a `method` body accepts (see refusalOf), in declaration order. */
export function writableProperties(decl: ResourceDeclaration, method: WriteMethod): PropertyInfo[] {
  return [...decl.properties.values()].filter((p) => refusalOf(p, method) === undefined);
}

/** The properties a `method` body must carry: the req-post ones it accepts, on POST and PUT (441 when missing). */
export function requiredProperties(decl: ResourceDeclaration, method: WriteMethod): PropertyInfo[] {
  if (method === "patch") return [];
  return writableProperties(decl, method).filter((p) => p.requiredOnPost);
}

/**
 * Validates one value with the property's zod schema.
 * @throws ServiceError string_parameter_too_long (482) when the only problem is a string over its
 *   maximum; parameter_invalid (419) otherwise
 */
export function validateValue(prop: PropertyInfo, value: unknown): unknown {
  if (value === undefined) throw new ServiceError("parameter_invalid", `${prop.name} has no value.`);
  const res = prop.schema.safeParse(value);
  if (res.success) {
    // A reference is stored by id only; extra keys of an echoed rendering are dropped.
    if (prop.kind === "reference" && res.data !== null) return { id: (res.data as { id: number }).id };
    return res.data;
  }
  const issues = res.error.issues;
  if (issues.every((i) => i.code === "too_big" && i.origin === "string")) {
    const max = (issues[0] as { maximum?: number | bigint }).maximum;
    throw new ServiceError("string_parameter_too_long", `${prop.name} is longer than ${String(max)} characters.`);
  }
  throw new ServiceError("parameter_invalid", `${prop.name}: ${issues[0]?.message ?? "invalid value"}.`);
}

/** Converts a form (text) value to the property's JSON type; an empty value means null. */
function fromForm(prop: PropertyInfo, raw: ParamValue): unknown {
  if (isObject(raw)) {
    return prop.kind === "reference" && typeof raw.id === "string" ? { ...raw, id: parseIntegerText(raw.id) ?? raw.id } : raw;
  }
  if (typeof raw !== "string") return raw;
  if (raw === "") return prop.nullable ? null : raw;
  // Text that is not of the type stays text, so the schema reports the wrong type.
  switch (prop.kind) {
    case "integer":
      return parseIntegerText(raw) ?? raw;
    case "number":
      return parseDecimalText(raw) ?? raw;
    case "boolean":
      return parseBooleanText(raw) ?? raw;
    default:
      return raw;
  }
}

function sameId(value: ParamValue, target: unknown): boolean {
  return value !== null && String(value) === String(target);
}

function isObject(v: unknown): v is Params {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
