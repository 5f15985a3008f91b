/**
 * The internal calls and `/auth/login`, `/auth/logout` in the schema document, generated from
 * their shared declarations (`@service/shared/internal`): each call's path and method, its
 * parameters with types, limits, defaults, aliases (`x-service-aliases`, and a deprecated entry
 * per alias) and the error of each refusal (`x-service-errors`, with code and name), the errors
 * the call answers, and its result schema. So /docs shows them, and a person can log in from the
 * docs page: login's body is an ordinary JSON (or form) object, and the session it returns is
 * what the document's security schemes carry.
 */
import { ERRORS, type ErrorName } from "@service/shared";
import { CALL_VENDOR, type CallDeclaration, type Refusal } from "@service/shared/internal/call";
import { loginCall, logoutCall } from "@service/shared/internal/login";
import { z } from "zod";
import { CALL_ACCESS, type CallName } from "../auth/access-table.ts";
import { errorResponses, ref, successSchema, withoutDialect, type JsonSchema } from "./schema-components.ts";
import { operationSecurity, sessionSecurity } from "./schema-security.ts";

/** The tags of the internal calls and of login / logout. */
export const INTERNAL_TAGS: Readonly<Record<"internal" | "auth", string>> = {
  internal:
    "The internal calls (/internal/..., and the tag calls under /auth/): older, named operations taking form, multipart or JSON parameters (a JSON " +
    "body may also carry numbers and booleans as text). Unknown parameters are ignored; every known one is validated.",
  auth: "Login and logout: POST /auth/login opens a session; send its session_user_id and session_key as the " +
    "X-Service-Session-User-ID and X-Service-Session-Key headers (the sessionUserId and sessionKey schemes).",
};

/** Component names of a call's parameters and results. */
export const callNames = {
  params: (c: CallDeclaration) => `${c.name}.params`,
  results: (c: CallDeclaration) => `${c.name}.results`,
};

/** What the internal calls add to the document. */
export interface InternalCallDocument {
  paths: Record<string, Record<string, JsonSchema>>;
  schemas: Record<string, JsonSchema>;
  tags: Array<{ name: string; description: string }>;
}

const API_VERSION = { $ref: "#/components/parameters/ApiVersion" };
const APP_HOSTNAME: JsonSchema = {
  name: "X-Service-App-Hostname",
  in: "header",
  required: false,
  description: "Logs a shopper of this app's chain in instead of an admin.",
  schema: { type: "string" },
};
const TOO_LARGE: JsonSchema = {
  "413": { description: "419 parameter_invalid: the body is larger than 1 MiB.", content: { "application/json": { schema: ref("Error") } } },
};

/**
 * The paths, component schemas and tags of `calls`.
 * @param calls the declarations to describe (`CALL_DECLARATIONS`)
 * @param components the document's other component schemas, where a call's `bodyAlso` is found
 * @throws Error for a `bodyAlso` that names no component (a programming error)
 */
export function internalCallDocument(calls: readonly CallDeclaration[], components: Readonly<Record<string, JsonSchema>> = {}): InternalCallDocument {
  const paths: InternalCallDocument["paths"] = {};
  const schemas: Record<string, JsonSchema> = {};
  const tags = new Set<keyof typeof INTERNAL_TAGS>();
  for (const call of calls) {
    // The tag calls live under /auth/ too (spec: DELETE /auth/delete-tag) but are internal calls.
    const session = call === loginCall || call === logoutCall;
    const tag = session ? "auth" : "internal";
    tags.add(tag);
    const params = withBodyAlso(call, paramsSchema(call), components);
    const hasParams = call.parameters.size > 0;
    // A GET call's parameters are query parameters, listed one by one: no body schema for it.
    if (call.method !== "GET" && hasParams) schemas[callNames.params(call)] = params;
    schemas[callNames.results(call)] = withoutDialect(z.toJSONSchema(call.results, { io: "output", unrepresentable: "any" }) as JsonSchema);
    const operation: JsonSchema = {
      operationId: call.name.replace(/-/g, "_"),
      tags: [tag],
      summary: call.summary,
      description: `${call.description ?? call.summary}${session ? "" : " Unknown parameters are ignored."}`,
      parameters: [API_VERSION, ...(call.name === "login" ? [APP_HOSTNAME] : [])],
      ...securityOf(call),
    };
    if (call.method === "GET") {
      (operation.parameters as JsonSchema[]).push(...queryParameters(params));
    } else if (hasParams) {
      const schema = ref(callNames.params(call));
      operation.requestBody = {
        required: ((params.required as string[] | undefined) ?? []).length > 0,
        description: "JSON, or form fields (a nested value as `name[key]`).",
        content: {
          "application/json": { schema, ...(call.examples?.request ? { example: call.examples.request } : {}) },
          "application/x-www-form-urlencoded": { schema },
          "multipart/form-data": { schema },
        },
      };
    }
    operation.responses = {
      "200": {
        description: "Success.",
        content: { "application/json": { schema: successSchema(ref(callNames.results(call))), ...(call.examples?.results ? { example: { result: { code: 1, status: "ok" }, results: call.examples.results } } : {}) } },
      },
      ...errorResponses(callErrors(call)),
      ...(hasParams && call.method !== "GET" ? TOO_LARGE : {}),
    };
    paths[call.path] = { ...paths[call.path], [call.method.toLowerCase()]: operation };
  }
  return { paths, schemas, tags: [...tags].map((name) => ({ name, description: INTERNAL_TAGS[name] })) };
}

