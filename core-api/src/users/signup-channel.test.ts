/** Signup channels and referral codes (spec, "Internal call: add-user"; handbook, "The user"). Pure. */
import { canonicalReferralCode } from "@service/shared/internal/user-params";
import { describe, expect, it } from "vitest";
import { ServiceError } from "../http/service-error.ts";
import { dummyUsername } from "./dummy-username.ts";
import { newReferralCode } from "./referral-code.ts";
import { clientChannelOf, signupChannelOf } from "./signup-channel.ts";

describe("client_channel of X-Service-Request", () => {
  it("keeps the allowed values and prefixes any other with unknown:", () => {
    for (const v of ["mobile", "mobile:ios", "mobile:android", "mobile:web", "pos", "store", "import"]) {
      expect(clientChannelOf(JSON.stringify({ client_channel: v }))).toBe(v);
    }
    expect(clientChannelOf('{"client_channel":"kiosk"}')).toBe("unknown:kiosk");
    expect(clientChannelOf('{"client_channel":"POS"}')).toBe("unknown:POS");
    expect(clientChannelOf(undefined)).toBeNull();
    expect(clientChannelOf('{"other":1}')).toBeNull();
    expect(clientChannelOf('{"client_channel":""}')).toBeNull();
  });

  it("refuses a header that is no JSON object, a channel that is not text or too long (419)", () => {
    const cases = ["pos", "[1]", '"pos"', '{"client_channel":5}', `{"client_channel":"${"x".repeat(57)}"}`];
    expect(cases).toHaveLength(5);
    for (const header of cases) {
      expect(() => clientChannelOf(header), header).toThrow(ServiceError);
    }
  });
});

describe("signupChannelOf", () => {
  it("takes client_channel first, else the app's kind, the identity source's platform, or null for admins", () => {
    expect(signupChannelOf("pos", { by: "app", kind: "webshop" })).toBe("pos");
    expect(signupChannelOf(null, { by: "app", kind: "native_app" })).toBe("service-native-app");
    expect(signupChannelOf(null, { by: "app", kind: "mobile_web" })).toBe("service-mobile-web");
    expect(signupChannelOf(null, { by: "app", kind: "webshop" })).toBe("webshop");
    expect(signupChannelOf(null, { by: "identity_source" })).toBe("platform");
    expect(signupChannelOf(null, { by: "admin" })).toBeNull();
  });
});

describe("referral codes", () => {
  it("are 8 Crockford base32 digits and read back as themselves", () => {
    const codes = Array.from({ length: 200 }, newReferralCode);
    for (const code of codes) {
      expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/);
      expect(canonicalReferralCode(code)).toBe(code);
    }
    expect(new Set(codes).size).toBeGreaterThan(195);
  });

  it("are read as people type them: case, I/L as 1, O as 0, hyphens", () => {
    expect(canonicalReferralCode("abcd-efgh")).toBe("ABCDEFGH");
    expect(canonicalReferralCode("iLoo1234")).toBe("11001234");
    expect(canonicalReferralCode("ABCDEFGU")).toBeNull();
    expect(canonicalReferralCode("ABCDEFG")).toBeNull();
  });
});

describe("dummyUsername", () => {
  it("is the member number at the chain's domain for a custom-range number, else user-<24 hex>", () => {
    expect(dummyUsername("shop.example", "5000123")).toBe("5000123@shop.example");
    expect(dummyUsername("shop.example", null)).toMatch(/^user-[0-9a-f]{24}@shop\.example$/);
    expect(dummyUsername(null, "5000123")).toMatch(/^user-[0-9a-f]{24}@dummy\.invalid$/);
    expect(dummyUsername(null, null)).not.toBe(dummyUsername(null, null));
  });
});
