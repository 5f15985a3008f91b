import { describe, expect, it } from "vitest";
import { ServiceError } from "../http/service-error.ts";
import { checkVoucherType } from "./type-rules.ts";

const outcome = (voucher: Record<string, unknown>) => {
  try {
    checkVoucherType(voucher);
    return "ok";
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err;
    return `${err.errorName}: ${err.message}`;
  }
};

describe("checkVoucherType", () => {
  it("accepts each type with the fields that apply to it (others null or absent)", () => {
    expect(outcome({ type: "basket", amount: 5, amount_redeemed: 5, discount_ratio: null, honour_code: null })).toBe("ok");
    expect(outcome({ type: "basket_fixed_unit", amount: 1 })).toBe("ok");
    expect(outcome({ type: "basket_pct", discount_ratio: 0, amount: null, amount_redeemed: 2.5 })).toBe("ok");
    expect(outcome({ type: "basket_pct", discount_ratio: 1 })).toBe("ok");
    expect(outcome({ type: "honour", honour_code: "H", amount: null, amount_redeemed: null, discount_ratio: null })).toBe("ok");
    // fields that are not type-specific are left to their own field schema
    expect(outcome({ type: "honour", honour_code: "H", title: 12 })).toBe("ok");
  });

  it("a required field that is null or absent is 441 parameter_missing", () => {
    expect(outcome({ type: "basket" })).toBe("parameter_missing: amount is required for basket vouchers.");
    expect(outcome({ type: "basket_fixed_unit", amount: null })).toMatch(/^parameter_missing: amount/);
    expect(outcome({ type: "basket_pct", discount_ratio: null })).toMatch(/^parameter_missing: discount_ratio/);
    expect(outcome({ type: "honour" })).toMatch(/^parameter_missing: honour_code/);
  });

  it("a field of another type, or a value out of range for the type, is 419 parameter_invalid", () => {
    expect(outcome({ type: "basket", amount: 5, discount_ratio: 0.1 })).toBe(
      "parameter_invalid: discount_ratio does not apply to basket vouchers; send null or leave it out.",
    );
    expect(outcome({ type: "basket", amount: 5, honour_code: "H" })).toMatch(/^parameter_invalid: honour_code/);
    expect(outcome({ type: "basket_pct", discount_ratio: 0.1, amount: 5 })).toMatch(/^parameter_invalid: amount/);
    expect(outcome({ type: "honour", honour_code: "H", amount_redeemed: 1 })).toMatch(/^parameter_invalid: amount_redeemed/);
    expect(outcome({ type: "basket", amount: 0 })).toMatch(/^parameter_invalid: amount/);
    expect(outcome({ type: "basket", amount: 5, amount_redeemed: 6 })).toMatch(/^parameter_invalid: amount_redeemed: amount_redeemed cannot exceed amount/);
    expect(outcome({ type: "basket_pct", discount_ratio: -0.1 })).toMatch(/^parameter_invalid: discount_ratio/);
    expect(outcome({ type: "honour", honour_code: "" })).toMatch(/^parameter_invalid: honour_code/);
  });

  it("reports a bad value before a missing one", () => {
    expect(outcome({ type: "basket", discount_ratio: 0.5 })).toMatch(/^parameter_invalid: discount_ratio/);
  });
});