/**
 * Who may make `call`: login is public, logout takes the session it ends, every other call its
 * row of the access table.
 * @throws Error for an internal call without a row (a programming error: the document would
 *   promise an access the server refuses)
 */
function securityOf(call: CallDeclaration): JsonSchema {
  if (call.name === "login") return { security: [] };
  if (call.name === "logout") return { security: sessionSecurity() };
  const row = CALL_ACCESS[call.name as CallName];
  if (!row) throw new Error(`${call.name}: no row in the access table (auth/access-table.ts CALL_ACCESS)`);
  return operationSecurity(row);
}

/**
 * Every error a call answers: its own (session, access, conflicts, wrong method) and each of its
 * parameters' refusals, plus 419 for a body that cannot be parsed.
 */
export function callErrors(call: CallDeclaration): ErrorName[] {
  const errors = new Set<ErrorName>(call.errors);
  if (call.parameters.size > 0) errors.add("parameter_invalid");
  for (const p of call.parameters.values()) for (const name of Object.values(p.errors)) errors.add(name);
  return [...errors];
}

/**
 * The parameters of `call` as one object schema (what a JSON body carries), each property with
 * its `x-service-errors` as `{refusal: {code, name}}`, and a deprecated property per alias.
 */
function paramsSchema(call: CallDeclaration): JsonSchema {
  const json = withoutDialect(z.toJSONSchema(call.params, { io: "input", unrepresentable: "any" }) as JsonSchema);
  const properties = json.properties as Record<string, JsonSchema>;
  for (const [name, property] of Object.entries(properties)) {
    const errors = property[CALL_VENDOR.errors] as Partial<Record<Refusal, ErrorName>> | undefined;
    if (errors) {
      property[CALL_VENDOR.errors] = Object.fromEntries(Object.entries(errors).map(([refusal, error]) => [refusal, { code: ERRORS[error].code, name: error }]));
    }
    for (const alias of call.parameters.get(name)?.aliases ?? []) {
      properties[alias] = { ...property, description: `Alias of ${name} (${name} wins when both are sent).`, deprecated: true };
    }
  }
  return {
    ...json,
    title: `${call.name} parameters`,
    // Unknown parameters are ignored (the operation says so). additionalProperties stays
    // unstated, JSON Schema's default: stating `true` makes example generators invent a property.
    description: "Every parameter as a JSON body carries it; form and query values are text of the same types.",
  };
}

/**
 * The parameters of `call` with the properties of the component its `bodyAlso` names (its own
 * parameters win a shared name; only its own are required): alter-chain's body is chain_id and
 * the Chain resource's PATCH body.
 */
function withBodyAlso(call: CallDeclaration, params: JsonSchema, components: Readonly<Record<string, JsonSchema>>): JsonSchema {
  if (!call.bodyAlso) return params;
  const also = components[call.bodyAlso];
  if (!also) throw new Error(`${call.name}: bodyAlso names ${call.bodyAlso}, no component schema of the document`);
  return {
    ...params,
    properties: { ...(also.properties as Record<string, JsonSchema>), ...(params.properties as Record<string, JsonSchema>) },
    description: `${params.description as string} Besides its own parameters, every property of ${call.bodyAlso}, checked as there.`,
  };
}

/** Query parameters of a GET call; an object parameter is sent as `name[key]=value`. */
function queryParameters(params: JsonSchema): JsonSchema[] {
  const required = new Set((params.required as string[] | undefined) ?? []);
  return Object.entries(params.properties as Record<string, JsonSchema>).map(([name, schema]) => {
    const { description, deprecated, ...rest } = schema;
    const isObject = rest.type === "object";
    return {
      name,
      in: "query",
      required: required.has(name),
      ...(description ? { description } : {}),
      ...(deprecated ? { deprecated } : {}),
      ...(isObject ? { style: "deepObject", explode: true } : {}),
      schema: rest,
    };
  });
}
