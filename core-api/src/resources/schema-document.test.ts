/**
 * GET /resources/schema: a valid OpenAPI 3.1 document (checked by a third-party validator) that
 * lists every route the app serves under /resources and mirrors the shared declarations; and
 * GET /docs, the page built from it.
 */
import SwaggerParser from "@apidevtools/swagger-parser";
import { VENDOR } from "@service/shared/resources/meta";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../app.ts";
import { loadCoreConfig } from "../config.ts";
import { startCore, type TestCore } from "../../../test/helpers/core.ts";
import { DOCS_SCRIPT_PATH } from "./docs.ts";
import { loadScalarBundle } from "./docs-asset.node.ts";
import { ADAPTERS } from "./resource-routes.ts";
import { requiredProperties, writableProperties } from "./write.ts";

let core: TestCore;
let doc: any;
beforeAll(async () => {
  core = await startCore();
  const res = await core.request("http://api.example.test/resources/schema");
  expect(res.status).toBe(200);
  doc = await res.json();
});
afterAll(() => core.close());

describe("GET /resources/schema", () => {
  it("is a valid OpenAPI 3.1 document, served without credentials", async () => {
    await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeDefined();
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc).sort()).toEqual(["components", "info", "openapi", "paths", "servers", "tags"]);
    expect(doc.info).toMatchObject({ version: "1.6.8", description: expect.stringContaining("BETA") });
    expect(doc.servers).toEqual([{ url: "http://api.example.test" }]);
    expect(doc.paths["/resources/schema"].get.security).toEqual([]);
  });

  it("documents every /resources route the app serves, and one tag per resource", () => {
    const app = createApp({ db: core.db, config: loadCoreConfig({}) });
    // An adapter's own paths are checked method by method below (a plural path without a list
    // answers only 544); every other route, such as the change log, must be documented.
    const adapterPaths = new Set(ADAPTERS.flatMap(({ declaration: d }) => [d.path, `${d.path}/:id`, d.pluralPath]));
    const others = app.routes.filter((r) => r.path.startsWith("/resources/") && !adapterPaths.has(r.path));
    expect(others.map((r) => r.path)).toContain("/resources/schema");
    for (const r of others) expect(Object.keys(doc.paths), r.path).toContain(r.path.replace(/:(\w+)/g, "{$1}"));
    const tags = doc.tags.map((t: { name: string }) => t.name);
    for (const a of ADAPTERS) expect(tags).toContain(a.declaration.name);
  });

  it("offers exactly the methods each adapter serves", () => {
    for (const a of ADAPTERS) {
      const d = a.declaration;
      const single = doc.paths[d.path];
      expect(Object.keys(single).sort(), d.name).toEqual(
        ["get", a.create && "post", a.update && "put", a.update && "patch", a.remove && "delete"].filter(Boolean).sort(),
      );
      expect(doc.paths[d.pluralPath]?.get !== undefined, d.pluralPath).toBe(a.list !== undefined);
    }
  });

  it("carries every property with its validation rules and x-service-* extensions", () => {
    for (const { declaration: d } of ADAPTERS) {
      const schema = doc.components.schemas[d.name];
      expect(Object.keys(schema.properties), d.name).toEqual([...d.properties.keys()]);
      for (const p of d.properties.values()) {
        const s = schema.properties[p.name];
        const where = `${d.name}.${p.name}`;
        expect(s[VENDOR.level], where).toBe(p.level);
        expect(s.readOnly === true, where).toBe(p.readOnly);
        expect(s.writeOnly === true, where).toBe(p.writeOnly);
        for (const [flag, key] of [["filter", VENDOR.filter], ["sort", VENDOR.sort], ["identifier", VENDOR.identifier], ["immutable", VENDOR.immutable], ["fulltext", VENDOR.fulltext]] as const) {
          expect(s[key] === true, `${where} ${key}`).toBe(p[flag]);
        }
        expect(Array.isArray(s[VENDOR.operations]), where).toBe(true);
      }
    }
    const business = doc.components.schemas.business.properties;
    expect(business.name).toMatchObject({ type: "string", minLength: 1, maxLength: 255 });
    expect(business.country_code).toMatchObject({ type: ["string", "null"], pattern: "^[A-Z]{2}$", maxLength: 2 });
    expect(business.chain_member.default).toBe(true);
    expect(business.latitude).toMatchObject({ type: ["number", "null"], minimum: -90, maximum: 90 });
    expect(business.created_date).toMatchObject({ format: "date-time", readOnly: true });
    // the webhook's secrets: in request bodies, never in responses
    expect(doc.components.schemas.webhook.properties.signing_secret).toMatchObject({ writeOnly: true });
    expect(doc.components.schemas["webhook.post"].properties.signing_secret).toMatchObject({ writeOnly: true, minLength: 16 });
  });

  it("lists as request bodies exactly what a write accepts, with req-post as required", () => {
    for (const a of ADAPTERS) {
      const d = a.declaration;
      for (const m of [a.create && "post", a.update && !a.putIsPatch && "put", a.update && "patch"].filter(Boolean) as Array<"post" | "put" | "patch">) {
        const body = doc.components.schemas[`${d.name}.${m}`];
        expect(Object.keys(body.properties), `${d.name} ${m}`).toEqual(writableProperties(d, m).map((p) => p.name));
        expect(body.required ?? [], `${d.name} ${m}`).toEqual(requiredProperties(d, m).map((p) => p.name));
        expect(body.additionalProperties).toBe(false);
      }
    }
  });

  it("has the error body, the result wrapper, security schemes and catalogue errors", () => {
    const { schemas, securitySchemes, parameters } = doc.components;
    expect(schemas.Error.properties.error.required).toEqual(["code", "name", "description"]);
    expect(schemas.Result.properties.code.const).toBe(1);
    expect(Object.keys(securitySchemes).sort()).toEqual(["appHostname", "chainToken", "readBusinessesToken", "sessionKey", "sessionUserId", "shopperToken"]);
    expect(Object.values(parameters).map((p: any) => p.name)).toEqual(["X-Service-Chain-ID", "X-Service-API-version", "X-Service-Response-Recursion-Level"]);
    const post = doc.paths["/resources/business"].post.responses;
    expect(post["400"].description).toContain("441 parameter_missing");
    expect(post["404"].content["application/json"].examples.resource_not_found.value.error.code).toBe(544);
  });
});

