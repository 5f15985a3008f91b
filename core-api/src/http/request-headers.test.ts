/**
 * Request headers read from the raw header list on Node (http/request-headers.ts) read as
 * `Headers.get` reads them, and the app served by @hono/node-server answers alike through them:
 * repeated headers joined, whitespace trimmed, names in any case, and the JSON responses built
 * with the request id (http/json-response.ts) carry the same headers as those it is added to.
 */
import net, { type AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import type { Context } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestAdmin, type TestCore } from "../../../test/helpers/core.ts";
import { createApp } from "../app.ts";
import { loadCoreConfig } from "../config.ts";
import { insertBusiness } from "../businesses/business-repository.ts";
import { requestHeader } from "./request-headers.ts";

/** A context as @hono/node-server hands it over: the raw header list in env.incoming. */
function nodeContext(rawHeaders: string[], fallback?: Headers): Context {
  return { env: { incoming: { rawHeaders } }, req: { header: (name: string) => fallback?.get(name) ?? undefined } } as unknown as Context;
}

describe("requestHeader on Node", () => {
  const cases: Array<[string, string[]]> = [
    ["one header", ["Host", "example.com", "X-Service-Chain-ID", "12"]],
    ["names in any case", ["x-service-chain-id", "12", "X-SERVICE-SESSION-KEY", "abc"]],
    ["a repeated header, joined in order", ["X-Forwarded-For", "10.0.0.1", "x-forwarded-for", "10.0.0.2", "X-Forwarded-For", "10.0.0.3"]],
    ["a repeated Authorization (joined, as Headers joins it)", ["Authorization", "Bearer a", "authorization", "Bearer b"]],
    ["leading and trailing whitespace", ["X-Service-Chain-ID", " \t12\t ", "X-Service-Session-Key", "\tk e y "]],
    ["an empty value", ["X-Service-App-Hostname", "", "X-Service-App-Hostname", "  "]],
    ["an HTTP/2 pseudo-header", [":path", "/x", "X-A", "1"]],
  ];
  for (const [label, raw] of cases) {
    it(`reads ${label} as Headers.get does`, () => {
      const pairs: Array<[string, string]> = [];
      for (let i = 0; i < raw.length; i += 2) if (!raw[i]!.startsWith(":")) pairs.push([raw[i]!, raw[i + 1]!]);
      const headers = new Headers(pairs);
      const c = nodeContext(raw);
      for (const name of ["host", "x-service-chain-id", "x-service-session-key", "x-forwarded-for", "authorization", "x-service-app-hostname", "x-a", "absent"]) {
        expect(requestHeader(c, name)).toBe(headers.get(name) ?? undefined);
      }
      // node-server leaves pseudo-headers out of the Headers it builds (Headers refuses the name)
      expect(requestHeader(c, ":path")).toBeUndefined();
    });
  }

  it("is c.req.header where the runtime hands over no raw header list (Deno, app.request)", () => {
    const c = { env: undefined, req: { header: (name: string) => (name === "x-a" ? "from hono" : undefined) } } as unknown as Context;
    expect(requestHeader(c, "x-a")).toBe("from hono");
    expect(requestHeader(c, "x-b")).toBeUndefined();
  });
});

