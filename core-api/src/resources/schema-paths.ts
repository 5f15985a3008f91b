/**
 * `paths` of the Resources schema document: every path and method the service serves, derived
 * from the same adapters, declarations and rules the engine uses (write.ts for bodies,
 * list-params.ts for list parameters, the access table for `security`), so the document cannot
 * promise what the engine refuses.
 */
import type { ErrorName } from "@service/shared";
import type { PropertyInfo, ResourceDeclaration } from "@service/shared/resources/meta";
import { resourceRule, type AccessRule, type EngineOperation } from "../auth/access-table.ts";
import type { ResourceAdapter } from "./engine.ts";
import { DEFAULT_LIMIT, DEFAULT_RADIUS_KM, filterParameters, fulltextProperties, LOCATION_KEYS, MAX_LIMIT, MAX_RADIUS_KM, sortKeys } from "./list-params.ts";
import { DEFAULT_RECURSION_LEVEL } from "./render.ts";
import { errorResponses, names, propertySchema, ref, type JsonSchema } from "./schema-components.ts";
import { accessSentence, operationSecurity } from "./schema-security.ts";
import type { WriteMethod } from "./write.ts";

type Operation = JsonSchema;
type PathItem = Partial<Record<"get" | "post" | "put" | "patch" | "delete", Operation>>;

/** The header parameters of every Resources request, as `components.parameters`. */
export const HEADER_PARAMETERS: Record<string, JsonSchema> = {
  ChainId: {
    name: "X-Service-Chain-ID", in: "header", required: true,
    description: "Chain the request applies to.",
    schema: { type: "integer", minimum: 1, maximum: 2_147_483_647 },
  },
  ApiVersion: {
    name: "X-Service-API-version", in: "header", required: false,
    description: "API version `major.minor.patch`; the newest (1.6.8) when absent. Datetimes are RFC 3339 UTC from 1.6.8.",
    schema: { type: "string", pattern: "^\\d{1,4}\\.\\d{1,4}\\.\\d{1,4}$" },
  },
  RecursionLevel: {
    name: "X-Service-Response-Recursion-Level", in: "header", required: false,
    description: "Detail level of the response: a property is included when its x-service-recursion-level is at most this.",
    schema: { type: "integer", minimum: 0, maximum: 4, default: DEFAULT_RECURSION_LEVEL },
  },
};
const HEADERS = Object.keys(HEADER_PARAMETERS).map((k) => ({ $ref: `#/components/parameters/${k}` }));

/**
 * Responses of an operation: 200 with `success`, and one response per HTTP status of `errors`
 * (catalogue codes), each listing its codes and carrying an example body per error.
 */
function responses(success: JsonSchema, errors: ErrorName[], extra: Record<string, JsonSchema> = {}): JsonSchema {
  const out: Record<string, JsonSchema> = { "200": { description: "Success.", content: { "application/json": { schema: success } } } };
  return { ...out, ...errorResponses(errors), ...extra };
}

/** Errors every authenticated Resources request can give (credentials, headers, access). */
const COMMON_ERRORS: ErrorName[] = ["parameter_invalid", "no_valid_session", "access_token_invalid", "resource_not_found"];
const TOO_LARGE = {
  "413": { description: "419 parameter_invalid: the body is larger than 1 MiB.", content: { "application/json": { schema: ref(names.error) } } },
};

/** What an operation is: its id, tag, summary (the sidebar's title, unique within its tag) and description. */
interface OperationText {
  id: string;
  tag: string;
  summary: string;
  /** what it does; the sentence on who may call it is added from its access rule */
  does: string;
}

/**
 * One operation with the header parameters, the common errors, and `security`,
 * `x-service-access-level` and a description from its row of the access table.
 */
function operation(text: OperationText, rule: AccessRule, parameters: JsonSchema[], success: JsonSchema, errors: ErrorName[], more: JsonSchema = {}): Operation {
  const writes = "requestBody" in more;
  return {
    operationId: text.id, tags: [text.tag], summary: text.summary,
    description: `${text.does} ${accessSentence(rule)}`,
    parameters: [...HEADERS, ...parameters],
    ...operationSecurity(rule),
    ...more,
    responses: responses(success, [...COMMON_ERRORS, ...errors], writes ? TOO_LARGE : {}),
  };
}

