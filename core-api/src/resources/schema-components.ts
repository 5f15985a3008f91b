/**
 * `components` of the Resources schema document (spec, "Resources API, generic paths": the schema
 * describes all properties, validation rules and vendor extensions; handbook, "One source of truth
 * for resources"). Everything here is derived from the shared declarations with zod 4's
 * `z.toJSONSchema`, whose output is JSON Schema draft 2020-12, the dialect of OpenAPI 3.1: the
 * `.meta()` of each field (the `x-service-*` keys, readOnly, description) comes out unchanged.
 */
import { ERRORS, errorBody, errorEnvelope, type ErrorName } from "@service/shared";
import type { PropertyInfo, ResourceDeclaration } from "@service/shared/resources/meta";
import { VENDOR } from "@service/shared/resources/meta";
import { z } from "zod";
import { typedSchema } from "./schema-typed.ts";
import { refusalOf, requiredProperties, writableProperties, type WriteMethod } from "./write.ts";

const WRITE_METHODS: WriteMethod[] = ["post", "put", "patch"];

export type JsonSchema = Record<string, unknown>;

/** `$ref` to a schema of `components.schemas`. */
export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** Component names per resource: the resource itself, its bodies and its responses. */
export const names = {
  resource: (d: ResourceDeclaration) => d.name,
  body: (d: ResourceDeclaration, m: WriteMethod) => `${d.name}.${m}`,
  one: (d: ResourceDeclaration) => `${d.name}.response`,
  list: (d: ResourceDeclaration) => `${d.name}.list`,
  result: "Result",
  error: "Error",
};

/**
 * A schema zod wrote, as the document carries it: without `$schema` (the document's dialect is
 * OpenAPI 3.1's own, draft 2020-12) and with a `type` on every schema (schema-typed.ts).
 */
export function withoutDialect(json: JsonSchema): JsonSchema {
  const { $schema: _dialect, ...rest } = json;
  return typedSchema(rest);
}

/**
 * One property as JSON Schema.
 * @param io "output" for responses (defaults are filled), "input" for request bodies (a property
 *   with a default may be left out)
 */
export function propertySchema(prop: PropertyInfo, io: "input" | "output"): JsonSchema {
  const json = withoutDialect(z.toJSONSchema(prop.schema, { io, unrepresentable: "any" }) as JsonSchema);
  // Undeclared ops are spelled out as the write methods that accept the property (meta.ts's
  // default rule minus read-only / immutable refusals), so a reader need not know the rule.
  if (json[VENDOR.operations] === undefined) json[VENDOR.operations] = WRITE_METHODS.filter((m) => refusalOf(prop, m) === undefined);
  return json;
}

/**
 * The resource as responses render it. Only `id` is required: every other property depends on
 * X-Service-Response-Recursion-Level (its `x-service-recursion-level`) and, for some, on the
 * request (business_distance_km with location search, token_secret after creation).
 */
export function resourceSchema(decl: ResourceDeclaration): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const prop of decl.properties.values()) properties[prop.name] = propertySchema(prop, "output");
  return {
    type: "object",
    title: decl.name,
    ...(decl.description ? { description: decl.description } : {}),
    properties,
    ...(decl.properties.has("id") ? { required: ["id"] } : {}),
    additionalProperties: false,
  };
}

/**
 * The body a write method accepts: exactly the properties validateWrite accepts for it (any other
 * is 419) and, as `required`, the ones whose absence is 441.
 */
export function bodySchema(decl: ResourceDeclaration, method: WriteMethod): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const prop of writableProperties(decl, method)) properties[prop.name] = propertySchema(prop, "input");
  const required = requiredProperties(decl, method).map((p) => p.name);
  return {
    type: "object",
    title: `${decl.name} (${method.toUpperCase()} body)`,
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

/** The success wrapper around `results`. */
export function successSchema(results: JsonSchema): JsonSchema {
  return {
    type: "object",
    properties: { result: ref(names.result), results },
    required: ["result", "results"],
  };
}

/** A list response: `results: {resources, limit, offset, total_count, result_type}`. */
export function listSchema(item: JsonSchema, resultType: string): JsonSchema {
  return successSchema({
    type: "object",
    properties: {
      resources: { type: "array", items: item },
      limit: { type: "integer", minimum: 1 },
      offset: { type: "integer", minimum: 0 },
      total_count: { type: "integer", minimum: 0 },
      result_type: { type: "string", const: resultType },
    },
    required: ["resources", "limit", "offset", "total_count", "result_type"],
  });
}

/** What to generate for one declaration. */
export interface ComponentEntry {
  decl: ResourceDeclaration;
  /** write methods with a body schema of their own */
  methods: WriteMethod[];
  /** whether it has a list response */
  list: boolean;
  /** whether it has a single-resource response */
  single: boolean;
}

/**
 * The `components.schemas` of every declaration in `decls`: the resource, its single and list
 * responses, and a body per write method in `methods` (the methods its adapter offers).
 */
export function resourceComponents(entries: readonly ComponentEntry[]): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {
    [names.result]: {
      type: "object",
      description: "Result wrapper of every success response.",
      properties: { code: { type: "integer", const: 1 }, status: { type: "string", const: "ok" } },
      required: ["code", "status"],
    },
    [names.error]: { ...withoutDialect(z.toJSONSchema(errorEnvelope) as JsonSchema), description: "Error body: the catalogue code and name." },
  };
  for (const { decl, methods, list, single } of entries) {
    out[names.resource(decl)] = resourceSchema(decl);
    if (single) out[names.one(decl)] = successSchema(ref(names.resource(decl)));
    if (list) out[names.list(decl)] = listSchema(ref(names.resource(decl)), decl.plural);
    for (const m of methods) out[names.body(decl, m)] = bodySchema(decl, m);
  }
  return out;
}

/**
 * The error responses of an operation: one per HTTP status of `errors` (catalogue names), each
 * listing its codes and carrying an example body per error.
 */
export function errorResponses(errors: readonly ErrorName[]): Record<string, JsonSchema> {
  const byStatus = new Map<number, ErrorName[]>();
  for (const name of new Set(errors)) byStatus.set(ERRORS[name].status, [...(byStatus.get(ERRORS[name].status) ?? []), name]);
  const out: Record<string, JsonSchema> = {};
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    out[String(status)] = {
      description: list.map((n) => `${ERRORS[n].code} ${n}`).join("; "),
      content: {
        "application/json": {
          schema: ref(names.error),
          examples: Object.fromEntries(list.map((n) => [n, { value: errorBody(n) }])),
        },
      },
    };
  }
  return out;
}
