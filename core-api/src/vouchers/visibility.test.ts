import { describe, expect, it } from "vitest";
import { endUserVoucherFilter, voucherVisibility } from "./visibility.ts";

describe("voucher visibility", () => {
  it("an admin sees every live voucher of the chain", () => {
    expect(voucherVisibility({ kind: "admin" }, "get")).toEqual({});
    expect(voucherVisibility({ kind: "admin" }, "list", {})).toEqual({});
  });

  it("an end-user's list shows only their generated and claimed vouchers unless filtered by status", () => {
    expect(endUserVoucherFilter(7, "list", {})).toEqual({ userId: 7, statuses: ["generated", "claimed"] });
    expect(endUserVoucherFilter(7, "list", { type: "basket" })).toEqual({ userId: 7, statuses: ["generated", "claimed"] });
    expect(endUserVoucherFilter(7, "list", { status: "redeemed" })).toEqual({ userId: 7 });
    expect(voucherVisibility({ kind: "end_user", userId: 7 }, "list", {})).toEqual({ userId: 7, statuses: ["generated", "claimed"] });
  });

  it("an end-user reads one of their own vouchers whatever its status", () => {
    expect(endUserVoucherFilter(7, "get")).toEqual({ userId: 7 });
    expect(voucherVisibility({ kind: "end_user", userId: 7 }, "get")).toEqual({ userId: 7 });
  });
});
