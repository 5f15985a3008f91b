/**
 * The generic Resources API engine (spec, "Resources API, generic paths", "List parameters";
 * handbook, "One source of truth for resources"): GET one / list, POST, PUT, PATCH, DELETE driven
 * by a resource's shared declaration, with a per-resource adapter for storage.
 *
 * Order of checks (nothing is written unless all pass; the first failure answers):
 * 1. credentials at all (6 / 266), and the access table's row for the caller's kind
 *    (auth/access-table.ts): a kind the row does not list gets 544 before anything else is read;
 * 2. the chain header (419), then, in one query, the credentials and the row's access level on
 *    that chain (544 when missing; resources/request-scope.ts);
 * 3. per method:
 *    - GET one / DELETE: the identifier (path id or one `?{identifier}=`; 544 / 419 / 441), then
 *      the target (544);
 *    - GET list: the list parameters (419), then the page;
 *    - POST: no query parameters (419), the body parsed (419) and validated (419 / 441 / 482), the
 *      chain reference; then the adapter's own rules;
 *    - PUT / PATCH: the identifier, the body parsed (419), the target read (544), then the body
 *      validated against it (419 / 441 / 482; an `id` equal to the target's is tolerated), then the
 *      adapter's own rules. PUT on an adapter with `putIsPatch` is validated as PATCH.
 */
import { okBody } from "@service/shared";
import { RESOURCES, type ResourceDeclaration } from "@service/shared/resources/resource-registry";
import { parseIntegerText } from "@service/shared/text-values";
import type { Context } from "hono";
import { bodyParams, queryParams, type Params } from "../http/params.ts";
import type { AppEnv } from "../auth/request-context.ts";
import { ServiceError } from "../http/service-error.ts";
import { parseListParams, type ListQuery } from "./list-params.ts";
import { parseRecursionLevel, renderResource, type ResourceRecord } from "./render.ts";
import { resolveScope, type EngineOperation, type ResourceScope, type ScopeRequest } from "./request-scope.ts";
import { validateWrite, type BodySource, type WriteMethod, type WriteValues } from "./write.ts";
import { jsonResponse } from "../http/json-response.ts";
import { requestHeader } from "../http/request-headers.ts";

/** A single-resource target: an identifier property and its value. */
export interface Identifier {
  property: string;
  value: string | number;
}

/**
 * Storage of one resource. A missing method means the operation is not offered (544).
 * Every method is confined to `scope.chainId`; records follow `ResourceRecord`.
 */
export interface ResourceAdapter {
  /** the resource; who may do what on it is its row of the access table (auth/access-table.ts) */
  declaration: ResourceDeclaration;
  /** the live resource named by `by` in the scope's chain, or null */
  findOne(scope: ResourceScope, by: Identifier): Promise<ResourceRecord | null>;
  /** one page of the list, with the total over all pages */
  list?(scope: ResourceScope, query: ListQuery): Promise<{ records: ResourceRecord[]; total: number }>;
  create?(scope: ResourceScope, values: WriteValues): Promise<ResourceRecord>;
  /**
   * applies `values` (already validated for PUT or PATCH) to `target`, the record findOne read in
   * this request; returns the resource as stored afterwards, or null when it vanished meanwhile
   */
  update?(scope: ResourceScope, target: ResourceRecord, values: WriteValues): Promise<ResourceRecord | null>;
  /** deletes `target`; returns the resource as it is after deletion, or null when it vanished meanwhile */
  remove?(scope: ResourceScope, target: ResourceRecord): Promise<ResourceRecord | null>;
  /**
   * The target of a single-resource request that names none (no path id, no query): for a
   * singular resource identified by the request itself (Chain: X-Service-Chain-ID). Without it
   * such a request is parameter_missing (441).
   */
  impliedTarget?(scope: ResourceScope): Identifier;
  /** PUT changes only the properties sent, like PATCH, instead of replacing (Chain: a settings resource) */
  putIsPatch?: boolean;
  /**
   * Properties the creation answer carries whatever the recursion level, when the created record
   * holds them (AccessToken: `token_secret`, shown only then, so it must not be lost to level 0).
   */
  alwaysOnCreate?: readonly string[];
}

/**
 * Serves `/resources/{resource}` (pathId undefined) and `/resources/{resource}/{id}`.
 * GET: one by id or by `?{identifier}=value`; POST (no id): create; PUT/PATCH: replace/update;
 * DELETE: soft delete, responding with the deleted resource at the requested level.
 * @throws ServiceError resource_not_found (544) for a method the resource does not offer
 */