/**
 * The row of the access table that governs operation `op` on `resource`.
 * @throws Error when the operation is served but has no row (it would be refused to everyone)
 */
function access(resource: string, op: EngineOperation): AccessRule {
  const rule = resourceRule(resource, op);
  if (!rule) throw new Error(`schema: ${resource} ${op} is served but the access table has no row for it`);
  return rule;
}

function body(decl: ResourceDeclaration, method: WriteMethod): JsonSchema {
  const schema = ref(names.body(decl, method));
  return {
    required: true,
    description: "JSON, or form fields (a reference as `name[id]`). Any property not listed is refused with 419 parameter_invalid.",
    content: { "application/json": { schema }, "application/x-www-form-urlencoded": { schema } },
  };
}

/** A query/path parameter holding one value of `prop` (an identifier). */
function valueParameter(prop: PropertyInfo, location: "query" | "path", description: string): JsonSchema {
  const { type, format, pattern } = propertySchema(prop, "input");
  const schema = Object.fromEntries(Object.entries({ type, format, pattern }).filter(([, v]) => v !== undefined));
  return { name: prop.name, in: location, required: location === "path", description, schema };
}

/** "a" or "an" before a resource name (`an access_token`, `a business`). */
const article = (name: string) => (/^[aeiou]/i.test(name) ? `an ${name}` : `a ${name}`);

/**
 * The texts of an adapter's operations, from its declaration: one per operation and per way of
 * naming the target (an identifier as a query parameter, or the id in the path), so every
 * summary is unique within the resource's tag.
 */
function adapterTexts(adapter: ResourceAdapter) {
  const { name, plural } = adapter.declaration;
  const ids = adapter.declaration.identifiers.join(", ");
  const byQuery = `named by exactly one identifier (${ids}) as a query parameter${adapter.impliedTarget ? ", or the one the request implies when none is given" : ""}`;
  const byPath = "with the id in the path";
  const put = adapter.putIsPatch
    ? { verb: "Update", does: "Changes the properties sent (the others keep their values) of the" }
    : { verb: "Replace", does: "Replaces the writable properties (one left out is reset to its default, or to null when it may be null) of the" };
  const text = (id: string, summary: string, does: string): OperationText => ({ id, tag: name, summary, does });
  const patch = "Changes only the properties sent of the";
  return {
    get: text(`get_${name}`, `Get ${article(name)} by identifier`, `Returns the ${name} ${byQuery}.`),
    getById: text(`get_${name}_by_id`, `Get ${article(name)} by id`, `Returns the ${name} ${byPath}.`),
    post: text(`post_${name}`, `Create ${article(name)}`, `Creates ${article(name)} from the body (the ${name}.post schema: its required properties must be sent, any other property is refused) and returns it.`),
    put: text(`put_${name}`, `${put.verb} ${article(name)} by identifier`, `${put.does} ${name} ${byQuery}, and returns it.`),
    putById: text(`put_${name}_by_id`, `${put.verb} ${article(name)} by id`, `${put.does} ${name} ${byPath}, and returns it.`),
    patch: text(`patch_${name}`, `Update ${article(name)} by identifier (PATCH)`, `${patch} ${name} ${byQuery}, and returns it.`),
    patchById: text(`patch_${name}_by_id`, `Update ${article(name)} by id (PATCH)`, `${patch} ${name} ${byPath}, and returns it.`),
    remove: text(`delete_${name}`, `Delete ${article(name)} by identifier`, `Deletes the ${name} ${byQuery}, and returns it as it was.`),
    removeById: text(`delete_${name}_by_id`, `Delete ${article(name)} by id`, `Deletes the ${name} ${byPath}, and returns it as it was.`),
    list: text(`list_${plural}`, `List ${plural}`, `Lists the chain's ${plural}, a page at a time (limit, offset), sorted, searched and filtered by the query parameters below.`),
  };
}

