/**
 * A client that aborts its upload is answered 419 like any bad body and is not logged as an
 * unhandled error: with and without Content-Length (hono's bodyLimit reads the latter itself),
 * through app.request and over a real socket that is cut mid-body. Over Node a body with
 * Content-Length is read from the socket directly: the same parameters, the same limit.
 */
import net, { type AddressInfo } from "node:net";
import { PassThrough } from "node:stream";
import { Hono } from "hono";
import { serve, type ServerType } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startCore, type TestAdmin, type TestCore } from "../../../test/helpers/core.ts";
import { ENCODINGS, encode } from "../../../test/helpers/internal-calls.ts";
import { createApp } from "../app.ts";
import { readBodyText } from "./body-read.ts";
import { ServiceError } from "./service-error.ts";
import { loadCoreConfig } from "../config.ts";
import type { Logger } from "../logger.ts";

const logged: Array<{ fields: object; message: string }> = [];
const logger: Logger = {
  error: (fields, message) => logged.push({ fields, message }),
  warn: (fields, message) => logged.push({ fields, message }),
  // request lines are not what this test looks at
  info: () => undefined,
};
let core: TestCore;
let admin: TestAdmin;
beforeAll(async () => {
  core = await startCore({ logger });
  admin = await core.admin({ write: true });
});
afterAll(() => core.close());

/** A body stream that sends one chunk and then fails, as a request body does when the client hangs up. */
function failingBody(): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream({
    pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(new TextEncoder().encode('{"chain_id": 1, "name": "Half'));
      } else {
        controller.error(Object.assign(new Error("aborted"), { code: "ECONNRESET" }));
      }
    },
  });
}

