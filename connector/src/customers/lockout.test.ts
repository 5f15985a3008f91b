/** What a successful authenticate clears of Magento's own lockout columns. */
import { describe, expect, it } from "vitest";
import { needsReset, UNLOCKED } from "./lockout.ts";

describe("needsReset", () => {
  it("spots leftovers of the shop's own lockout, and nothing in a clean state", () => {
    expect(needsReset(UNLOCKED)).toBe(false);
    expect(needsReset({ failuresNum: 1, firstFailure: new Date("2026-01-01T00:00:00Z"), lockExpires: null })).toBe(true);
    expect(needsReset({ failuresNum: 0, firstFailure: null, lockExpires: new Date("2026-01-01T00:10:00Z") })).toBe(true);
    expect(needsReset({ failuresNum: null, firstFailure: null, lockExpires: null })).toBe(false);
  });
});
