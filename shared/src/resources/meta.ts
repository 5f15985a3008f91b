/**
 * Field metadata of the Resources API (spec, "Field-table notation"; handbook, "One source of
 * truth for resources").
 *
 * A resource is declared once as a zod object whose fields carry their spec metadata through zod
 * 4's `.meta()` (stored in `z.globalRegistry`), under the vendor keys the schema document uses, so
 * `z.toJSONSchema` emits them unchanged. The core API reads the same metadata back (through
 * `defineResource`) to validate writes, parse list parameters and render responses.
 *
 * @example
 *   const shop = defineResource({
 *     name: "shop", plural: "shops",
 *     fields: z.object({
 *       id: field(z.int(), { level: 0, readOnly: true, filter: true }),
 *       name: field(z.string().min(1).max(255), { level: 1, requiredOnPost: true }),
 *     }),
 *   });
 */
import { z } from "zod";

/** HTTP methods, lower case, as listed in a field's `ops` (spec, "Field-table notation"). */
export type Operation = "get" | "post" | "put" | "patch" | "delete";
/** Response detail level 0-4 (spec, "Common request headers": recursion level). */
export type RecursionLevel = 0 | 1 | 2 | 3 | 4;

export const RECURSION_LEVELS: readonly RecursionLevel[] = [0, 1, 2, 3, 4];

/** Vendor keys exactly as they appear in the schema document (handbook). */
export const VENDOR = {
  level: "x-service-recursion-level",
  filter: "x-service-filter-property",
  sort: "x-service-sort-by-property",
  identifier: "x-service-identifier",
  immutable: "x-service-immutable",
  fulltext: "x-service-fulltext-search",
  operations: "x-service-operations",
  /** req-post: the spec has no vendor name for it; the schema document also lists it under `required` of the POST body */
  requiredOnPost: "x-service-required-on-post",
  /** name of the resource a reference (an object with `id`) points to */
  reference: "x-service-reference",
} as const;

/** The metadata of one field as stored by `.meta()`. */
export interface FieldMeta {
  "x-service-recursion-level": RecursionLevel;
  "x-service-filter-property"?: true;
  "x-service-sort-by-property"?: true;
  "x-service-identifier"?: true;
  "x-service-immutable"?: true;
  "x-service-fulltext-search"?: true;
  "x-service-operations"?: Operation[];
  "x-service-required-on-post"?: true;
  "x-service-reference"?: string;
  readOnly?: true;
  /** JSON Schema's writeOnly: accepted in writes, never in a response (a secret) */
  writeOnly?: true;
  description?: string;
}

/** The readable form of a field's metadata, one line per field in a declaration. */
export interface FieldOptions {
  /** L: included in responses at this level and above */
  level: RecursionLevel;
  /** F */
  filter?: boolean;
  /** S */
  sort?: boolean;
  /** I */
  identifier?: boolean;
  /** Imm: cannot change after creation (PUT/PATCH refuse it) */
  immutable?: boolean;
  /** RO: never accepted in a write body */
  readOnly?: boolean;
  /** never rendered in a response, at any level (a secret kept for outbound calls); JSON Schema's writeOnly */
  writeOnly?: boolean;
  /** FT */
  fulltext?: boolean;
  /** req-post */
  requiredOnPost?: boolean;
  /** ops: methods that may carry the property; absent means post, put and patch for a writable property */
  ops?: readonly Operation[];
  /** the referenced resource's name, for a reference object such as `chain: {id}` */
  reference?: string;
  description?: string;
}

/**
 * Attaches spec metadata to a field schema (apply it last: zod wrappers such as `.nullable()`
 * create new schemas that do not carry earlier metadata).
 * @returns the same schema type, registered in `z.globalRegistry` with the vendor keys
 */
export function field<T extends z.ZodType>(schema: T, o: FieldOptions): T {
  const meta: FieldMeta = { [VENDOR.level]: o.level };
  if (o.filter) meta[VENDOR.filter] = true;
  if (o.sort) meta[VENDOR.sort] = true;
  if (o.identifier) meta[VENDOR.identifier] = true;
  if (o.immutable) meta[VENDOR.immutable] = true;
  if (o.fulltext) meta[VENDOR.fulltext] = true;
  if (o.requiredOnPost) meta[VENDOR.requiredOnPost] = true;
  if (o.ops) meta[VENDOR.operations] = [...o.ops];
  if (o.reference) meta[VENDOR.reference] = o.reference;
  if (o.readOnly) meta.readOnly = true;
  if (o.writeOnly) meta.writeOnly = true;
  if (o.description) meta.description = o.description;
  return schema.meta(meta as unknown as Record<string, unknown>) as T;
}

/**
 * A reference to another resource: an object with an integer `id` (spec: "on write, a reference
 * is given as an object with an id"). Other keys are accepted and ignored, so a client can send
 * back a reference exactly as it was rendered.
 */
export const reference = () => z.looseObject({ id: z.int() });

/** The JSON type of a field as the engine sees it. */
export type FieldKind = "string" | "integer" | "number" | "boolean" | "date-time" | "reference" | "array" | "object";

/** One field of a declaration with its metadata read back and its JSON shape summarised. */
export interface PropertyInfo {
  name: string;
  /** the field's zod schema, for validating one value */
  schema: z.ZodType;
  meta: FieldMeta;
  kind: FieldKind;
  nullable: boolean;
  /** declared default, when the schema has one */
  default?: unknown;
  level: RecursionLevel;
  readOnly: boolean;
  /** never rendered (FieldOptions.writeOnly) */
  writeOnly: boolean;
  immutable: boolean;
  filter: boolean;
  sort: boolean;
  identifier: boolean;
  fulltext: boolean;
  requiredOnPost: boolean;
  /** write methods that may carry the property (post/put/patch), after applying the default rule */
  writeOps: ReadonlySet<Operation>;
  reference?: string;
}