describe("a request body that never fully arrives", () => {
  for (const framing of ["with Content-Length", "chunked (read by the body limit)"]) {
    it(`is 419 and not logged (${framing})`, async () => {
      logged.length = 0;
      const headers: Record<string, string> = { ...admin.headers, "content-type": "application/json" };
      if (framing === "with Content-Length") headers["content-length"] = "100";
      const init = { method: "POST", headers, body: failingBody(), duplex: "half" } as RequestInit;
      const { status, body } = await core.json("/internal/add-business", init);
      expect(status).toBe(400);
      expect(body.error).toEqual({
        code: 419,
        name: "parameter_invalid",
        description: "The request body could not be read: the connection ended before it arrived.",
      });
      expect(logged).toEqual([]);
    });
  }

  it("over a socket cut mid-body: nothing is logged, for either framing", async () => {
    const app = createApp({ db: core.db, config: loadCoreConfig({ CORE_DB_NAME: core.dbName }), logger });
    // Counted around the app: a request the app has started on, and one it has finished with.
    let started = 0;
    let finished = 0;
    const server: ServerType = serve({
      fetch: async (request, env) => {
        started++;
        try {
          return await app.fetch(request, env);
        } finally {
          finished++;
        }
      },
      port: 0,
      hostname: "127.0.0.1",
    });
    await new Promise((resolve) => server.once("listening", resolve));
    const { port } = server.address() as AddressInfo;
    logged.length = 0;
    try {
      const headerLines = Object.entries(admin.headers).map(([k, v]) => `${k}: ${v}\r\n`).join("");
      let cut = 0;
      for (const [framing, start] of [
        ["Content-Length: 100000", '{"chain_id": 1, "name": "Half'],
        ["Transfer-Encoding: chunked", '1d\r\n{"chain_id": 1, "name": "Half\r\n'],
      ] as const) {
        const socket = net.connect(port, "127.0.0.1");
        await new Promise((resolve) => socket.once("connect", resolve));
        socket.write(`POST /internal/add-business HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n${headerLines}${framing}\r\n\r\n${start}`);
        // The app has the request (its body still arriving) before the socket is cut.
        await vi.waitFor(() => expect(started).toBe(cut + 1), { timeout: 5_000, interval: 5 });
        socket.destroy();
        cut++;
      }
      expect(cut).toBe(2);
      // The app has finished both requests, so whatever it would log about them is logged by now.
      await vi.waitFor(() => expect(finished).toBe(2), { timeout: 5_000, interval: 5 });
      expect(logged).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe("bodies over Node (@hono/node-server)", () => {
  let server: ServerType;
  let port: number;
  beforeAll(async () => {
    const app = createApp({ db: core.db, config: loadCoreConfig({ CORE_DB_NAME: core.dbName }), logger });
    server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
    await new Promise((resolve) => server.once("listening", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** Sends `head` and then `parts` of the body one by one with a pause between, and answers the status and body. */
  async function rawPost(path: string, contentType: string, parts: Buffer[]): Promise<{ status: number; body: any }> {
    const length = parts.reduce((n, p) => n + p.length, 0);
    const socket = net.connect(port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    const headerLines = Object.entries(admin.headers).map(([k, v]) => `${k}: ${v}\r\n`).join("");
    socket.write(`POST ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: ${contentType}\r\n${headerLines}Content-Length: ${length}\r\n\r\n`);
    for (const part of parts) {
      socket.write(part);
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    const chunks: Buffer[] = [];
    for await (const chunk of socket) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const [head, ...rest] = text.split("\r\n\r\n");
    return { status: Number(head!.split(" ")[1]), body: JSON.parse(rest.join("\r\n\r\n")) };
  }

  for (const encoding of ENCODINGS) {
    it(`reads a ${encoding} body as app.request does`, async () => {
      const init = encode(encoding, "POST", admin.headers, { chain_id: core.chainId, name: `Über ${encoding}`, owner_code: `NODE-${encoding}` });
      const res = await fetch(`http://127.0.0.1:${port}/internal/add-business`, init);
      const body = await res.json();
      expect([res.status, body.results?.business?.name, body.results?.business?.owner_code]).toEqual([200, `Über ${encoding}`, `NODE-${encoding}`]);
    });
  }

  it("decodes a body whose UTF-8 characters arrive split over several packets, a leading BOM dropped as fetch's text() drops it", async () => {
    const json = Buffer.from(`\uFEFF${JSON.stringify({ chain_id: core.chainId, name: "Crème brûlée ☕ Ünïcode", owner_code: "SPLIT-1" })}`, "utf8");
    const cut = json.indexOf(Buffer.from("è", "utf8")) + 1; // inside the two bytes of è
    const { status, body } = await rawPost("/internal/add-business", "application/json", [json.subarray(0, cut), json.subarray(cut, cut + 9), json.subarray(cut + 9)]);
    expect([status, body.results?.business?.name]).toEqual([200, "Crème brûlée ☕ Ünïcode"]);
  });

  it("refuses a body whose Content-Length is over 1 MiB with 413 and parameter_invalid, writing nothing", async () => {
    const big = Buffer.from(JSON.stringify({ chain_id: core.chainId, name: "x".repeat(1024 * 1024 + 10), owner_code: "BIG-1" }));
    const socket = net.connect(port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    const headerLines = Object.entries(admin.headers).map(([k, v]) => `${k}: ${v}\r\n`).join("");
    socket.write(`POST /internal/add-business HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\n${headerLines}Content-Length: ${big.length}\r\n\r\n`);
    socket.write(big);
    const chunks: Buffer[] = [];
    for await (const chunk of socket) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    expect(text.split(" ")[1]).toBe("413");
    expect(JSON.parse(text.split("\r\n\r\n")[1]!).error).toMatchObject({ code: 419, name: "parameter_invalid" });
    const { body } = await core.json(`/internal/get-businesses?chain_id=${core.chainId}&owner_code=BIG-1`, { headers: admin.headers });
    expect(JSON.stringify(body)).not.toContain("BIG-1");
  });
});

describe("readBodyText with a Node request in the env", () => {
  const app = new Hono().post("/", async (c) => c.text(await readBodyText(c))).onError((err, c) =>
    c.text(err instanceof ServiceError ? `${err.errorName}: ${err.message}` : "other", 400),
  );
  const request = (headers: Record<string, string>, body: BodyInit) => new Request("http://x/", { method: "POST", headers, body, duplex: "half" } as RequestInit);

  it("reads the body from the Node request when it has a Content-Length, and answers later reads from it", async () => {
    const incoming = Object.assign(new PassThrough(), { complete: false, rawHeaders: ["Content-Length", "15"] });
    incoming.end("from the socket", () => Object.assign(incoming, { complete: true }));
    const twice = new Hono().post("/", async (c) => c.text(`${await readBodyText(c)} | ${await c.req.text()}`));
    // The length is read from the raw header list, as Node hands it over, not from the fetch Request.
    const res = await twice.fetch(request({}, "from the fetch Request"), { incoming });
    expect(await res.text()).toBe("from the socket | from the socket");
  });

  it("reads through the fetch Request without a Content-Length (chunked), or once the Node request was read or destroyed", async () => {
    const chunked = Object.assign(new PassThrough(), { complete: false, rawHeaders: ["Transfer-Encoding", "chunked"] });
    expect(await (await app.fetch(request({}, "from the fetch Request"), { incoming: chunked })).text()).toBe("from the fetch Request");
    const destroyed = Object.assign(new PassThrough(), { complete: false, rawHeaders: ["Content-Length", "22"] });
    destroyed.destroy();
    expect(await (await app.fetch(request({ "content-length": "22" }, "from the fetch Request"), { incoming: destroyed })).text()).toBe("from the fetch Request");
  });

  it("is 419 when the Node request closes before its body ended", async () => {
    const incoming = Object.assign(new PassThrough(), { complete: false, rawHeaders: ["content-length", "100"] });
    incoming.write("half a bo");
    setTimeout(() => incoming.destroy(), 20);
    const res = await app.fetch(request({ "content-length": "100" }, "unused"), { incoming });
    expect([res.status, await res.text()]).toEqual([400, "parameter_invalid: The request body could not be read: the connection ended before it arrived."]);
  });
});
