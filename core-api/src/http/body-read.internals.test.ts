/**
 * What http/body-read.ts and http/request-headers.ts rely on beyond the public APIs of Hono and
 * @hono/node-server, checked over a real @hono/node-server socket, so that an upgrade that changes
 * any of it fails here rather than silently turning the fast path off (the behaviour tests would
 * still pass through the slow path, at the CPU cost the fast path exists to save):
 *
 * 1. @hono/node-server hands the app Node's IncomingMessage as `c.env.incoming`, its body not yet
 *    read (`readableDidRead`, `readableEnded`, `destroyed` false; `complete` a boolean) and its
 *    header lines as `rawHeaders`;
 * 2. Hono's HonoRequest keeps what it read of the body in `bodyCache`, and answers every later
 *    read (`text`, `json`, `arrayBuffer`) from a cached `text` promise without reading the body
 *    of the fetch Request (`c.req.raw`);
 * 3. so readBodyText on a body with Content-Length never reads it through the fetch Request.
 */
import type { IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { serve, type HttpBindings, type ServerType } from "@hono/node-server";
import { Hono, type Context } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBodyText } from "./body-read.ts";
import { requestHeader } from "./request-headers.ts";

// Compile-time half of (1): the fields body-read.ts reads structurally are IncomingMessage's, typed
// so (npm run typecheck fails when an upgrade of @types/node or @hono/node-server changes them).
type Read = Pick<IncomingMessage, "complete" | "destroyed" | "readableDidRead" | "readableEnded" | "rawHeaders">;
const nodeIncoming = (c: Context<{ Bindings: HttpBindings }>): Read => c.env.incoming satisfies IncomingMessage;

/** Makes reading the body through the fetch Request of `c` fail: what reads it was not answered from the cache. */
function forbidRawRequest(c: Context): void {
  for (const read of ["body", "text", "json", "arrayBuffer", "blob", "formData", "bytes"]) {
    Object.defineProperty(c.req.raw, read, { get: () => { throw new Error("the body was read through the fetch Request"); } });
  }
}

let seen: Record<string, unknown> = {};
const app = new Hono<{ Bindings: HttpBindings }>()
  .post("/", async (c) => {
    const incoming = nodeIncoming(c);
    seen = {
      readableDidRead: incoming.readableDidRead,
      readableEnded: incoming.readableEnded,
      destroyed: incoming.destroyed,
      complete: typeof incoming.complete,
      rawHeaders: Array.isArray(incoming.rawHeaders) && incoming.rawHeaders.some((line) => line.toLowerCase() === "x-probe"),
      probe: requestHeader(c, "x-probe"),
    };
    forbidRawRequest(c);
    const text = await readBodyText(c);
    const json = requestHeader(c, "content-type") === "application/json" ? await c.req.json<unknown>() : null;
    const bytes = new Uint8Array(await c.req.arrayBuffer()).length;
    return c.json({ text, json, bytes, again: await c.req.text(), afterRead: nodeIncoming(c).readableDidRead });
  })
  .onError((err, c) => c.text(String(err), 500));

let server: ServerType;
let url = "";
beforeAll(async () => {
  server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise((resolve) => server.once("listening", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const post = (contentType: string, body: string) =>
  fetch(url, { method: "POST", headers: { "content-type": contentType, "x-probe": " on node " }, body });

describe("@hono/node-server's env, as body-read.ts reads it", () => {
  it("is the Node request, its body unread when the handler starts, with its raw header lines", async () => {
    const res = await post("text/plain", "hello");
    expect(res.status, await res.clone().text()).toBe(200);
    expect(seen).toEqual({ readableDidRead: false, readableEnded: false, destroyed: false, complete: "boolean", rawHeaders: true, probe: "on node" });
    expect(await res.json()).toMatchObject({ text: "hello", afterRead: true });
  });
});

describe("Hono's bodyCache, as readBodyText fills it", () => {
  it("answers json, arrayBuffer and text from the cached text without the fetch Request", async () => {
    const res = await post("application/json", '{"name":"Bakker","tags":["a","b"]}');
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({
      text: '{"name":"Bakker","tags":["a","b"]}', json: { name: "Bakker", tags: ["a", "b"] }, bytes: 34,
      again: '{"name":"Bakker","tags":["a","b"]}', afterRead: true,
    });
  });

  it("can fail: without the fast path a read needs the fetch Request", async () => {
    const slow = new Hono().post("/", async (c) => {
      forbidRawRequest(c);
      return c.text(await c.req.text());
    }).onError((err, c) => c.text(String(err), 500));
    const res = await slow.request("/", { method: "POST", body: "x" });
    expect([res.status, await res.text()]).toEqual([500, "Error: the body was read through the fetch Request"]);
  });
});
