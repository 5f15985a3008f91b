import { describe, expect, it } from "vitest";
import { ServiceError } from "../http/service-error.ts";
import { refuseSelfLockout } from "./self-lockout.ts";

const refusal = (run: () => void): string | null => {
  try {
    run();
    return null;
  } catch (err) {
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).errorName).toBe("parameter_invalid");
    return (err as ServiceError).message;
  }
};

describe("refuseSelfLockout", () => {
  const admin = { clientIp: "2001:db8::7", superUser: false };

  it("lets a write through when the chain would not restrict, the address stays covered, or the caller is not an admin", () => {
    expect(refusal(() => refuseSelfLockout(admin, { cidrs: [], exemption: false }))).toBeNull();
    expect(refusal(() => refuseSelfLockout(admin, { cidrs: ["192.0.2.0/24", "2001:db8::/32"], exemption: false }))).toBeNull();
    expect(refusal(() => refuseSelfLockout(null, { cidrs: ["192.0.2.0/24"], exemption: false }))).toBeNull();
  });

  it("lets an exempt super user through, but not an admin who is no super user", () => {
    expect(refusal(() => refuseSelfLockout({ ...admin, superUser: true }, { cidrs: ["192.0.2.0/24"], exemption: true }))).toBeNull();
    expect(refusal(() => refuseSelfLockout(admin, { cidrs: ["192.0.2.0/24"], exemption: true }))).toMatch(/your address 2001:db8::7/);
  });

  it("refuses when the address would be outside, naming it and the way out", () => {
    expect(refusal(() => refuseSelfLockout({ ...admin, superUser: true }, { cidrs: ["192.0.2.0/24"], exemption: false }))).toBe(
      "This change would lock you out of the chain: your address 2001:db8::7 would be outside its allowed IP ranges. " +
        "Add a range that covers your address first, or keep ip_whitelist_super_user_exemption set.",
    );
    expect(refusal(() => refuseSelfLockout({ clientIp: null, superUser: false }, { cidrs: ["0.0.0.0/0"], exemption: false }))).toMatch(
      /your address \(unknown to the service, so inside no range\)/,
    );
  });
});