describe("what the docs page shows of it", () => {
  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, item]: [string, any]) => Object.entries(item).map(([method, op]: [string, any]) => ({ where: `${method} ${path}`, op })));

  it("gives every operation a summary unique within its tag (the sidebar's titles) and a description", () => {
    const seen = new Map<string, string>();
    for (const { where, op } of operations()) {
      for (const tag of op.tags) {
        const key = `${tag}: ${op.summary}`;
        expect(seen.get(key), `${where} repeats ${key}`).toBeUndefined();
        seen.set(key, where);
      }
      expect(op.description, where).toMatch(/\S/);
    }
    expect(seen.size).toBeGreaterThan(90);
  });

  it("says who may call a resource operation, from its access-table row", () => {
    const get = doc.paths["/resources/business/{id}"].get;
    expect(get.summary).toBe("Get a business by id");
    expect(get.description).toContain("`read` access level");
    expect(get.description).toContain("read_businesses:{id}");
    expect(doc.paths["/resources/access_token"].post.summary).toBe("Create an access_token");
  });

  it("leaves login's body open to unknown parameters without inviting example generators to add one", () => {
    const params = doc.components.schemas["login.params"];
    expect(Object.keys(params.properties)).toEqual(["username", "password"]);
    expect(params).not.toHaveProperty("additionalProperties");
    expect(doc.components.schemas).not.toHaveProperty("get-user.params"); // a GET call's parameters are in the query
  });
});

describe("GET /docs", () => {
  it("serves the reference page built from /resources/schema", async () => {
    const res = await core.request("/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    const html = await res.text();
    expect(html).toContain('"url": "/resources/schema"');
    expect(html).toContain("Scalar.createApiReference");
  });

  it("serves Scalar's script itself when given the bundle, so the page needs no internet", async () => {
    const app = createApp({ db: core.db, config: loadCoreConfig({}), docsScript: loadScalarBundle });
    const html = await (await app.request("/docs")).text();
    expect(html).toContain(`src="${DOCS_SCRIPT_PATH}"`);
    expect(html).not.toContain("cdn.jsdelivr.net");
    const script = await app.request(DOCS_SCRIPT_PATH);
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toContain("javascript");
    expect(await script.text()).toContain("createApiReference");
  });
});
