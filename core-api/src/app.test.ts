import { sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { startCore } from "../../test/helpers/core.ts";

describe("unexpected failures", () => {
  it("answer 500 without details and are logged with the request", async () => {
    const logger = { error: vi.fn(), warn: vi.fn(), info: vi.fn() };
    const core = await startCore({ logger });
    try {
      const admin = await core.admin({ read: true });
      // A broken table stands in for any infrastructure fault.
      await core.db.execute(sql`RENAME TABLE businesses TO businesses_gone`);
      const { status, body } = await core.json(`/internal/get-businesses?chain_id=${core.chainId}`, { headers: admin.headers });
      expect(status).toBe(500);
      expect(body).toEqual({ result: { code: 0, status: "error" }, error: { code: 0, name: "internal_error", description: "Internal server error." } });
      expect(logger.error).toHaveBeenCalledWith(
        expect.objectContaining({ method: "GET", path: "/internal/get-businesses", err: expect.any(Error), requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) }),
        "unhandled error",
      );
    } finally {
      await core.close();
    }
  });
});
