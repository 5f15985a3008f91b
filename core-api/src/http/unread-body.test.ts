/**
 * A refused body does not break the next request (http/unread-body.ts, RFC 9112 9.6), over real
 * sockets on Node (@hono/node-server, as main.node.ts serves): an oversize body is answered 413
 * with `Connection: close` and the connection is closed after it, so a client that keeps
 * connections open sends its next request on a new one, which succeeds; a body that was read
 * keeps its connection.
 */
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestAdmin, type TestCore } from "../../../test/helpers/core.ts";
import { createApp } from "../app.ts";
import { loadCoreConfig } from "../config.ts";

const OVERSIZE = 2 * 1024 * 1024;
let core: TestCore;
let admin: TestAdmin;
let server: ServerType;
let port: number;
beforeAll(async () => {
  core = await startCore();
  admin = await core.admin({ write: true });
  const app = createApp({ db: core.db, config: loadCoreConfig({ CORE_DB_NAME: core.dbName, LOG_LEVEL: "error" }) });
  server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise((resolve) => server.once("listening", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await core.close();
});

interface Answer {
  status: number;
  connection: string | undefined;
  /** the local port of the socket it came over: the same port means the same connection */
  via: number;
}

/** One request through `agent`; resolves with the status, the Connection header and the socket used, or the error code. */
function send(agent: http.Agent, method: string, path: string, body?: Buffer, headers: Record<string, string> = {}): Promise<Answer | string> {
  return new Promise((resolve) => {
    const req = http.request({ host: "127.0.0.1", port, method, path, agent, headers: { ...headers, ...(body ? { "content-type": "application/json", "content-length": String(body.length) } : {}) } }, (res) => {
      const via = res.socket.localPort!;
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode!, connection: res.headers.connection, via }));
    });
    req.on("error", (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    req.end(body);
  });
}

describe("a body over 1 MiB", () => {
  it("is 413 with Connection: close, and the next request of a keep-alive client succeeds, 10 times of 10", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const big = Buffer.alloc(OVERSIZE, 0x20);
    const rounds: Array<[Answer | string, Answer | string]> = [];
    for (let i = 0; i < 10; i++) rounds.push([await send(agent, "POST", "/internal/add-business", big, admin.headers), await send(agent, "GET", "/health")]);
    agent.destroy();
    expect(rounds.map(([refused, next]) => [(refused as Answer).status, (refused as Answer).connection, (next as Answer).status])).toEqual(
      rounds.map(() => [413, "close", 200]),
    );
  });

  it("over a raw socket: the 413 says close and the server closes; whatever the client sent after is not answered", async () => {
    const socket = net.connect(port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    let text = "";
    socket.on("data", (chunk) => (text += chunk));
    const closed = new Promise<boolean>((resolve) => socket.once("close", () => resolve(true)));
    socket.on("error", () => undefined); // the server may reset what it no longer reads
    socket.write(`POST /internal/add-business HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${OVERSIZE}\r\n\r\n`);
    socket.write(Buffer.alloc(OVERSIZE, 0x20));
    socket.write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(await Promise.race([closed, new Promise((resolve) => setTimeout(() => resolve(false), 5_000))])).toBe(true);
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    expect(text).toMatch(/\r\nConnection: close\r\n/i);
    expect(text.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    socket.destroy();
  });
});

describe("other bodies", () => {
  it("a body refused before it has arrived closes too; one that arrived or was read keeps the connection", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    // Refused (no credentials) while the second half of the body is still on its way.
    const partial = await new Promise<Answer>((resolve) => {
      const req = http.request({ host: "127.0.0.1", port, method: "POST", path: "/internal/add-business", agent, headers: { "content-type": "application/json", "content-length": "200000" } }, (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode!, connection: res.headers.connection, via: res.socket.localPort! }));
      });
      req.on("error", () => undefined);
      req.write(Buffer.alloc(100_000, 0x20));
      setTimeout(() => req.end(Buffer.alloc(100_000, 0x20)), 300);
    });
    expect([partial.status, partial.connection]).toEqual([401, "close"]);
    expect(await send(agent, "GET", "/health")).toMatchObject({ status: 200, connection: "keep-alive" });

    // A body read by the handler: the connection is kept and used again.
    const read = (await send(agent, "POST", "/internal/add-business", Buffer.from(JSON.stringify({ chain_id: core.chainId, name: "Kept", owner_code: "KEEP-1" })), admin.headers)) as Answer;
    const after = (await send(agent, "GET", "/health")) as Answer;
    expect([read.status, read.connection, after.status, after.via]).toEqual([200, "keep-alive", 200, read.via]);
    agent.destroy();
  });
});
