/**
 * One log line per request (http/request-log.ts), captured through the injected logger: its
 * fields, the request id (generated, or a trusted proxy's, echoed either way), and nothing secret.
 */
import type { Context } from "hono";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startCore, type TestCore } from "../../../test/helpers/core.ts";
import { createAdmin } from "../db/seed.ts";
import type { RequestLogLine } from "./request-log.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const PROXY = "10.0.0.5";
const STRANGER = "203.0.113.9";

const logger = { error: vi.fn(), warn: vi.fn(), info: vi.fn() };
let core: TestCore;
beforeAll(async () => {
  // The socket peer comes from the x-test-peer header, so each request picks its own.
  const clientAddress = (c: Context) => c.req.header("x-test-peer");
  core = await startCore({ logger, clientAddress, env: { TRUSTED_PROXIES: "10.0.0.0/8" } });
}, 60_000);
afterAll(() => core.close());

/** Sends one request and returns the response with the request lines it logged. */
async function logged(path: string, init: RequestInit = {}) {
  logger.info.mockClear();
  const res = await core.request(path, init);
  const lines = logger.info.mock.calls.filter(([, message]) => message === "request").map(([fields]) => fields as RequestLogLine);
  return { res, lines };
}

describe("the request line", () => {
  it("is one line with the request id, method, route, path, status and duration", async () => {
    const admin = await core.admin({ read: true });
    const { res, lines } = await logged(`/resources/business/123456?secret=not-logged`, { headers: admin.headers });
    // an unknown parameter is refused (400); the query string is not logged either way
    expect(res.status).toBe(400);
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line).toEqual({
      requestId: res.headers.get("x-request-id"),
      method: "GET",
      route: "/resources/business/:id",
      path: "/resources/business/123456",
      status: 400,
      durationMs: expect.any(Number),
    });
    expect(line!.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("has no route for a path nothing serves, and logs errors answered by the error handler too", async () => {
    const unknown = await logged("/no/such/path");
    expect(unknown.lines).toEqual([expect.objectContaining({ route: null, path: "/no/such/path", status: 404 })]);
    const probe = await logged("/health", { headers: { "X-Service-Session-User-ID": "x" } });
    expect(probe.lines).toEqual([expect.objectContaining({ route: "/health", status: 200 })]);
    const bad = await logged("/resources/businesses", { headers: { "X-Service-Session-User-ID": "1", "X-Service-Session-Key": "nope", "X-Service-Chain-ID": "1" } });
    expect(bad.lines).toEqual([expect.objectContaining({ route: "/resources/businesses", status: 401 })]);
  });
});

describe("the request id", () => {
  it("is generated (a UUID) and echoed when the request has none", async () => {
    const a = await logged("/health");
    const b = await logged("/health");
    const [idA, idB] = [a.res.headers.get("x-request-id"), b.res.headers.get("x-request-id")];
    expect(idA).toMatch(UUID);
    expect(idB).toMatch(UUID);
    expect(idA).not.toBe(idB);
    expect(a.lines[0]!.requestId).toBe(idA);
  });

  it("is a trusted proxy's X-Request-Id, echoed and logged", async () => {
    const { res, lines } = await logged("/health", { headers: { "x-test-peer": PROXY, "X-Request-Id": "edge-7f3a.42" } });
    expect(res.headers.get("x-request-id")).toBe("edge-7f3a.42");
    expect(lines[0]!.requestId).toBe("edge-7f3a.42");
  });

  it("ignores X-Request-Id from anyone else, even naming a proxy in X-Forwarded-For", async () => {
    const cases: Array<Record<string, string>> = [
      { "X-Request-Id": "planted" },
      { "x-test-peer": STRANGER, "X-Request-Id": "planted" },
      { "x-test-peer": STRANGER, "X-Forwarded-For": PROXY, "X-Request-Id": "planted" },
    ];
    expect(cases).toHaveLength(3);
    for (const headers of cases) {
      const { res, lines } = await logged("/health", { headers });
      expect(res.headers.get("x-request-id"), JSON.stringify(headers)).toMatch(UUID);
      expect(lines[0]!.requestId).toBe(res.headers.get("x-request-id"));
    }
  });

  it("ignores a trusted proxy's id that is not a plain token (spaces, control characters, over 128 characters)", async () => {
    const bad = ["two words", "line\tbreak", "x".repeat(129), '"quoted"'];
    expect(bad).toHaveLength(4);
    for (const id of bad) {
      const { res } = await logged("/health", { headers: { "x-test-peer": PROXY, "X-Request-Id": id } });
      expect(res.headers.get("x-request-id"), id).toMatch(UUID);
    }
  });

  it("is in the response of a request refused with an error", async () => {
    const res = await core.request("/resources/businesses", { headers: { "X-Service-Session-User-ID": "1", "X-Service-Session-Key": "nope" } });
    expect(res.status).toBe(401);
    expect(res.headers.get("x-request-id")).toMatch(UUID);
  });
});

describe("secrets", () => {
  it("a login's log lines hold neither the password nor the session key; later requests not the key or Authorization", async () => {
    const password = "correct-horse-battery-staple-9";
    await createAdmin(core.db, { username: "logged-admin@example.com", password });
    logger.info.mockClear();
    const login = await core.json("/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "logged-admin@example.com", password }),
    });
    expect(login.status).toBe(200);
    const key = login.body.results.session_info.session_key as string;
    const headers = {
      "X-Service-Session-User-ID": String(login.body.results.session_info.session_user_id),
      "X-Service-Session-Key": key,
      Authorization: "Bearer 0b5a3a51-1111-4222-8333-944455556666:token-secret-value",
    };
    await core.request(`/auth/logout?password=${password}`, { method: "DELETE", headers });
    const everything = JSON.stringify([logger.info.mock.calls, logger.warn.mock.calls, logger.error.mock.calls]);
    expect(logger.info.mock.calls.length).toBe(2);
    for (const secret of [password, key, "token-secret-value", "Bearer"]) expect(everything).not.toContain(secret);
  });
});