export interface ResourceDefinition<S extends z.ZodRawShape> {
  /** singular name, used in the path `/resources/{name}` */
  name: string;
  /** plural name: list path `/resources/{plural}` and list `result_type` */
  plural: string;
  fields: z.ZodObject<S>;
  /** whether the list supports location search (spec: Business only) */
  locationSearch?: boolean;
  /** properties left out of responses per audience (spec, "Resource-specific behaviour") */
  omitFor?: { end_user?: readonly (keyof S & string)[] };
  description?: string;
}

/**
 * A resource declaration with its fields' metadata read back once: what the engine, the storage
 * mapping and the schema document read. Every `defineResource` result is one, whatever its
 * fields, so code serving any resource takes this type without casts.
 */
export interface ResourceDeclaration {
  name: string;
  plural: string;
  /** the zod object of the fields (its exact type is kept by `DeclaredResource`) */
  fields: z.ZodType;
  locationSearch?: boolean;
  omitFor?: { end_user?: readonly string[] };
  description?: string;
  /** `/resources/{name}` */
  path: string;
  /** `/resources/{plural}` */
  pluralPath: string;
  properties: ReadonlyMap<string, PropertyInfo>;
  /** identifier properties: `id` plus every I property (spec, "Resources API, generic paths") */
  identifiers: readonly string[];
}

/** A declaration that keeps its fields' types, for `z.infer<typeof x.fields>` and `x.fields.shape`. */
export interface DeclaredResource<S extends z.ZodRawShape> extends ResourceDefinition<S>, ResourceDeclaration {
  fields: z.ZodObject<S>;
  omitFor?: { end_user?: readonly (keyof S & string)[] };
  description?: string;
}

/**
 * Declares a resource from its zod object; every field must carry `field(...)` metadata.
 * @throws Error at load time when a field has no metadata, or a write-only one is also read-only,
 *   a filter, a sort key or an identifier (programming errors, not request errors)
 */
export function defineResource<S extends z.ZodRawShape>(def: ResourceDefinition<S>): DeclaredResource<S> {
  const properties = new Map<string, PropertyInfo>();
  for (const [name, schema] of Object.entries(def.fields.shape) as [string, z.ZodType][]) {
    const prop = describeProperty(def.name, name, schema);
    // A secret cannot be read back, so it cannot be listed by, sorted by or named as an identifier either.
    if (prop.writeOnly && (prop.readOnly || prop.filter || prop.sort || prop.identifier || prop.fulltext)) {
      throw new Error(`${def.name}.${name}: a write-only field cannot be read-only, a filter, a sort key or an identifier`);
    }
    properties.set(name, prop);
  }
  const identifiers = [...properties.values()].filter((p) => p.name === "id" || p.identifier).map((p) => p.name);
  return {
    ...def,
    path: `/resources/${def.name}`,
    pluralPath: `/resources/${def.plural}`,
    properties,
    identifiers,
  };
}

/** Reads a field's metadata back and summarises its JSON shape (from `z.toJSONSchema`, zod's public view of it). */
export function describeProperty(resource: string, name: string, schema: z.ZodType): PropertyInfo {
  const meta = z.globalRegistry.get(schema) as FieldMeta | undefined;
  if (!meta || meta[VENDOR.level] === undefined) {
    throw new Error(`${resource}.${name}: declare the field with field(schema, {...})`);
  }
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  // zod writes a plain nullable primitive as `type: ["number", "null"]`, constrained ones as anyOf.
  const branches = json.anyOf ?? (Array.isArray(json.type) ? json.type.map((type) => ({ ...json, type })) : [json]);
  const nullable = branches.some((b) => b.type === "null");
  const main = branches.find((b) => b.type !== "null") ?? {};
  const readOnly = meta.readOnly === true;
  const ops = meta[VENDOR.operations];
  const writeOps = new Set<Operation>(
    readOnly ? [] : (ops ?? ["post", "put", "patch"]).filter((o) => o === "post" || o === "put" || o === "patch"),
  );
  return {
    name,
    schema,
    meta,
    kind: kindOf(main, meta),
    nullable,
    ...("default" in json ? { default: json.default } : {}),
    level: meta[VENDOR.level],
    readOnly,
    writeOnly: meta.writeOnly === true,
    immutable: meta[VENDOR.immutable] === true,
    filter: meta[VENDOR.filter] === true,
    sort: meta[VENDOR.sort] === true,
    identifier: meta[VENDOR.identifier] === true,
    fulltext: meta[VENDOR.fulltext] === true,
    requiredOnPost: meta[VENDOR.requiredOnPost] === true,
    writeOps,
    ...(meta[VENDOR.reference] ? { reference: meta[VENDOR.reference] } : {}),
  };
}

interface JsonSchema {
  type?: string | string[];
  format?: string;
  default?: unknown;
  anyOf?: JsonSchema[];
}

function kindOf(s: JsonSchema, meta: FieldMeta): FieldKind {
  // An array of references keeps kind "array"; its `reference` names the items' resource.
  if (meta[VENDOR.reference]) return s.type === "array" ? "array" : "reference";
  if (s.type === "string" && s.format === "date-time") return "date-time";
  if (s.type === "integer" || s.type === "number" || s.type === "boolean" || s.type === "array" || s.type === "object") {
    return s.type;
  }
  return "string";
}
