/**
 * How paths route, as older clients and a newcomer's curl send them: every internal call under
 * either prefix with or without `.json`, a known call with another method (13, named for the
 * method it needs), a path nothing serves (544), and JSON answers ending with a newline.
 */
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestAdmin, type TestCore } from "../../../test/helpers/core.ts";
import { createApp } from "../app.ts";
import { loadCoreConfig } from "../config.ts";
import { createAdmin, grantAccess } from "../db/seed.ts";

let core: TestCore;
let reader: TestAdmin;
beforeAll(async () => {
  core = await startCore();
  reader = await core.admin({ read: true });
  const id = await createAdmin(core.db, { username: "older@example.com", password: "older-secret" });
  await grantAccess(core.db, id, core.chainId, { read: true });
});
afterAll(() => core.close());

const login = (path: string) =>
  core.json(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "older@example.com", password: "older-secret" }),
  });

describe("the spellings of an internal call", () => {
  it("POST /auth/login.json logs in and DELETE /auth/logout.json logs out", async () => {
    const { status, body } = await login("/auth/login.json");
    expect([status, body.results.result_type]).toEqual([200, "login"]);
    const { session_user_id, session_key } = body.results.session_info;
    const session = { "X-Service-Session-User-ID": String(session_user_id), "X-Service-Session-Key": session_key };
    const out = await core.json("/auth/logout.json", { method: "DELETE", headers: session });
    expect([out.status, out.body.results.result_type]).toEqual([200, "logout"]);
    // the session is gone: the same headers are refused now
    const after = await core.json(`/internal/get-businesses?chain_id=${core.chainId}`, { headers: { ...session, "X-Service-Chain-ID": String(core.chainId) } });
    expect([after.status, after.body.error.code]).toEqual([401, 6]);
  });

  it("serves login and logout under /internal/ too", async () => {
    for (const path of ["/internal/login", "/internal/login.json"]) {
      const { status, body } = await login(path);
      expect([status, body.results.result_type], path).toEqual([200, "login"]);
    }
  });

  it("serves every internal call under /internal/ and /auth/, with and without .json", async () => {
    const spellings = ["/internal/get-businesses", "/internal/get-businesses.json", "/auth/get-businesses", "/auth/get-businesses.json",
      "/auth/get-tags", "/auth/get-tags.json", "/internal/get-tags", "/internal/get-tags.json"];
    for (const path of spellings) {
      const { status, body } = await core.json(`${path}?chain_id=${core.chainId}`, { headers: reader.headers });
      expect([status, body.result?.code], path).toEqual([200, 1]);
      expect(body.results.result_type, path).toBe(path.replace(/^\/\w+\/|\.json$/g, ""));
    }
  });

  it("documents each call once: the extra spellings are served, not listed", async () => {
    const { body } = await core.json("/resources/schema");
    const paths = Object.keys(body.paths as Record<string, unknown>);
    expect(paths).toContain("/auth/login");
    expect(paths.filter((p) => p.endsWith(".json"))).toEqual([]);
    expect(paths.filter((p) => p.endsWith("/login"))).toEqual(["/auth/login"]);
  });
});

describe("a known call with another method: 13 (405), named for the method it needs", () => {
  const cases: Array<[method: string, path: string, name: string]> = [
    ["GET", "/auth/login.json", "http_request_method_non_POST_not_allowed"],
    ["GET", "/internal/login", "http_request_method_non_POST_not_allowed"],
    ["POST", "/auth/logout", "http_request_method_non_DELETE_not_allowed"],
    ["POST", "/internal/alter-business.json", "http_request_method_non_PUT_not_allowed"],
    ["GET", "/auth/add-user", "http_request_method_non_POST_not_allowed"],
    ["POST", "/internal/get-businesses.json", "http_request_method_non_GET_not_allowed"],
    ["POST", "/", "http_request_method_non_GET_not_allowed"],
    ["DELETE", "/health", "http_request_method_non_GET_not_allowed"],
    ["POST", "/resources/schema", "http_request_method_non_GET_not_allowed"],
  ];
  it.each(cases)("%s %s", async (method, path, name) => {
    const { status, body } = await core.json(path, { method, headers: reader.headers });
    expect([status, body.error.code, body.error.name]).toEqual([405, 13, name]);
    expect(body.error.description).toMatch(/only accepts the (GET|POST|PUT|DELETE) method/);
  });
});

describe("a path nothing serves: 544 resource_not_found (404), everywhere", () => {
  it.each([
    ["GET", "/robots.txt"],
    ["GET", "/no/such/path"],
    ["POST", "/internal/no-such-call"],
    ["POST", "/auth/no-such-call.json"],
    ["POST", "/auth/login.xml"],
    ["POST", "/auth/login.json.json"],
    ["POST", "/other/login"],
    ["GET", "/internal/get-businesses/extra"],
    ["GET", "/resources/no-such-thing"],
  ])("%s %s", async (method, path) => {
    const { status, body } = await core.json(path, { method });
    expect([status, body.error.code, body.error.name]).toEqual([404, 544, "resource_not_found"]);
  });
});

describe("JSON answers end with a newline", () => {
  let server: ServerType;
  let base: string;
  beforeAll(async () => {
    const app = createApp({ db: core.db, config: loadCoreConfig({ CORE_DB_NAME: core.dbName }), logger: { error() {}, warn() {}, info() {} } as never });
    server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each([
    ["a call's answer", `/internal/get-businesses?chain_id=CHAIN`, true],
    ["a resource's answer", `/resources/chain/CHAIN`, true],
    ["an error", "/no/such/path", false],
    ["the service document", "/", false],
    ["the schema document", "/resources/schema", false],
  ])("%s, over HTTP, with a Content-Length that counts the newline", async (_what, path, authenticated) => {
    const res = await fetch(base + path.replace("CHAIN", String(core.chainId)), { headers: authenticated ? reader.headers : {} });
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.at(-1)).toBe(0x0a);
    expect(bytes.at(-2)).not.toBe(0x0a);
    expect(Number(res.headers.get("content-length"))).toBe(bytes.length);
    expect(() => JSON.parse(bytes.toString("utf8"))).not.toThrow();
  });
});
