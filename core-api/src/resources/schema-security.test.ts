/**
 * The schema document's `security` per operation is the access table's row (auth/access-table.ts):
 * every operation of every path is walked, its resource and engine operation read from its path
 * and method, and its security compared with the requirements of the row's caller kinds.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestCore } from "../../../test/helpers/core.ts";
import { CALL_ACCESS, CHANGE_LOG_RESOURCE, resourceRule, type AccessRule, type CallName, type CallerKind, type EngineOperation } from "../auth/access-table.ts";
import { ADAPTERS } from "./resource-routes.ts";

let core: TestCore;
let doc: any;
beforeAll(async () => {
  core = await startCore();
  doc = await (await core.request("http://api.example.test/resources/schema")).json();
});
afterAll(() => core.close());

/** What each caller kind must be offered in the document (written here, not imported). */
const EXPECTED: Record<CallerKind, object[]> = {
  admin: [{ sessionUserId: [], sessionKey: [] }],
  chain_scope: [{ chainToken: [] }],
  read_businesses: [{ readBusinessesToken: [] }],
  end_user: [
    { appHostname: [], sessionUserId: [], sessionKey: [] },
    { appHostname: [], shopperToken: [] },
  ],
};

/** The internal calls with a row of their own (login and logout are checked apart). */
const CALL_PATHS: Record<string, CallName> = {
  "/internal/add-business": "add-business",
  "/internal/alter-business": "alter-business",
  "/internal/get-businesses": "get-businesses",
  "/internal/add-campaign": "add-campaign",
  "/internal/alter-campaign": "alter-campaign",
  "/internal/get-campaign": "get-campaign",
  "/internal/delete-campaign": "delete-campaign",
  "/internal/add-campaign-group": "add-campaign-group",
  "/internal/get-campaign-groups": "get-campaign-groups",
  "/internal/delete-campaign-group": "delete-campaign-group",
  "/auth/add-tag": "add-tag",
  "/auth/get-tags": "get-tags",
  "/auth/delete-tag": "delete-tag",
  "/internal/add-user": "add-user",
  "/internal/get-user": "get-user",
  "/internal/alter-user": "alter-user",
  "/internal/add-basket": "add-basket",
  "/internal/get-basket-price": "get-basket-price",
  "/internal/apply-referral-code": "apply-referral-code",
  "/internal/alter-chain": "alter-chain",
  "/internal/verify-phone-number": "verify-phone-number",
};

/** The access table's row an OpenAPI path and method stand for. */
function ruleOf(path: string, method: string): AccessRule | undefined {
  const call = CALL_PATHS[path];
  if (call) return CALL_ACCESS[call];
  const [resource, operation] = operationOf(path, method);
  return resourceRule(resource, operation);
}

/** The resource and engine operation an OpenAPI path and method stand for. */
function operationOf(path: string, method: string): [string, EngineOperation] {
  if (path === "/resources/campaign/{id}/change_log") return [CHANGE_LOG_RESOURCE, "get"];
  for (const { declaration: d } of ADAPTERS) {
    if (path === d.pluralPath) return [d.name, "list"];
    if (path !== d.path && path !== `${d.path}/{id}`) continue;
    const op = ({ get: "get", post: "create", put: "update", patch: "update", delete: "delete" } as const)[method as "get"];
    if (op) return [d.name, op];
  }
  throw new Error(`no resource operation for ${method.toUpperCase()} ${path}`);
}

describe("security per operation", () => {
  it("lists exactly the credentials the access table allows, with the admin level it needs", () => {
    let walked = 0;
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      if (path === "/resources/schema" || path === "/auth/login" || path === "/auth/logout") continue;
      for (const [method, op] of Object.entries(item)) {
        const rule = ruleOf(path, method);
        expect(rule, `${method} ${path}`).toBeDefined();
        expect(op.security, `${method} ${path}`).toEqual(rule!.callers.flatMap((kind) => EXPECTED[kind]));
        expect(op["x-service-access-level"], `${method} ${path}`).toBe(rule!.level);
        expect(op["x-service-also-access-levels"], `${method} ${path}`).toEqual(rule!.alsoLevels);
        walked++;
      }
    }
    // Eight resources with every method (GET, PUT, PATCH, DELETE by identifier and by id, POST, the
    // list: 10 each), event_delivery (the same without POST: 9), the chain (GET, PUT, PATCH, by
    // identifier and by id: 6), the change log and the internal calls (the tag calls under /auth/ included).
    expect(walked).toBe(8 * 10 + 9 + 6 + 1 + Object.keys(CALL_PATHS).length);
  });

  it("delete-campaign shows the campaign level it needs besides write; the tag calls take admins only", () => {
    expect(doc.paths["/internal/delete-campaign"].delete).toMatchObject({ "x-service-access-level": "write", "x-service-also-access-levels": ["campaign"] });
    expect(doc.paths["/internal/delete-campaign-group"].delete["x-service-access-level"]).toBe("delete");
    expect(doc.paths["/auth/delete-tag"].delete).toMatchObject({ security: [{ sessionUserId: [], sessionKey: [] }], "x-service-access-level": "delete" });
    // listed with the internal calls, not with login and logout
    expect(doc.paths["/auth/delete-tag"].delete.tags).toEqual(["internal"]);
    expect(doc.paths["/auth/login"].post.tags).toEqual(["auth"]);
  });

  it("login is public and logout takes an admin or shopper session", () => {
    expect(doc.paths["/auth/login"].post.security).toEqual([]);
    expect(doc.paths["/auth/logout"].delete.security).toEqual([
      { sessionUserId: [], sessionKey: [] },
      { appHostname: [], sessionUserId: [], sessionKey: [] },
    ]);
  });

  it("shows the spec's rules: super-user writes are for admins only, shoppers read businesses", () => {
    const patchRange = doc.paths["/resources/allowed_ip_range/{id}"].patch;
    expect(patchRange.security).toEqual([{ sessionUserId: [], sessionKey: [] }]);
    expect(patchRange["x-service-access-level"]).toBe("super_user");
    const business = doc.paths["/resources/businesses"].get.security;
    expect(business).toContainEqual({ readBusinessesToken: [] });
    expect(business).toContainEqual({ appHostname: [], shopperToken: [] });
    expect(doc.paths["/resources/access_tokens"].get.security).toEqual([{ sessionUserId: [], sessionKey: [] }]);
    expect(doc.paths["/resources/schema"].get.security).toEqual([]);
  });

  it("defines every scheme it names", () => {
    const schemes = Object.keys(doc.components.securitySchemes).sort();
    const named = new Set<string>();
    for (const item of Object.values<Record<string, any>>(doc.paths)) {
      for (const op of Object.values(item)) for (const req of op.security ?? []) for (const k of Object.keys(req)) named.add(k);
    }
    expect([...named].sort()).toEqual(schemes);
  });
});
