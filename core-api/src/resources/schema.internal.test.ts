/**
 * GET /resources/schema describes every internal call (routes.ts CALLS) and /auth/login,
 * /auth/logout from their shared declarations, with every declared parameter, its errors and
 * aliases; the basket and loyalty calls' examples valid against their schemas (alter-chain's body
 * holding the Chain resource's PATCH properties); and a person can log in with what the document
 * says alone.
 */
import { ERRORS } from "@service/shared";
import { CALL_VENDOR } from "@service/shared/internal/call";
import { CALL_DECLARATIONS } from "@service/shared/internal/call-registry";
import { loginCall, logoutCall } from "@service/shared/internal/login";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestAdmin, type TestCore } from "../../../test/helpers/core.ts";
import { CALLS } from "../internal/call-routes.ts";

let core: TestCore;
let admin: TestAdmin;
let doc: any;
beforeAll(async () => {
  core = await startCore();
  admin = await core.admin({ read: true });
  doc = (await core.json("/resources/schema")).body;
});
afterAll(() => core.close());

/** The document's id for the JSON Schema validator, so its `#/components/...` references resolve. */
const DOC_ID = "https://schema.example.test/document";
const resolve = (s: any) => (s?.$ref ? doc.components.schemas[s.$ref.split("/").pop()] : s);

/** The parameters an operation documents: its query parameters, or its JSON body's properties. */
function documentedParams(op: any): Record<string, any> {
  if (op.requestBody) return resolve(op.requestBody.content["application/json"].schema).properties;
  return Object.fromEntries(op.parameters.filter((p: any) => p.in === "query").map((p: any) => [p.name, { ...p.schema, required: p.required, deprecated: p.deprecated }]));
}

