/**
 * Every schema of the document names its `type`: zod 4 writes a nullable field as
 * `anyOf: [{type: "string", maxLength: 255}, {type: "null"}]`, a schema without `type` of its
 * own. That is valid JSON Schema, but the docs page's reader (Scalar) requires a `type` (or a
 * reference) on every schema it reaches through two references, and logs each one as a
 * validation error. This rewrites a schema into the same constraint with a type:
 * - `anyOf` branches that are themselves a bare `anyOf` are flattened into it;
 * - a value-or-null (`anyOf: [X, {type: "null"}]`, X of one type and no composition) becomes X
 *   with `type: [X's type, "null"]` (an `enum` or `const` of X also admits null): X's keywords
 *   only apply to values of X's type, so null passes exactly as before;
 * - branches of distinct single types whose keywords do not overlap (and apply to their own
 *   type only: no enum, const, description, ...) become one schema: `type` lists the types and
 *   each keyword keeps constraining only values of its type (`minimum` numbers, `items`
 *   arrays, `properties` objects);
 * - any other `anyOf` gets `type`: the types of its branches (a bound the branches already
 *   imply).
 * - `additionalProperties: {}` (the empty schema: anything) is left out, which
 *   means the same.
 * Subschemas (properties, items, additionalProperties, branches, ...) are rewritten too.
 */
/** A JSON Schema object (schema-components.ts names the same type; no import, to keep the two apart). */
type JsonSchema = Record<string, unknown>;

/** Keywords whose value is one subschema. */
const ONE = ["items", "additionalProperties", "not", "contains", "propertyNames", "contentSchema"];
/** Keywords whose value is a list of subschemas. */
const LIST = ["anyOf", "oneOf", "allOf", "prefixItems"];
/** Keywords whose value maps names to subschemas. */
const MAP = ["properties", "patternProperties", "$defs"];
const COMPOSITION = ["anyOf", "oneOf", "allOf", "$ref"];

const isSchema = (v: unknown): v is JsonSchema => typeof v === "object" && v !== null && !Array.isArray(v);

/** `schema` rewritten so that it, and every subschema, has a type (see the module comment). */
export function typedSchema(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...schema };
  if (isSchema(out.additionalProperties) && Object.keys(out.additionalProperties).length === 0) delete out.additionalProperties;
  for (const k of ONE) if (isSchema(out[k])) out[k] = typedSchema(out[k]);
  for (const k of LIST) if (Array.isArray(out[k])) out[k] = (out[k] as unknown[]).map((s) => (isSchema(s) ? typedSchema(s) : s));
  for (const k of MAP) {
    if (isSchema(out[k])) out[k] = Object.fromEntries(Object.entries(out[k]).map(([n, s]) => [n, isSchema(s) ? typedSchema(s) : s]));
  }
  if (!Array.isArray(out.anyOf) || out.type !== undefined) return out;
  const branches = (out.anyOf as JsonSchema[]).flatMap((b) => (isBareAnyOf(b) ? (b.anyOf as JsonSchema[]) : [b]));
  const { anyOf: _branches, ...rest } = out;
  const value = nullableValue(branches) ?? mergedBranches(branches);
  if (value) return { ...value, ...rest };
  const types = branches.flatMap((b) => (Array.isArray(b.type) ? b.type : [b.type]));
  if (types.some((t) => typeof t !== "string")) return { ...rest, anyOf: branches };
  return { ...rest, type: [...new Set(types)], anyOf: branches };
}

/** A branch that is nothing but an `anyOf` (its branches can join the outer list). */
function isBareAnyOf(b: JsonSchema): boolean {
  return Array.isArray(b.anyOf) && Object.keys(b).every((k) => k === "anyOf" || k === "type");
}

/** `[X, {type: "null"}]` (either order) as X admitting null, or undefined for any other list. */
function nullableValue(branches: JsonSchema[]): JsonSchema | undefined {
  if (branches.length !== 2) return undefined;
  const nulls = branches.filter((b) => b.type === "null" && Object.keys(b).length === 1);
  const value = branches.find((b) => !nulls.includes(b));
  if (nulls.length !== 1 || !value || (typeof value.type !== "string" && !Array.isArray(value.type))) return undefined;
  if (COMPOSITION.some((k) => k in value)) return undefined;
  const { const: constant, enum: values, ...rest } = value;
  return {
    ...rest,
    type: [...(Array.isArray(value.type) ? value.type : [value.type]), "null"],
    ...(values !== undefined ? { enum: [...(values as unknown[]), null] } : {}),
    ...(constant !== undefined ? { enum: [constant, null] } : {}),
  };
}

/** Keywords that constrain values of any type (or only annotate), so a branch holding one cannot be merged. */
const ANY_TYPE = ["enum", "const", "default", "description", "title", "examples", "format", "not", "if", "then", "else", ...COMPOSITION];

/** Branches of distinct single types and disjoint, type-specific keywords as one schema; else undefined. */
function mergedBranches(branches: JsonSchema[]): JsonSchema | undefined {
  const types = branches.map((b) => b.type);
  if (types.some((t) => typeof t !== "string") || new Set(types).size !== types.length) return undefined;
  // integer is a kind of number: their keywords (minimum, ...) would constrain both.
  if (types.includes("integer") && types.includes("number")) return undefined;
  const merged: JsonSchema = { type: types };
  for (const { type: _type, ...keywords } of branches) {
    for (const [k, v] of Object.entries(keywords)) {
      if (ANY_TYPE.includes(k) || k.startsWith("x-") || k in merged) return undefined;
      merged[k] = v;
    }
  }
  return merged;
}