export async function serveSingular(c: Context<AppEnv>, adapter: ResourceAdapter, pathId?: string): Promise<Response> {
  const method = c.req.method.toUpperCase();
  if (method === "GET") return getOne(c, adapter, pathId);
  if (method === "POST" && pathId === undefined && adapter.create) {
    const scope = await scopeFor(c, adapter, "create");
    rejectQuery(queryParams(c));
    const { body, source } = await readBody(c);
    const values = validateWrite(adapter.declaration, "post", body, { source });
    requireScopeChain(adapter.declaration, scope, values);
    const created = await adapter.create(scope, values);
    const rendered = render(adapter, scope, created);
    for (const name of adapter.alwaysOnCreate ?? []) if (created[name] !== undefined) rendered[name] = created[name];
    return jsonResponse(c, okBody(rendered));
  }
  if ((method === "PUT" || method === "PATCH") && adapter.update) {
    const scope = await scopeFor(c, adapter, "update");
    const by = targetOf(adapter, scope, pathId, queryParams(c));
    const { body, source } = await readBody(c);
    const target = await findTarget(scope, adapter, by);
    const writeMethod: WriteMethod = method === "PUT" && adapter.putIsPatch ? "patch" : (method.toLowerCase() as WriteMethod);
    const values = validateWrite(adapter.declaration, writeMethod, body, { source, targetId: target.id });
    const updated = await adapter.update(scope, target, values);
    if (!updated) throw new ServiceError("resource_not_found");
    return jsonResponse(c, okBody(render(adapter, scope, updated)));
  }
  if (method === "DELETE" && adapter.remove) {
    const scope = await scopeFor(c, adapter, "delete");
    const target = await findTarget(scope, adapter, targetOf(adapter, scope, pathId, queryParams(c)));
    const deleted = await adapter.remove(scope, target);
    if (!deleted) throw new ServiceError("resource_not_found");
    return jsonResponse(c, okBody(render(adapter, scope, deleted)));
  }
  throw new ServiceError("resource_not_found", `${method} is not available on ${adapter.declaration.path}.`);
}

/**
 * Serves `GET /resources/{resources}`: `results: {resources, limit, offset, total_count, result_type}`.
 * @throws ServiceError resource_not_found (544) for any other method; parameter_invalid (419) for
 *   bad list parameters (see parseListParams)
 */
export async function servePlural(c: Context<AppEnv>, adapter: ResourceAdapter): Promise<Response> {
  if (c.req.method.toUpperCase() !== "GET" || !adapter.list) {
    throw new ServiceError("resource_not_found", `${c.req.method} is not available on ${adapter.declaration.pluralPath}.`);
  }
  const scope = await scopeFor(c, adapter, "list");
  const query = parseListParams(adapter.declaration, queryParams(c));
  const { records, total } = await adapter.list(scope, query);
  return jsonResponse(
    c,
    okBody({
      resources: records.map((r) => render(adapter, scope, r)),
      limit: query.limit,
      offset: query.offset,
      total_count: total,
      result_type: adapter.declaration.plural,
    }),
  );
}

/**
 * The target of a single-resource request: the path id, or exactly one identifier parameter.
 * @throws ServiceError resource_not_found (544) for a path id of the wrong type (no such
 *   resource path); parameter_invalid (419) for other query parameters, several identifiers, or
 *   an identifier value of the wrong type; parameter_missing (441) when no identifier is given
 */
export function identifierOf(decl: ResourceDeclaration, pathId: string | undefined, query: Params): Identifier {
  const keys = Object.keys(query);
  for (const k of keys) {
    if (pathId !== undefined || !decl.identifiers.includes(k)) throw new ServiceError("parameter_invalid", `Unknown parameter ${k}.`);
  }
  if (pathId !== undefined) {
    const value = identifierValue(decl, "id", pathId);
    if (value === undefined) throw new ServiceError("resource_not_found");
    return { property: "id", value };
  }
  if (keys.length === 0) {
    throw new ServiceError("parameter_missing", `Name the ${decl.name} by one of: ${decl.identifiers.join(", ")}.`);
  }
  if (keys.length > 1) throw new ServiceError("parameter_invalid", "Give only one identifier.");
  const property = keys[0]!;
  const value = identifierValue(decl, property, String(query[property]));
  if (value === undefined) throw new ServiceError("parameter_invalid", `${property} has the wrong format.`);
  return { property, value };
}

