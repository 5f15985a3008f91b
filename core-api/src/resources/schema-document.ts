/**
 * `GET /resources/schema` (spec, "Resources API, generic paths"): the OpenAPI 3.1 document of the
 * Resources API with `components`, `info`, `openapi`, `paths`, `servers` and `tags`, generated
 * from the shared declarations and the adapters registered in routes.ts; nothing in it is
 * written per resource. It also describes the internal calls and `/auth/login`, `/auth/logout`
 * from their shared declarations (schema-internal.ts), so the docs page shows them and a person
 * can log in there.
 *
 * Every operation states its own `security` and the document sets no default: a default is
 * what the docs page's "Test Request" falls back to for an operation whose `security` is empty,
 * so login (public) would be sent with empty session headers and refused.
 *
 * The document is public and read-only: it describes the API, not any chain's data, and a client
 * (or the /docs page) needs it before it has credentials. Credentials sent anyway are still
 * checked by the app's authentication middleware, so bad ones are refused as everywhere.
 *
 * Routes mounted outside the adapters (the campaign change log, for example) are found in the
 * app's route table at request time, so one registered by a later change is documented without
 * an edit here; a test fails when a /resources route is missing from the document.
 */
import { CALL_DECLARATIONS } from "@service/shared/internal/call-registry";
import { changeLogEntryResource } from "@service/shared/resources/change-log";
import { CHANGE_LOG_RESOURCE } from "../auth/access-table.ts";
import type { ResourceDeclaration } from "@service/shared/resources/meta";
import type { Context, Hono } from "hono";
import { NEWEST_API_VERSION } from "../http/api-version.ts";
import type { AppEnv } from "../auth/request-context.ts";
import type { ResourceAdapter } from "./engine.ts";
import { errorResponses, resourceComponents, type ComponentEntry, type JsonSchema } from "./schema-components.ts";
import { internalCallDocument } from "./schema-internal.ts";
import { adapterPaths, extraPath, HEADER_PARAMETERS } from "./schema-paths.ts";
import { SECURITY_SCHEMES } from "./schema-security.ts";
import type { WriteMethod } from "./write.ts";

/** Where the document is served. */
export const SCHEMA_PATH = "/resources/schema";

/** A route of the app as Hono lists it (`app.routes`). */
export interface RouteInfo {
  method: string;
  path: string;
}

/** List-like routes outside the adapters, by the last segment of their path: declaration and access table row. */
const EXTRA_ROUTES: Record<string, { decl: ResourceDeclaration; resource: string }> = {
  change_log: { decl: changeLogEntryResource, resource: CHANGE_LOG_RESOURCE },
};

/**
 * Builds the document.
 * @param adapters the served resources (routes.ts ADAPTERS)
 * @param routes the app's routes; every /resources route not served through an adapter is added
 * @param origin the request's origin, the one entry of `servers`
 */
export function buildSchemaDocument(adapters: readonly ResourceAdapter[], routes: readonly RouteInfo[], origin: string): JsonSchema {
  const paths: Record<string, unknown> = {};
  const tags = new Map<string, string>();
  const entries: ComponentEntry[] = [];

  for (const adapter of adapters) {
    const decl = adapter.declaration;
    Object.assign(paths, adapterPaths(adapter));
    tags.set(decl.name, decl.description ?? `The ${decl.name} resource (${decl.path}, ${decl.pluralPath}).`);
    const methods: WriteMethod[] = [];
    if (adapter.create) methods.push("post");
    if (adapter.update) methods.push(...(adapter.putIsPatch ? ["patch" as const] : ["put" as const, "patch" as const]));
    entries.push({ decl, methods, list: adapter.list !== undefined, single: true });
  }

  for (const path of extraRoutePaths(adapters, routes)) {
    const extra = EXTRA_ROUTES[path.split("/").pop() ?? ""];
    const decl = extra?.decl;
    paths[path] = extraPath(path, decl, extra?.resource ?? path);
    const tag = path.split("/")[2]!;
    if (!tags.has(tag)) tags.set(tag, `The ${tag} resource: ${path} only.`);
    if (decl && !entries.some((e) => e.decl.name === decl.name)) entries.push({ decl, methods: [], list: true, single: false });
  }

  const resourceSchemas = resourceComponents(entries);
  const internal = internalCallDocument(CALL_DECLARATIONS, resourceSchemas);
  Object.assign(paths, internal.paths);
  for (const t of internal.tags) tags.set(t.name, t.description);

  paths[SCHEMA_PATH] = schemaOperation();
  tags.set(SCHEMA_TAG, "The OpenAPI 3.1 document this page is built from.");

  return {
    openapi: "3.1.0",
    info: {
      title: "Service Resources API",
      version: NEWEST_API_VERSION.join("."),
      description:
        "BETA: the Resources API is fully functional but may change. A uniform REST interface to every resource of a " +
        "chain; properties carry their validation rules and the x-service-* vendor extensions (recursion level, filter, " +
        "sort, identifier, immutable, full-text search, operations). Also the internal calls (/internal/...) and " +
        "login (POST /auth/login; public) and logout: their parameters carry x-service-aliases and x-service-errors " +
        "(the error of each refusal).",
      contact: { name: "API reference", url: `${origin}/docs` },
      // Private code: an SPDX user-defined reference, as package.json (private) implies.
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    },
    servers: [{ url: origin }],
    tags: [...tags].map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas: { ...resourceSchemas, ...internal.schemas },
      parameters: HEADER_PARAMETERS,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}

/** The tag of the schema document's own operation. */
const SCHEMA_TAG = "schema";

/**
 * `GET /resources/schema` itself: public; credentials sent anyway are checked, so bad ones are
 * refused (401) as everywhere.
 */
function schemaOperation(): JsonSchema {
  return {
    get: {
      operationId: "get_schema",
      tags: [SCHEMA_TAG],
      summary: "This document",
      description: "Returns this OpenAPI 3.1 document, generated from the declarations the service runs. Public: needs no credentials.",
      security: [],
      responses: {
        "200": { description: "The OpenAPI 3.1 document.", content: { "application/json": { schema: { type: "object" } } } },
        ...errorResponses(["no_valid_session", "access_token_invalid"]),
      },
    },
  };
}

/**
 * The /resources routes not served through an adapter, as OpenAPI templates (`:id` -> `{id}`).
 * The adapters' own paths and this document's path are left out.
 */
export function extraRoutePaths(adapters: readonly ResourceAdapter[], routes: readonly RouteInfo[]): string[] {
  const own = new Set([SCHEMA_PATH]);
  for (const { declaration: d } of adapters) for (const p of [d.path, `${d.path}/:id`, d.pluralPath]) own.add(p);
  const out = new Set<string>();
  for (const r of routes) {
    if (!r.path.startsWith("/resources/") || own.has(r.path)) continue;
    out.add(r.path.replace(/:([A-Za-z0-9_]+)/g, "{$1}"));
  }
  return [...out];
}

/** Mounts `GET /resources/schema` on `app`, reading the app's routes when asked. */
export function registerSchema(app: Hono<AppEnv>, adapters: readonly ResourceAdapter[]): void {
  app.get(SCHEMA_PATH, (c: Context<AppEnv>) => c.json(buildSchemaDocument(adapters, app.routes, new URL(c.req.url).origin)));
}
