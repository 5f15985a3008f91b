import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { createApp } from "./app.ts";
import type { ConnectorDb } from "./db/client.ts";
import { captureLog } from "./test-support/log-capture.ts";

describe("unexpected failures", () => {
  it("answer 500 without details and are logged with the request through the injected logger", async () => {
    const log = captureLog();
    // A database whose every call fails stands in for any infrastructure fault.
    const broken = new Proxy({}, { get: () => () => { throw new Error("database unreachable"); } }) as unknown as ConnectorDb;
    const app = createApp({ db: broken, config: { bodyLimitBytes: 1024 }, logger: log.logger });
    const server = await new Promise<ReturnType<typeof app.listen>>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/rest/V1/service/customer/1`, { headers: { authorization: "Bearer some-token" } });
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ message: "Internal Error. Details are available in the connector log." });
      const errors = log.lines.filter((l) => l.level === "error");
      expect(errors).toEqual([expect.objectContaining({ message: "connector: unexpected error" })]);
      expect(errors[0]!.fields).toEqual(expect.objectContaining({
        method: "GET", path: "/rest/V1/service/customer/1", err: expect.objectContaining({ type: "Error", message: "database unreachable", stack: expect.any(String) }),
      }));
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