describe("the app over HTTP on @hono/node-server", () => {
  let core: TestCore;
  let admin: TestAdmin;
  let writer: TestAdmin;
  let server: ServerType;
  let port: number;
  let id: number;

  beforeAll(async () => {
    core = await startCore();
    admin = await core.admin({ read: true });
    writer = await core.admin({ write: true });
    id = (await insertBusiness(core.db, { chainId: core.chainId, name: "Over The Wire", ownerCode: "WIRE-1" }, new Date("2026-11-21T10:00:00Z"))).id;
    const app = createApp({ db: core.db, config: loadCoreConfig({ CORE_DB_NAME: core.dbName }), logger: { error() {}, warn() {}, info() {} } as never });
    server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
    await new Promise((resolve) => server.once("listening", resolve));
    port = (server.address() as AddressInfo).port;
  }, 60_000);
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await core.close();
  });

  /** Sends `lines` (header lines) as one raw GET request and returns the response's head and body. */
  function rawGet(path: string, lines: string[]): Promise<{ head: string; body: string }> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${lines.map((l) => `${l}\r\n`).join("")}\r\n`);
      });
      let data = "";
      socket.setEncoding("utf8");
      socket.on("data", (chunk) => (data += chunk));
      socket.on("end", () => {
        const at = data.indexOf("\r\n\r\n");
        resolve({ head: data.slice(0, at), body: data.slice(at + 4) });
      });
      socket.on("error", reject);
    });
  }

  /** Sends one raw POST with `lines` (header lines, Content-Length added) and `body`; returns the response's head and body. */
  function rawPost(path: string, lines: string[], body: string): Promise<{ head: string; body: string }> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        const head = [...lines, `Content-Length: ${Buffer.byteLength(body)}`].map((l) => `${l}\r\n`).join("");
        socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${head}\r\n${body}`);
      });
      let data = "";
      socket.setEncoding("utf8");
      socket.on("data", (chunk) => (data += chunk));
      socket.on("end", () => {
        const at = data.indexOf("\r\n\r\n");
        resolve({ head: data.slice(0, at), body: data.slice(at + 4) });
      });
      socket.on("error", reject);
    });
  }

  it("reads the body's Content-Type and Content-Length from the raw header list: odd case and whitespace, JSON and form", async () => {
    const session = Object.entries(writer.headers).map(([k, v]) => `${k}: ${v}`);
    const json = await rawPost("/internal/add-business", [...session, "CONTENT-TYPE: \tapplication/json; charset=utf-8 "], JSON.stringify({ chain_id: core.chainId, name: "Wire JSON", owner_code: "WIRE-J" }));
    expect([json.head.split(" ")[1], JSON.parse(json.body).results?.business?.name]).toEqual(["200", "Wire JSON"]);
    const form = await rawPost("/internal/add-business", [...session, "content-type:  application/x-www-form-urlencoded"], `chain_id=${core.chainId}&name=Wire+Form&owner_code=WIRE-F`);
    expect([form.head.split(" ")[1], JSON.parse(form.body).results?.business?.name]).toEqual(["200", "Wire Form"]);
  });

  const sessionLines = () => Object.entries(admin.headers).map(([k, v]) => `${k}: ${v}`);

  it("answers a read with the same body as app.request, and its head carries content type, request id and length once each", async () => {
    const wire = await rawGet(`/resources/business/${id}`, sessionLines());
    const inProcess = await core.request(`/resources/business/${id}`, { headers: admin.headers });
    expect(wire.head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(wire.body).toBe(await inProcess.text());
    const names = wire.head.split("\r\n").slice(1).map((l) => l.slice(0, l.indexOf(":")));
    expect(names.filter((n) => n === "content-type")).toHaveLength(1);
    expect(names.filter((n) => n === "x-request-id")).toHaveLength(1);
    expect(names.filter((n) => n === "Content-Length")).toHaveLength(1);
    expect(names.indexOf("content-type")).toBeLessThan(names.indexOf("x-request-id"));
    expect(wire.head).toContain("content-type: application/json\r\n");
    expect(wire.head).toMatch(/\r\nx-request-id: [0-9a-f-]{36}(\r\n|$)/);
  });

  it("reads headers with odd case and whitespace, and refuses a repeated session key as Headers would join it", async () => {
    const spaced = Object.entries(admin.headers).map(([name, value]) => `${name.toUpperCase()}:  \t${value}\t `);
    const odd = await rawGet(`/resources/business/${id}`, spaced);
    expect(odd.head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    const twice = await rawGet(`/resources/business/${id}`, [...sessionLines(), `X-Service-Session-Key: ${admin.headers["X-Service-Session-Key"]}`]);
    expect(twice.head).toMatch(/^HTTP\/1\.1 401 /);
    expect(JSON.parse(twice.body).error.name).toBe("no_valid_session");
  });
});