describe("the internal calls in the schema document", () => {
  const calls = [...CALLS.map(([, , , declaration]) => declaration), loginCall, logoutCall];

  it("lists every call of routes.ts CALLS plus login and logout, under its path and method", () => {
    expect(calls).toHaveLength(23);
    expect(new Set(calls)).toEqual(new Set(CALL_DECLARATIONS));
    for (const [path, method] of [...CALLS, [loginCall.path, loginCall.method], [logoutCall.path, logoutCall.method]] as const) {
      const op = doc.paths[path]?.[method.toLowerCase()];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op.responses["200"].content["application/json"].schema.properties.results, path).toBeDefined();
    }
  });

  it("documents every declared parameter with its errors (code and name), aliases and requiredness", () => {
    let checked = 0;
    for (const call of calls) {
      const op = doc.paths[call.path][call.method.toLowerCase()];
      const params = documentedParams(op);
      const body = op.requestBody ? resolve(op.requestBody.content["application/json"].schema) : undefined;
      for (const p of call.parameters.values()) {
        const where = `${call.name}.${p.name}`;
        const documented = params[p.name];
        expect(documented, where).toBeDefined();
        const errors = Object.fromEntries(Object.entries(p.errors).map(([refusal, name]) => [refusal, { code: ERRORS[name].code, name }]));
        expect(documented[CALL_VENDOR.errors], where).toEqual(errors);
        const required = body ? (body.required ?? []).includes(p.name) : documented.required;
        expect(required, where).toBe(p.required);
        for (const alias of p.aliases) expect(params[alias], `${where} alias ${alias}`).toMatchObject({ deprecated: true });
        if (p.aliases.length > 0) expect(documented[CALL_VENDOR.aliases], where).toEqual(p.aliases);
        checked++;
      }
      // Every error a refusal can give is listed among the operation's responses.
      const listed = Object.values(op.responses).map((r: any) => r.description as string).join("; ");
      for (const p of call.parameters.values()) {
        for (const name of Object.values(p.errors)) expect(listed, `${call.name}: ${name}`).toContain(`${ERRORS[name].code} ${name}`);
      }
    }
    expect(checked).toBe(calls.reduce((n, c) => n + c.parameters.size, 0));
    expect(checked).toBeGreaterThan(60);
  });

  it("shows limits and defaults from the declarations", () => {
    const get = documentedParams(doc.paths["/internal/get-businesses"].get);
    expect(get.limit).toMatchObject({ type: "integer", minimum: 1, maximum: 500, default: 500 });
    expect(get.radius[CALL_VENDOR.aliases]).toEqual(["search_radius", "search_radius_km"]);
    const add = documentedParams(doc.paths["/internal/add-business"].post);
    expect(add.latitude).toMatchObject({ type: "number", minimum: -90, maximum: 90 });
    expect(add.name).toMatchObject({ type: "string", maxLength: 255, minLength: 1 });
    expect(add.update_if_exists.default).toBe(false);
    expect(documentedParams(doc.paths["/internal/add-campaign"].post).active_date_from).toMatchObject({ type: ["string", "null"], format: "date-time" });
  });

  it("shows a request and a results example for each basket and loyalty call, each valid against the schema it illustrates", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(doc, DOC_ID);
    const at = (pointer: string[]) => ajv.getSchema(`${DOC_ID}#/${pointer.map((p) => p.replaceAll("~", "~0").replaceAll("/", "~1")).join("/")}`)!;
    for (const [path, method] of [["/internal/get-basket-price", "post"], ["/internal/add-basket", "post"], ["/internal/apply-referral-code", "post"], ["/internal/alter-chain", "put"]] as const) {
      const body = doc.paths[path][method].requestBody.content["application/json"];
      const ok = doc.paths[path][method].responses["200"].content["application/json"];
      expect(body.example, `${path} request`).toBeDefined();
      expect(ok.example, `${path} results`).toBeDefined();
      const request = at(["paths", path, method, "requestBody", "content", "application/json", "schema"]);
      expect(request(body.example), `${path} request: ${JSON.stringify(request.errors)}`).toBe(true);
      const results = at(["paths", path, method, "responses", "200", "content", "application/json", "schema"]);
      expect(results(ok.example), `${path} results: ${JSON.stringify(results.errors)}`).toBe(true);
      // The validator is not vacuous: results without their result_type are refused.
      expect(results({ ...ok.example, results: { ...ok.example.results, result_type: undefined } }), path).toBe(false);
    }
  });

  it("lists the Chain resource's PATCH properties in alter-chain's body, and its request example works as sent", async () => {
    const op = doc.paths["/internal/alter-chain"].put;
    const body = resolve(op.requestBody.content["application/json"].schema);
    const patch = doc.components.schemas["chain.patch"];
    expect(Object.keys(body.properties).sort()).toEqual([...new Set(["chain_id", ...Object.keys(patch.properties)])].sort());
    expect(body.required).toEqual(["chain_id"]);
    const example = op.requestBody.content["application/json"].example;
    expect(Object.keys(example).filter((k) => k !== "chain_id").length).toBeGreaterThan(0);
    // An example property the schema lacks would be refused by the strict PATCH rules: 419.
    const superUser = await core.admin({ super_user: true });
    const res = await core.json("/internal/alter-chain", { method: "PUT", headers: { ...superUser.headers, "Content-Type": "application/json" }, body: JSON.stringify({ ...example, chain_id: core.chainId }) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.results.chain).toMatchObject({ allows_double_discounting: example.allows_double_discounting, referral_code_submission_window_unit: example.referral_code_submission_window_unit });
  });
});

describe("logging in from the docs page", () => {
  it("works with what the document says: login's body, its result, the session's security schemes", async () => {
    const login = doc.paths["/auth/login"].post;
    expect(login.security).toEqual([]);
    const body = resolve(login.requestBody.content["application/json"].schema);
    expect(body.required).toEqual(["username", "password"]);
    const sent = { username: admin.username, password: admin.password };
    const res = await core.json("/auth/login", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(sent) });
    expect(res.status).toBe(200);
    const info = resolve(login.responses["200"].content["application/json"].schema.properties.results).properties.session_info;
    expect(Object.keys(info.properties).sort()).toEqual(Object.keys(res.body.results.session_info).sort());

    // The document's security schemes name the headers that carry the session.
    const schemes = doc.components.securitySchemes;
    const headers = {
      [schemes.sessionUserId.name]: String(res.body.results.session_info.session_user_id),
      [schemes.sessionKey.name]: res.body.results.session_info.session_key,
    };
    const listed = await core.json(`/internal/get-businesses?chain_id=${core.chainId}`, { headers });
    expect(listed.status).toBe(200);
    const logout = await core.json(logoutCall.path, { method: "DELETE", headers });
    expect(logout.body).toEqual({ result: { code: 1, status: "ok" }, results: { result_type: "logout" } });
    expect((await core.json(`/internal/get-businesses?chain_id=${core.chainId}`, { headers })).status).toBe(401);
  });
});
