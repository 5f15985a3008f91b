/**
 * Declarations of the internal calls (spec, "Internal call: ..."; handbook, "admin login"): one
 * zod declaration per call holds its path and method, its parameters with their aliases,
 * defaults, limits and the spec error each refusal gets, the other errors it can answer, and its
 * `results`. The core API reads, coerces and validates every call's parameters from it
 * (core-api/src/http/coerce.ts) and its schema document describes the calls from it, as the
 * resource declarations do for the Resources API (resources/meta.ts).
 *
 * A parameter is a zod schema of its JSON type (the value a JSON body carries; form and query
 * text is read as that type by the one rule of `../text-values.ts`) carrying its metadata through
 * zod 4's `.meta()` under the vendor keys the schema document shows:
 * - `x-service-errors`: the error of each way the parameter can be refused: `missing` (a required
 *   parameter absent or empty), `type` (a value of another JSON type, or text that is not of the
 *   type), `length` (text too long, or too short), `format` (text of the wrong form, an empty
 *   value where the parameter cannot be cleared), `range` (a number outside its limits);
 * - `x-service-aliases`: other names accepted for the same value (the parameter's own name wins
 *   when both are sent; every name sent is validated).
 * A parameter is required when its schema is not optional (then it names its `missing` error);
 * `.default(v)` gives the value of an absent parameter; `.nullable()` lets an empty value clear
 * a field (an empty value of a number or boolean reads as absent).
 *
 * @example
 *   export const getCampaignCall = defineCall({
 *     name: "get-campaign", method: "GET", path: "/internal/get-campaign",
 *     summary: "One campaign",
 *     params: {
 *       campaign_id: param(z.int(), { missing: "campaign_id_not_present", invalid: "campaign_id_invalid" }),
 *     },
 *     errors: ["no_valid_session", "campaign_id_not_found"],
 *     results: getCampaignResultsSchema,
 *   });
 */
import { z } from "zod";
import type { ErrorName } from "../errors.ts";

/** HTTP method of an internal call. */
export type CallMethod = "GET" | "POST" | "PUT" | "DELETE";

/** The ways a parameter can be refused, each with its own spec error. */
export type Refusal = "missing" | "type" | "length" | "format" | "range";

/** The JSON type of a parameter as the reader sees it; text is read as integer, number or boolean. */
export type ParamKind = "string" | "integer" | "number" | "boolean" | "object";

/** Vendor keys of parameter metadata, as they appear in the schema document. */
export const CALL_VENDOR = {
  errors: "x-service-errors",
  aliases: "x-service-aliases",
} as const;

/** The readable form of a parameter's metadata, one line per parameter in a declaration. */
export interface ParamOptions {
  /** error of every refusal not named below */
  invalid: ErrorName;
  /** the parameter is required: absent or empty is refused with this error */
  missing?: ErrorName;
  /** text too long (or too short); default `invalid` */
  length?: ErrorName;
  /** text of the wrong form; default `invalid` */
  format?: ErrorName;
  /** number out of its limits; default `invalid` */
  range?: ErrorName;
  aliases?: readonly string[];
  description?: string;
}

/** Parameter metadata as stored by `.meta()`. */
export interface ParamMeta {
  "x-service-errors": Partial<Record<Refusal, ErrorName>>;
  "x-service-aliases"?: string[];
  description?: string;
}

/** Which refusals a value of each kind can meet. */
const REFUSALS: Record<ParamKind, Refusal[]> = {
  string: ["type", "length", "format"],
  integer: ["type", "range"],
  number: ["type", "range"],
  boolean: ["type"],
  object: ["type", "length", "format"],
};

/**
 * Attaches a parameter's metadata to its schema. Apply it to the non-optional schema and make
 * an optional parameter optional afterwards: `param(z.int(), {...}).optional()`.
 * @returns the same schema, registered in `z.globalRegistry` with the vendor keys
 */
export function param<T extends z.ZodType>(schema: T, o: ParamOptions): T {
  const { kind } = jsonShape(schema);
  const errors: Partial<Record<Refusal, ErrorName>> = {};
  if (o.missing) errors.missing = o.missing;
  for (const refusal of REFUSALS[kind]) errors[refusal] = refusal === "type" ? o.invalid : (o[refusal] ?? o.invalid);
  const meta: ParamMeta = { [CALL_VENDOR.errors]: errors };
  if (o.aliases && o.aliases.length > 0) meta[CALL_VENDOR.aliases] = [...o.aliases];
  if (o.description) meta.description = o.description;
  return schema.meta(meta as unknown as Record<string, unknown>) as T;
}

