/**
 * The connector's request lines (pino-http, http/http-log.ts) over HTTP, as the JSON pino writes
 * through the injected logger: fields, route patterns (never the email in a path), request ids
 * (generated, or a trusted proxy's, echoed), and nothing secret, also when a handler logs the
 * request object.
 */
import { request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApp } from "../app.ts";
import { captureLog } from "../test-support/log-capture.ts";
import { startHarness, TEST_TOKEN, type Harness } from "../test-support/harness.ts";
import { httpLog, type RequestLogLine } from "./http-log.ts";
import { parseTrustedProxies } from "@service/shared/node";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const PREFIX = "/rest/V1/service/customer";

let h: Harness;
beforeAll(async () => {
  h = await startHarness("request_log");
  const res = await h.call("POST", `${PREFIX}/update`, { user_info: { username: "logged@example.com", password: "Logged-pass1" }, create_if_not_exists: true });
  expect(res.status).toBe(200);
}, 60_000);
afterAll(() => h.close());

/**
 * Serves `app` on an ephemeral port of 127.0.0.1. `nextRequest()` watches the next request the
 * server receives: `received` resolves when it arrived, `closed` once the server closed its
 * response and every `close` listener of it ran (pino-http writes its request line from one), so
 * after `closed` a line the request logs is there.
 */