/**
 * The path items of one adapter: `/resources/{name}` (GET by identifier, POST, PUT, PATCH,
 * DELETE by identifier), `/resources/{name}/{id}` and `/resources/{plural}`, each method only
 * where the adapter offers it.
 */
export function adapterPaths(adapter: ResourceAdapter): Record<string, PathItem> {
  const decl = adapter.declaration;
  const text = adapterTexts(adapter);
  const one = ref(names.one(decl));
  const idProp = decl.properties.get("id");
  const identifiers = decl.identifiers.map((n) => decl.properties.get(n)!);
  const byQuery = identifiers.map((p) =>
    valueParameter(p, "query", `Names the ${decl.name} by ${p.name}; give exactly one identifier${adapter.impliedTarget ? " (or none for the one the request implies)" : ""}.`),
  );
  const byPath = idProp ? [valueParameter(idProp, "path", `id of the ${decl.name}`)] : [];
  const missing: ErrorName[] = adapter.impliedTarget ? [] : ["parameter_missing"];
  const putRule: WriteMethod = adapter.putIsPatch ? "patch" : "put";
  const putErrors: ErrorName[] = putRule === "put" ? ["parameter_missing", "string_parameter_too_long"] : ["string_parameter_too_long"];

  const may = (op: EngineOperation) => access(decl.name, op);
  const single: PathItem = { get: operation(text.get, may("get"), byQuery, one, missing) };
  const withId: PathItem = { get: operation(text.getById, may("get"), byPath, one, []) };
  if (adapter.create) {
    single.post = operation(text.post, may("create"), [], one, ["parameter_missing", "string_parameter_too_long"], { requestBody: body(decl, "post") });
  }
  if (adapter.update) {
    const update = may("update");
    single.put = operation(text.put, update, byQuery, one, [...missing, ...putErrors], { requestBody: body(decl, putRule) });
    single.patch = operation(text.patch, update, byQuery, one, [...missing, "string_parameter_too_long"], { requestBody: body(decl, "patch") });
    withId.put = operation(text.putById, update, byPath, one, putErrors, { requestBody: body(decl, putRule) });
    withId.patch = operation(text.patchById, update, byPath, one, ["string_parameter_too_long"], { requestBody: body(decl, "patch") });
  }
  if (adapter.remove) {
    single.delete = operation(text.remove, may("delete"), byQuery, one, missing);
    withId.delete = operation(text.removeById, may("delete"), byPath, one, []);
  }
  const paths: Record<string, PathItem> = { [decl.path]: single };
  if (idProp) paths[`${decl.path}/{id}`] = withId;
  if (adapter.list) paths[decl.pluralPath] = { get: operation(text.list, may("list"), listParameters(decl), ref(names.list(decl)), []) };
  return paths;
}

/**
 * The query parameters of a list, as parseListParams accepts them: paging, sort_by (the S
 * properties), sort_order, match_all, text search (FT), location search (when the declaration
 * has it), and an equality filter per F property. A filter carries `x-service-filter-property`.
 */
