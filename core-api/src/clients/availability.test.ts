import { describe, expect, it } from "vitest";
import { requireAdminCaller } from "./availability.ts";

describe("requireAdminCaller", () => {
  it("lets an admin through and answers 544 to any other caller", () => {
    expect(() => requireAdminCaller({ auth: { kind: "admin", userId: 1, sessionId: 1 } })).not.toThrow();
    expect(() => requireAdminCaller({ auth: { kind: "anonymous" } })).toThrow(
      expect.objectContaining({ errorName: "resource_not_found", status: 404 }),
    );
  });
});
