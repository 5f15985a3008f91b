/**
 * A client that aborts its upload (issue 11, "Found under attack" 8) is answered 419 like any bad
 * body and is not logged as an unhandled error: with and without Content-Length (hono's bodyLimit
 * reads the latter itself), through app.request and over a real socket that is cut mid-body.
 */
import net, { type AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestAdmin, type TestCore } from "../../../test/helpers/core.ts";
import { createApp } from "../app.ts";
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
    const server: ServerType = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
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
        await new Promise((resolve) => setTimeout(resolve, 150)); // the handler is reading the body now
        socket.destroy();
        cut++;
      }
      expect(cut).toBe(2);
      await new Promise((resolve) => setTimeout(resolve, 500)); // the server notices the hang-ups
      expect(logged).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
