import type { AddressInfo } from "node:net";
import { describe, expect, it, vi } from "vitest";
import { createApp } from "./app.ts";
import type { ConnectorDb } from "./db/client.ts";

describe("unexpected failures", () => {
  it("answer 500 without details and are logged with the request through the injected logger", async () => {
    const logger = { error: vi.fn(), warn: vi.fn(), info: vi.fn() };
    // A database whose every call fails stands in for any infrastructure fault.
    const broken = new Proxy({}, { get: () => () => { throw new Error("database unreachable"); } }) as unknown as ConnectorDb;
    const app = createApp({ db: broken, config: { bodyLimitBytes: 1024 }, logger });
    const server = await new Promise<ReturnType<typeof app.listen>>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/rest/V1/service/customer/1`, { headers: { authorization: "Bearer some-token" } });
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ message: "Internal Error. Details are available in the connector log." });
      expect(logger.error).toHaveBeenCalledOnce();
      expect(logger.error).toHaveBeenCalledWith(
        expect.objectContaining({ method: "GET", path: "/rest/V1/service/customer/1", err: expect.objectContaining({ message: "database unreachable" }) }),
        "connector: unexpected error",
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
