import { describe, expect, it } from "vitest";
import { ServiceError } from "../http/service-error.ts";
import { statusChange } from "./status.ts";

const now = new Date("2026-03-01T10:00:00Z");
const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err instanceof ServiceError ? { name: err.errorName, status: err.status } : err;
  }
  return "no error";
};

describe("statusChange", () => {
  it("creating: any status; redeemed sets both redeemed dates", () => {
    expect(statusChange(null, "generated", now)).toEqual({ status: "generated" });
    expect(statusChange(null, "claimed", now)).toEqual({ status: "claimed" });
    expect(statusChange(null, "redeemed", now)).toEqual({ status: "redeemed", redeemedDate: now, dbRedeemedDate: now });
  });

  it("moves forward: generated -> claimed -> redeemed, and generated -> redeemed", () => {
    expect(statusChange("generated", "claimed", now)).toEqual({ status: "claimed" });
    expect(statusChange("claimed", "redeemed", now)).toEqual({ status: "redeemed", redeemedDate: now, dbRedeemedDate: now });
    expect(statusChange("generated", "redeemed", now)).toEqual({ status: "redeemed", redeemedDate: now, dbRedeemedDate: now });
  });

  it("the same status or none changes nothing (a redeemed voucher keeps its dates)", () => {
    for (const s of ["generated", "claimed", "redeemed"] as const) {
      expect(statusChange(s, s, now)).toEqual({});
      expect(statusChange(s, undefined, now)).toEqual({});
    }
  });

  it("a redeemed status never changes; nothing moves back: 419 parameter_invalid", () => {
    const invalid = { name: "parameter_invalid", status: 400 };
    expect(refusal(() => statusChange("redeemed", "claimed", now))).toEqual(invalid);
    expect(refusal(() => statusChange("redeemed", "generated", now))).toEqual(invalid);
    expect(refusal(() => statusChange("claimed", "generated", now))).toEqual(invalid);
  });
});
