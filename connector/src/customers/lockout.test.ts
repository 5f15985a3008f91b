/** Lockout state transitions (Magento's Authentication model). */
import { describe, expect, it } from "vitest";
import { isLocked, needsReset, registerFailure, UNLOCKED, type LockoutState } from "./lockout.ts";

const policy = { lockoutFailures: 3, lockoutThresholdMinutes: 10 };
const t0 = new Date("2026-01-01T00:00:00Z");
const later = (min: number) => new Date(t0.getTime() + min * 60_000);

describe("registerFailure", () => {
  it("locks on the Nth failure within the window, for the threshold", () => {
    let s: LockoutState = UNLOCKED;
    s = registerFailure(s, t0, policy);
    s = registerFailure(s, later(1), policy);
    expect(isLocked(s, later(1))).toBe(false);
    s = registerFailure(s, later(2), policy);
    expect(s).toEqual({ failuresNum: 3, firstFailure: t0, lockExpires: later(12) });
    expect(isLocked(s, later(11))).toBe(true);
    expect(isLocked(s, later(12.01))).toBe(false);
  });

  it("starts a new count after the window or after an expired lock", () => {
    let s = registerFailure(registerFailure(UNLOCKED, t0, policy), later(1), policy);
    s = registerFailure(s, later(11), policy);
    expect(s).toEqual({ failuresNum: 1, firstFailure: later(11), lockExpires: null });
    const locked = { failuresNum: 3, firstFailure: t0, lockExpires: later(10) };
    expect(registerFailure(locked, later(20), policy)).toEqual({ failuresNum: 1, firstFailure: later(20), lockExpires: null });
  });

  it("does nothing when the policy disables lockout; needsReset spots leftovers", () => {
    expect(registerFailure(UNLOCKED, t0, { lockoutFailures: 0, lockoutThresholdMinutes: 10 })).toBe(UNLOCKED);
    expect(registerFailure(UNLOCKED, t0, { lockoutFailures: 1, lockoutThresholdMinutes: 10 }).lockExpires).toEqual(later(10));
    expect(needsReset(UNLOCKED)).toBe(false);
    expect(needsReset({ failuresNum: 1, firstFailure: t0, lockExpires: null })).toBe(true);
  });
});