async function listen(app: express.Express) {
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const nextRequest = () => {
    let received!: () => void;
    let closed!: () => void;
    const next = { received: new Promise<void>((r) => { received = r; }), closed: new Promise<void>((r) => { closed = r; }) };
    server.once("request", (_req, res) => {
      received();
      res.once("close", () => setImmediate(closed));
    });
    return next;
  };
  return { base, nextRequest, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** A connector app on the harness's store whose peers (127.0.0.1) are or are not trusted proxies. */
async function serve(trustedProxies: string[], level: "info" | "warn" = "info") {
  const log = captureLog(level);
  const app = createApp({ db: h.database.db, config: { bodyLimitBytes: 1024 * 1024, trustedProxies }, logger: log.logger });
  const { base, nextRequest, close } = await listen(app);
  const requestLines = () => log.lines.filter((l) => l.message === "request").map((l) => l.fields as unknown as RequestLogLine);
  /** Sends one request; returns the response, its text and the request lines logged (after the response ended). */
  const send = async (path: string, init: RequestInit = {}) => {
    log.clear();
    const res = await fetch(base + path, init);
    const text = await res.text();
    await vi.waitFor(() => expect(requestLines()).not.toEqual([]));
    return { res, text, lines: requestLines() };
  };
  return { log, send, base, nextRequest, close };
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
  it("is one JSON line with request id, method, route pattern, status and duration, and no email from the path", async () => {
    const { res, lines } = await strict.send(`${PREFIX}/user_info_by_email/logged@example.com?x=1`, { headers: auth });
    expect(res.status).toBe(200);
    expect(lines).toEqual([
      { requestId: res.headers.get("x-request-id"), method: "GET", route: `${PREFIX}/user_info_by_email/:customerEmail`, status: 200, durationMs: expect.any(Number) },
    ]);
    expect(strict.log.lines).toHaveLength(1);
    const [line] = strict.log.lines;
    // pino's own fields around them: level info (30), the logger's name, the message `request`
    expect(line!.json).toEqual({
      level: 30, time: expect.any(Number), pid: process.pid, hostname: expect.any(String), name: "connector", msg: "request", ...lines[0],
    });
    expect(Number.isInteger(lines[0]!.durationMs) && lines[0]!.durationMs >= 0).toBe(true);
    expect(line!.text).not.toContain("logged@example.com");
  });

  it("names the route of a request refused in its handler, and the path when no route matched", async () => {
    const refused = await strict.send(`${PREFIX}/user_info/not-a-number`, { headers: auth });
    expect(refused.res.status).toBe(400);
    expect(refused.lines).toEqual([expect.objectContaining({ route: `${PREFIX}/user_info/:customerId`, status: 400 })]);
    expect(refused.lines[0]).not.toHaveProperty("path");
    const unknown = await strict.send("/no/such/path?q=1");
    expect(unknown.lines).toEqual([expect.objectContaining({ route: null, path: "/no/such/path", status: 404 })]);
    const health = await strict.send("/health");
    expect(health.lines).toEqual([expect.objectContaining({ route: "/health", status: 200 })]);
  });

  it("redacts the email of a path no route took", async () => {
    const { res, lines } = await strict.send(`${PREFIX}/user_info_by_email/1/stray@example.com/extra`, { headers: auth });
    expect(res.status).toBe(404);
    expect(lines).toEqual([expect.objectContaining({ route: null, path: `${PREFIX}/user_info_by_email/[redacted]`, status: 404 })]);
    const other = await strict.send("/somewhere/else/stray%40example.com", { headers: auth });
    expect(other.lines).toEqual([expect.objectContaining({ route: null, path: "/somewhere/else/[redacted]" })]);
    expect(strict.log.lines.map((l) => l.text).join("")).not.toMatch(/stray/);
  });

  it("is written once, marked aborted, for a client that goes away before the response", async () => {
    const own = await serve(["10.0.0.0/8"]);
    try {
      const { port } = new URL(own.base);
      const headers = { ...auth, "content-type": "application/json", "content-length": "100000" };
      const next = own.nextRequest();
      const req = httpRequest({ host: "127.0.0.1", port, method: "POST", path: `${PREFIX}/update`, headers });
      req.on("error", () => {});
      req.write('{"user_info":');
      await next.received;
      // the server is reading the body when the client goes
      await new Promise((resolve) => setTimeout(resolve, 200));
      req.destroy();
      await next.closed;
      const aborted = [["info", "request", expect.objectContaining({ method: "POST", route: null, aborted: true })]];
      expect(own.log.lines.map((l) => [l.level, l.message, l.fields])).toEqual(aborted);
      // a later request's line comes after the aborted one's, and nothing else came between them
      expect((await fetch(`${own.base}/health`)).status).toBe(200);
      await vi.waitFor(() => expect(own.log.lines).toHaveLength(2));
      expect(own.log.lines.map((l) => [l.level, l.message, l.fields])).toEqual([
        ...aborted, ["info", "request", expect.objectContaining({ route: "/health", status: 200 })],
      ]);
    } finally {
      await own.close();
    }
  });

  it("follows LOG_LEVEL: at warn, no request lines", async () => {
    const quiet = await serve(["10.0.0.0/8"], "warn");
    try {
      const next = quiet.nextRequest();
      const res = await fetch(`${quiet.base}/health`);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-request-id")).toMatch(UUID);
      await next.closed;
      expect(quiet.log.lines).toEqual([]);
    } finally {
      await quiet.close();
    }
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
    expect(planted.lines[0]!.requestId).toBe(planted.res.headers.get("x-request-id"));
    const bad = ["two words", "x".repeat(129), '"quoted"'];
    expect(bad).toHaveLength(3);
    for (const id of bad) {
      const { res, lines } = await trusting.send("/health", { headers: { "X-Request-Id": id } });
      expect(res.headers.get("x-request-id"), id).toMatch(UUID);
      expect(lines[0]!.requestId, id).toBe(res.headers.get("x-request-id"));
    }
  });

  it("is in the unexpected-error line too", async () => {
    const log = captureLog();
    const broken = new Proxy({}, { get: () => () => { throw new Error("database unreachable"); } }) as never;
    const app = createApp({ db: broken, config: { bodyLimitBytes: 1024 }, logger: log.logger });
    const served = await listen(app);
    try {
      const res = await fetch(`${served.base}${PREFIX}/user_info/1`, { headers: auth });
      expect(res.status).toBe(500);
      const id = res.headers.get("x-request-id");
      expect(log.lines.filter((l) => l.level === "error")).toEqual([
        expect.objectContaining({ message: "connector: unexpected error", fields: expect.objectContaining({ requestId: id }) }),
      ]);
      await vi.waitFor(() => expect(log.lines.filter((l) => l.message === "request")).toHaveLength(1));
      expect(log.lines.find((l) => l.message === "request")).toMatchObject({ level: "info", fields: { requestId: id, status: 500 } });
    } finally {
      await served.close();
    }
  });
});

describe("secrets", () => {
  it("the unexpected-error line of a read by email names the path without the email", async () => {
    const log = captureLog();
    const broken = new Proxy({}, { get: () => () => { throw new Error("database unreachable"); } }) as never;
    const app = createApp({ db: broken, config: { bodyLimitBytes: 1024 }, logger: log.logger });
    const served = await listen(app);
    try {
      const res = await fetch(`${served.base}${PREFIX}/user_info_by_email/1/broken.read@example.com`, { headers: auth });
      expect(res.status).toBe(500);
      await vi.waitFor(() => expect(log.lines.filter((l) => l.message === "request")).toHaveLength(1));
      expect(log.lines.find((l) => l.level === "error")!.fields).toMatchObject({ method: "GET", path: `${PREFIX}/user_info_by_email/[redacted]` });
      expect(log.lines.map((l) => l.text).join("")).not.toContain("broken.read");
    } finally {
      await served.close();
    }
  });

  it("a request a handler logs through req.log has the email out of its url and params", async () => {
    const log = captureLog();
    const app = express();
    app.use(httpLog({ logger: log.logger, trustedProxies: parseTrustedProxies([]) }));
    app.get(`${PREFIX}/user_info_by_email/:serviceChainId/:customerEmail`, (req, res) => {
      req.log.info({ req }, "handler saw");
      res.status(204).end();
    });
    const served = await listen(app);
    try {
      const res = await fetch(`${served.base}${PREFIX}/user_info_by_email/3/handler.logged@example.com?q=1`);
      expect(res.status).toBe(204);
      await vi.waitFor(() => expect(log.lines.map((l) => l.message)).toContain("request"));
      expect(log.lines.find((l) => l.message === "handler saw")!.fields).toMatchObject({
        req: { method: "GET", url: `${PREFIX}/user_info_by_email/[redacted]`, params: { serviceChainId: "3", customerEmail: "[redacted]" } },
      });
      expect(log.lines.map((l) => l.text).join("")).not.toContain("handler.logged");
    } finally {
      await served.close();
    }
  });

  it("an authenticate request's log lines hold neither the password nor the integration token", async () => {
    const { res, text } = await strict.send(`${PREFIX}/authenticate`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json", cookie: "PHPSESSID=cookie-secret-1" },
      body: JSON.stringify({ email: "logged@example.com", password: "Logged-pass1" }),
    });
    expect([res.status, JSON.parse(text).authenticated]).toEqual([200, true]);
    expect(strict.log.lines).toHaveLength(1);
    const everything = strict.log.lines.map((l) => l.text).join("");
    for (const secret of ["Logged-pass1", TEST_TOKEN, "Bearer", "cookie-secret-1", "logged@example.com"]) expect(everything).not.toContain(secret);
  });

  it("are redacted when a handler logs the request, response and body through req.log", async () => {
    const log = captureLog();
    const app = express();
    app.use(httpLog({ logger: log.logger, trustedProxies: parseTrustedProxies([]) }));
    app.post("/echo", express.json(), (req, res) => {
      res.setHeader("set-cookie", "session=set-cookie-secret");
      req.log.info({ req, body: req.body, user_info: req.body.user_info }, "handler saw");
      res.status(204).end();
      res.log.info({ res }, "handler answered");
    });
    const served = await listen(app);
    try {
      const res = await fetch(`${served.base}/echo`, {
        method: "POST",
        headers: { authorization: "Bearer header-secret", cookie: "sid=cookie-secret-2", "content-type": "application/json" },
        body: JSON.stringify({ password: "body-secret", user_info: { password: "nested-secret", name: "Ann" } }),
      });
      expect(res.status).toBe(204);
      await vi.waitFor(() => expect(log.lines.map((l) => l.message)).toContain("request"));
      const id = res.headers.get("x-request-id");
      const saw = log.lines.find((l) => l.message === "handler saw")!;
      // req.log is pino-http's: bound to the request id; its request serializer is pino's standard one
      expect(saw.fields).toMatchObject({
        requestId: id,
        req: { method: "POST", url: "/echo", headers: { authorization: "[Redacted]", cookie: "[Redacted]", "content-type": "application/json" } },
        body: { password: "[Redacted]", user_info: { password: "[Redacted]", name: "Ann" } },
        user_info: { password: "[Redacted]", name: "Ann" },
      });
      expect(log.lines.find((l) => l.message === "handler answered")!.fields).toMatchObject({
        requestId: id, res: { statusCode: 204, headers: { "set-cookie": "[Redacted]" } },
      });
      const everything = log.lines.map((l) => l.text).join("");
      for (const secret of ["header-secret", "cookie-secret-2", "set-cookie-secret", "body-secret", "nested-secret"]) expect(everything).not.toContain(secret);
    } finally {
      await served.close();
    }
  });
});
