/**
 * The access levels read from the permission bits of the authentication query
 * (db/permissions.ts levelsOfBits) are the levels of the stored row (levelsOf), for every
 * combination of flags; no row is no levels.
 */
import { describe, expect, it } from "vitest";
import { ACCESS_LEVELS, levelsOf, levelsOfBits, type PermissionRow } from "./permissions.ts";

const KEYS = ["read", "write", "delete", "assign", "superUser", "campaign", "campaignEnable", "analytics", "export", "segmentQuery"] as const;

describe("levelsOfBits", () => {
  it("gives the levels levelsOf gives the row, for all 1024 combinations of flags", () => {
    for (let bits = 0; bits < 1 << ACCESS_LEVELS.length; bits++) {
      const row = { adminUserId: 1, chainId: 2 } as PermissionRow;
      KEYS.forEach((key, i) => ((row as Record<string, unknown>)[key] = (bits & (1 << i)) !== 0));
      expect(levelsOfBits(bits)).toEqual(levelsOf(row));
    }
  });

  it("is null without a permission row", () => {
    expect(levelsOfBits(null)).toBeNull();
  });
});