/** One parameter of a declaration with its metadata read back. */
export interface CallParam {
  name: string;
  /** the schema as declared (optional or with a default where the parameter may be absent) */
  schema: z.ZodType;
  kind: ParamKind;
  /** an empty value clears the field (null) */
  nullable: boolean;
  required: boolean;
  aliases: readonly string[];
  /** the error of each refusal this parameter can meet */
  errors: Readonly<Partial<Record<Refusal, ErrorName>>> & { readonly type: ErrorName };
  description?: string;
}

export interface CallDefinition<S extends z.ZodRawShape, R extends z.ZodType> {
  /** the call's name, also `result_type` of its results */
  name: string;
  method: CallMethod;
  /** `/internal/{name}` or `/auth/{name}` */
  path: string;
  summary: string;
  description?: string;
  /** the parameters in the order they are checked */
  params: S;
  /** errors the call answers besides its parameters' own (session, access, conflicts) */
  errors: readonly ErrorName[];
  /** the `results` of a success */
  results: R;
  /**
   * an example request (JSON body or query) and its `results`, shown in the schema document and
   * /docs; a request example holds only declared parameters (linters check it against them)
   */
  examples?: { request?: Record<string, unknown>; results?: z.input<R> };
  /**
   * the schema document's component (a resource's write body, for example `chain.patch`) whose
   * properties the call also takes besides `params`: the document lists them in the call's body,
   * so a request example may hold them too
   */
  bodyAlso?: string;
}

/** An internal call with its parameters' metadata read back once. */
export interface CallDeclaration<S extends z.ZodRawShape = z.ZodRawShape, R extends z.ZodType = z.ZodType> extends Omit<CallDefinition<S, R>, "params"> {
  /** every parameter as one object (what a client may send as JSON) */
  params: z.ZodObject<S>;
  /** the parameters in the order they are checked */
  parameters: ReadonlyMap<string, CallParam>;
}

/** The parameters a call reads, as the reader returns them. */
export type CallValues<C extends CallDeclaration> = z.output<C["params"]>;

/**
 * Declares an internal call; every parameter must carry `param(...)` metadata.
 * @throws Error at load time for a parameter without metadata, a required parameter without a
 *   `missing` error, or an alias that is another parameter's name (programming errors)
 */
export function defineCall<S extends z.ZodRawShape, R extends z.ZodType>(def: CallDefinition<S, R>): CallDeclaration<S, R> {
  const parameters = new Map<string, CallParam>();
  for (const [name, schema] of Object.entries(def.params) as [string, z.ZodType][]) {
    parameters.set(name, describeParam(def.name, name, schema));
  }
  for (const p of parameters.values()) {
    for (const alias of p.aliases) if (parameters.has(alias)) throw new Error(`${def.name}.${p.name}: alias ${alias} is a parameter itself`);
  }
  return { ...def, params: z.object(def.params), parameters };
}

function describeParam(call: string, name: string, schema: z.ZodType): CallParam {
  const inner = schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
  const meta = z.globalRegistry.get(inner) as ParamMeta | undefined;
  const errors = meta?.[CALL_VENDOR.errors];
  if (!meta || !errors?.type) throw new Error(`${call}.${name}: declare the parameter with param(schema, {...})`);
  const required = !schema.safeParse(undefined).success;
  if (required && !errors.missing) throw new Error(`${call}.${name}: a required parameter names its missing error`);
  const { kind, nullable } = jsonShape(inner);
  return {
    name,
    schema,
    kind,
    nullable,
    required,
    aliases: meta[CALL_VENDOR.aliases] ?? [],
    errors: errors as CallParam["errors"],
    ...(meta.description ? { description: meta.description } : {}),
  };
}

interface JsonSchema {
  type?: string | string[];
  anyOf?: JsonSchema[];
}

/** The JSON type of a schema (zod's public view of it) and whether it takes null. */
function jsonShape(schema: z.ZodType): { kind: ParamKind; nullable: boolean } {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  // zod writes a nullable primitive as `type: [t, "null"]` and other unions as (nested) anyOf.
  const flat = (s: JsonSchema): JsonSchema[] =>
    s.anyOf ? s.anyOf.flatMap(flat) : Array.isArray(s.type) ? s.type.map((type) => ({ type })) : [s];
  const branches = flat(json);
  const nullable = branches.some((b) => b.type === "null");
  const types = branches.map((b) => b.type).filter((t) => t !== "null");
  // A union of text and an object (opening_times) is read as text when text is sent.
  const kind: ParamKind = types.includes("string")
    ? "string"
    : types.length === 1 && (types[0] === "integer" || types[0] === "number" || types[0] === "boolean" || types[0] === "object")
      ? types[0]
      : "object";
  return { kind, nullable };
}