/** GET of one resource: the scope (the caller's check), then the identifier and the adapter's findOne. */
async function getOne(c: Context<AppEnv>, adapter: ResourceAdapter, pathId: string | undefined): Promise<Response> {
  const scope = await scopeFor(c, adapter, "get");
  const target = await findTarget(scope, adapter, targetOf(adapter, scope, pathId, queryParams(c)));
  return jsonResponse(c, okBody(render(adapter, scope, target)));
}

/** The request's target: the adapter's implied one when the request names none, else `identifierOf`. */
function targetOf(adapter: ResourceAdapter, scope: ResourceScope, pathId: string | undefined, query: Params): Identifier {
  if (pathId === undefined && adapter.impliedTarget && Object.keys(query).length === 0) return adapter.impliedTarget(scope);
  return identifierOf(adapter.declaration, pathId, query);
}

/** An identifier's value from the path or the query: an integer by the one text rule, else the text. */
function identifierValue(decl: ResourceDeclaration, property: string, raw: string): string | number | undefined {
  const prop = decl.properties.get(property);
  if (prop?.kind === "integer") return parseIntegerText(raw);
  // A string id (an AccessToken's UUID) must have its declared format: any other value names no
  // resource, so it never reaches the adapter's lookup.
  if (property === "id" && prop && !prop.schema.safeParse(raw).success) return undefined;
  return raw;
}

function scopeFor(c: Context<AppEnv>, adapter: ResourceAdapter, op: EngineOperation): Promise<ResourceScope> {
  // The access table is consulted inside, before any parameter or body is read.
  return resolveScope(c.get("ctx"), scopeRequest(c, adapter, op));
}

/** What the request attempts on `adapter`'s resource, and the headers that say where and how deep. */
function scopeRequest(c: Context<AppEnv>, adapter: ResourceAdapter, op: EngineOperation): ScopeRequest {
  return {
    resource: adapter.declaration.name,
    operation: op,
    chainHeader: requestHeader(c, "x-service-chain-id"),
    recursionLevel: parseRecursionLevel(requestHeader(c, "x-service-response-recursion-level")),
  };
}

async function findTarget(scope: ResourceScope, adapter: ResourceAdapter, by: Identifier): Promise<ResourceRecord> {
  const found = await adapter.findOne(scope, by);
  // The catalogue's description, never the value asked for: another chain's id and an id that
  // does not exist must answer byte for byte alike (tenant isolation).
  if (!found) throw new ServiceError("resource_not_found");
  return found;
}

async function readBody(c: Context<AppEnv>): Promise<{ body: Params; source: BodySource }> {
  const type = (requestHeader(c, "content-type") ?? "").toLowerCase();
  const body = await bodyParams(c);
  return { body, source: type.startsWith("application/json") ? "json" : "form" };
}

/** A create takes its parameters from the body only; a query parameter is a client mistake. */
function rejectQuery(query: Params): void {
  const first = Object.keys(query)[0];
  if (first !== undefined) throw new ServiceError("parameter_invalid", `Unknown parameter ${first}.`);
}

/**
 * A resource with a `chain` reference lives in the header chain: on POST `chain` may be omitted
 * or name that chain.
 * @throws ServiceError parameter_invalid (419) when it names another chain
 */
function requireScopeChain(decl: ResourceDeclaration, scope: ResourceScope, values: WriteValues): void {
  if (!decl.properties.has("chain")) return;
  const given = values.chain as { id: number } | undefined;
  if (given !== undefined && given.id !== scope.chainId) {
    throw new ServiceError("parameter_invalid", "chain must be the chain named in X-Service-Chain-ID.");
  }
  values.chain = { id: scope.chainId };
}

/**
 * `record` for the request's caller, at the scope's recursion level: the view decides what of it
 * and of what it nests they see (resources/read-view.ts). alter-chain answers its chain so too.
 */
export function render(adapter: ResourceAdapter, scope: ResourceScope, record: ResourceRecord): Record<string, unknown> {
  return renderResource(adapter.declaration, record, scope.recursionLevel, {
    version: scope.version,
    resources: RESOURCES,
    view: scope.view,
    userId: scope.userId,
  });
}
