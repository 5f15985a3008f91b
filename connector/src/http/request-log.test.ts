/**
 * The connector's request lines (http/request-log.ts) over HTTP, captured through the injected
 * logger: fields, route patterns (never the email in a path), request ids (generated, or a trusted
 * proxy's, echoed), and nothing secret.
 */
import { request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApp } from "../app.ts";
import { startHarness, TEST_TOKEN, type Harness } from "../test-support/harness.ts";
import type { RequestLogLine } from "./request-log.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const PREFIX = "/rest/V1/service/customer";

let h: Harness;
beforeAll(async () => {
  h = await startHarness("request_log");
  const res = await h.call("POST", `${PREFIX}/update`, { user_info: { username: "logged@example.com", password: "Logged-pass1" }, create_if_not_exists: true });
  expect(res.status).toBe(200);
}, 60_000);
afterAll(() => h.close());

/** A connector app on the harness's store whose peers (127.0.0.1) are or are not trusted proxies. */
async function serve(trustedProxies: string[]) {
  const logger = { error: vi.fn(), warn: vi.fn(), info: vi.fn() };
  const app = createApp({ db: h.database.db, config: { bodyLimitBytes: 1024 * 1024, trustedProxies }, logger });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  /** Sends one request; returns the response, its text and the request lines logged (after the response ended). */
  const send = async (path: string, init: RequestInit = {}) => {
    logger.info.mockClear();
    const res = await fetch(base + path, init);
    const text = await res.text();
    await vi.waitFor(() => expect(logger.info).toHaveBeenCalled());
    const lines = logger.info.mock.calls.filter(([, m]) => m === "request").map(([f]) => f as RequestLogLine);
    return { res, text, lines };
  };
  return { logger, send, base, close: () => new Promise((resolve) => server.close(resolve)) };
}

let trusting: Awaited<ReturnType<typeof serve>>;
let strict: Awaited<ReturnType<typeof serve>>;
beforeAll(async () => {
  trusting = await serve(["127.0.0.0/8"]);
  strict = await serve(["10.0.0.0/8"]);
});
afterAll(async () => {
  await trusting.close();
  await strict.close();
});

const auth = { authorization: `Bearer ${TEST_TOKEN}` };

describe("the request line", () => {
  it("is one line with request id, method, route pattern, status and duration, and no email from the path", async () => {
    const { res, lines } = await strict.send(`${PREFIX}/user_info_by_email/logged@example.com?x=1`, { headers: auth });
    expect(res.status).toBe(200);
    expect(lines).toEqual([
      { requestId: res.headers.get("x-request-id"), method: "GET", route: `${PREFIX}/user_info_by_email/:customerEmail`, status: 200, durationMs: expect.any(Number) },
    ]);
    expect(JSON.stringify(lines)).not.toContain("logged@example.com");
  });

  it("names the route of a request refused in its handler, and the path when no route matched", async () => {
    const refused = await strict.send(`${PREFIX}/user_info/not-a-number`, { headers: auth });
    expect(refused.res.status).toBe(400);
    expect(refused.lines).toEqual([expect.objectContaining({ route: `${PREFIX}/user_info/:customerId`, status: 400 })]);
    const unknown = await strict.send("/no/such/path?q=1");
    expect(unknown.lines).toEqual([expect.objectContaining({ route: null, path: "/no/such/path", status: 404 })]);
    const health = await strict.send("/health");
    expect(health.lines).toEqual([expect.objectContaining({ route: "/health", status: 200 })]);
  });

  it("is written once, marked aborted, for a client that goes away before the response", async () => {
    strict.logger.info.mockClear();
    const { port } = new URL(strict.base);
    const headers = { ...auth, "content-type": "application/json", "content-length": "100000" };
    const req = httpRequest({ host: "127.0.0.1", port, method: "POST", path: `${PREFIX}/update`, headers });
    req.on("error", () => {});
    req.write('{"user_info":');
    await new Promise((resolve) => setTimeout(resolve, 200));
    req.destroy();
    await vi.waitFor(() => expect(strict.logger.info).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(strict.logger.info.mock.calls).toEqual([[expect.objectContaining({ method: "POST", aborted: true }), "request"]]);
  });
});

describe("the request id", () => {
  it("is generated (a UUID), different per request, and echoed", async () => {
    const a = await strict.send("/health");
    const b = await strict.send("/health");
    expect(a.res.headers.get("x-request-id")).toMatch(UUID);
    expect(b.res.headers.get("x-request-id")).toMatch(UUID);
    expect(a.res.headers.get("x-request-id")).not.toBe(b.res.headers.get("x-request-id"));
    expect(a.lines[0]!.requestId).toBe(a.res.headers.get("x-request-id"));
  });

  it("is a trusted proxy's X-Request-Id, echoed and logged", async () => {
    const { res, lines } = await trusting.send("/health", { headers: { "X-Request-Id": "edge-7f3a.42" } });
    expect(res.headers.get("x-request-id")).toBe("edge-7f3a.42");
    expect(lines[0]!.requestId).toBe("edge-7f3a.42");
  });

  it("ignores X-Request-Id from a peer that is no trusted proxy, and a proxy's id that is not a plain token", async () => {
    const planted = await strict.send("/health", { headers: { "X-Request-Id": "planted", "X-Forwarded-For": "10.0.0.5" } });
    expect(planted.res.headers.get("x-request-id")).toMatch(UUID);
    const bad = ["two words", "x".repeat(129), '"quoted"'];
    expect(bad).toHaveLength(3);
    for (const id of bad) {
      const { res } = await trusting.send("/health", { headers: { "X-Request-Id": id } });
      expect(res.headers.get("x-request-id"), id).toMatch(UUID);
    }
  });

  it("is in the unexpected-error line too", async () => {
    const logger = { error: vi.fn(), warn: vi.fn(), info: vi.fn() };
    const broken = new Proxy({}, { get: () => () => { throw new Error("database unreachable"); } }) as never;
    const app = createApp({ db: broken, config: { bodyLimitBytes: 1024 }, logger });
    const server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${PREFIX}/user_info/1`, { headers: auth });
      expect(res.status).toBe(500);
      expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ requestId: res.headers.get("x-request-id") }), "connector: unexpected error");
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("secrets", () => {
  it("an authenticate request's log lines hold neither the password nor the integration token", async () => {
    const { res, text } = await strict.send(`${PREFIX}/authenticate`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ email: "logged@example.com", password: "Logged-pass1" }),
    });
    expect([res.status, JSON.parse(text).authenticated]).toEqual([200, true]);
    const everything = JSON.stringify([strict.logger.info.mock.calls, strict.logger.warn.mock.calls, strict.logger.error.mock.calls]);
    expect(strict.logger.info).toHaveBeenCalledOnce();
    for (const secret of ["Logged-pass1", TEST_TOKEN, "Bearer", "logged@example.com"]) expect(everything).not.toContain(secret);
  });
});