export function listParameters(decl: ResourceDeclaration): JsonSchema[] {
  const q = (name: string, schema: JsonSchema, description: string, more: JsonSchema = {}) => ({ name, in: "query", required: false, description, schema, ...more });
  const params: JsonSchema[] = [
    q("limit", { type: "integer", minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT }, "Maximum number of results."),
    q("offset", { type: "integer", minimum: 0, default: 0 }, "Results to skip."),
  ];
  const sortable = sortKeys(decl);
  if (sortable.length > 0) params.push(q("sort_by", { type: "string", enum: sortable }, "Property to sort by (an x-service-sort-by-property)."));
  params.push(q("sort_order", { type: "string", enum: ["asc", "desc"], default: "asc" }, "Sort direction."));
  const fulltext = fulltextProperties(decl);
  params.push(q("match_all", { type: "boolean", default: false }, "With several search terms: true requires all of them, false any."));
  if (fulltext.length > 0) {
    for (const key of [...fulltext, "*"]) {
      params.push(q(`search[${key}]`, { type: "string" }, `Text search on ${key === "*" ? `every x-service-fulltext-search property (${fulltext.join(", ")})` : key}; one search key per request.`));
    }
  }
  if (decl.locationSearch) {
    const ranges: Record<keyof typeof LOCATION_KEYS, JsonSchema> = {
      latitude: { type: "number", minimum: -90, maximum: 90 },
      longitude: { type: "number", minimum: -180, maximum: 180 },
      radius: { type: "number", exclusiveMinimum: 0, maximum: MAX_RADIUS_KM, default: DEFAULT_RADIUS_KM },
    };
    for (const [which, [name, legacy]] of Object.entries(LOCATION_KEYS) as Array<[keyof typeof LOCATION_KEYS, readonly [string, string]]>) {
      const what = which === "radius" ? "Radius in km of the location search" : `Location search point: ${which} (both are required with location search)`;
      params.push(q(name, ranges[which], `${what}; results are ordered nearest first.`));
      params.push(q(legacy, ranges[which], `Legacy alias of ${name}.`, { deprecated: true }));
    }
  }
  for (const f of filterParameters(decl)) {
    params.push(q(f.name, filterSchema(f.prop), `Equality filter on ${f.prop.name}${f.name.endsWith("[id]") ? " (by id)" : ""}.`, { "x-service-filter-property": true }));
  }
  return params;
}

/** A filter's value as the list parser reads it (list-params.ts `filterValue`). */
function filterSchema(prop: PropertyInfo): JsonSchema {
  switch (prop.kind) {
    case "integer":
    case "reference":
      return { type: "integer" };
    case "number":
      return { type: "number" };
    case "boolean":
      return { type: "boolean" };
    default: {
      // Keep the value set of an enum (a voucher's status) and a format: filters compare values.
      const main = mainBranch(propertySchema(prop, "input"));
      return Object.fromEntries(Object.entries({ type: "string", enum: main.enum, format: main.format }).filter(([, v]) => v !== undefined));
    }
  }
}

/** The non-null part of a nullable property schema (`anyOf [x, null]`, or `type: [x, "null"]` with null in its enum). */
function mainBranch(s: JsonSchema): JsonSchema {
  const anyOf = s.anyOf as JsonSchema[] | undefined;
  if (anyOf) return anyOf.find((b) => b.type !== "null") ?? {};
  if (!Array.isArray(s.type)) return s;
  const values = s.enum as unknown[] | undefined;
  return { ...s, type: (s.type as string[]).find((t) => t !== "null"), ...(values ? { enum: values.filter((v) => v !== null) } : {}) };
}

/**
 * A route registered outside the adapters (for example the campaign change log): a list of
 * `decl` when it has one (`GET /resources/campaign/{id}/change_log`), else a bare GET.
 * @param path OpenAPI template, for example `/resources/campaign/{id}/change_log`
 * @param resource its row of the access table (CHANGE_LOG_RESOURCE for the change log)
 */
export function extraPath(path: string, decl: ResourceDeclaration | undefined, resource: string): PathItem {
  const tag = path.split("/")[2] ?? "resources";
  const pathParams = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => ({ name: m[1], in: "path", required: true, schema: { type: "integer" } }));
  const id = path.replace(/[^a-z0-9]+/gi, "_").replace(/^_|_$/g, "");
  const rule = access(resource, "get");
  if (!decl) return { get: operation({ id: `get_${id}`, tag, summary: `GET ${path}`, does: `Answers GET ${path}.` }, rule, pathParams, { type: "object" }, []) };
  // The change log parses its query with the list rules of its entry declaration.
  const params = listParameters(decl).filter((p) => ["limit", "offset", "sort_by", "sort_order"].includes(p.name as string));
  const sortOrder = params.find((p) => p.name === "sort_order");
  if (sortOrder) sortOrder.schema = { type: "string", enum: ["asc", "desc"], default: "desc" };
  const text: OperationText = {
    id: `get_${id}`, tag, summary: `List the ${decl.plural} of one ${tag}`,
    does: `Lists the ${decl.plural} of the ${tag} with the id in the path${decl.description ? ` (${decl.description})` : ""}, a page at a time.`,
  };
  return { get: operation(text, rule, [...pathParams, ...params], ref(names.list(decl)), []) };
}
