import { describe, expect, it } from "vitest";
import { ServiceError } from "../http/service-error.ts";
import { endUserVoucherFilter, refuseEndUserWrite, voucherVisibility } from "./visibility.ts";

describe("voucher visibility", () => {
  it("an admin sees every live voucher of the chain", () => {
    expect(voucherVisibility({ kind: "admin" }, "get")).toEqual({});
    expect(voucherVisibility({ kind: "admin" }, "list", {})).toEqual({});
    expect(() => refuseEndUserWrite({ kind: "admin" })).not.toThrow();
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

  it("an end-user's writes are 544", () => {
    let error: unknown;
    try {
      refuseEndUserWrite({ kind: "end_user", userId: 7 });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).errorName).toBe("resource_not_found");
  });
});
