import { describe, expect, it } from "vitest";
import { errorBody, errorEnvelope } from "./envelope.ts";
import { ERRORS, OUR_CODES_FROM, type ErrorName } from "./errors.ts";

const entries = Object.entries(ERRORS) as Array<[ErrorName, (typeof ERRORS)[ErrorName]]>;

/** The codes the spec's error table gives ("Errors"), each with the names it lists for it. */
const SPEC_CODES = [3, 6, 13, 15, 68, 76, 98, 99, 124, 125, 126, 127, 128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 143, 244, 245, 246, 266, 278, 311, 316, 419, 420, 424, 435, 436, 441, 482, 544, 547, 555];

describe("the error catalogue", () => {
  it("gives every entry a positive integer code and an HTTP error status", () => {
    expect(entries.length).toBeGreaterThan(SPEC_CODES.length);
    for (const [name, def] of entries) {
      expect(Number.isInteger(def.code) && def.code > 0, `${name} code ${def.code}`).toBe(true);
      expect(Number.isInteger(def.status) && def.status >= 400 && def.status <= 599, `${name} status ${def.status}`).toBe(true);
      expect(def.description.length, name).toBeGreaterThan(0);
    }
  });

  it("uses the spec's codes, and ours only from OUR_CODES_FROM, each once", () => {
    const ours = entries.filter(([, def]) => !SPEC_CODES.includes(def.code));
    expect(ours.map(([name]) => name).sort()).toEqual([
      "basket_already_exists", "basket_price_changed",
      "phone_verification_attempts_exceeded", "phone_verification_code_expired", "phone_verification_code_invalid", "phone_verification_not_pending",
      "phone_verification_send_limited", "referral_already_applied", "referral_code_own", "referral_window_closed",
      "service_unavailable", "too_many_duplicate_objects", "too_many_login_attempts", "user_already_exists",
      "voucher_already_redeemed", "voucher_expired", "voucher_locked", "voucher_not_applicable", "voucher_not_claimed", "voucher_not_redeemable_here",
    ]);
    for (const [name, def] of ours) expect(def.code, name).toBeGreaterThanOrEqual(OUR_CODES_FROM);
    expect(new Set(ours.map(([, def]) => def.code)).size).toBe(ours.length);
    expect(Math.max(...SPEC_CODES)).toBeLessThan(OUR_CODES_FROM);
  });

  it("carries the integer code in every error body", () => {
    for (const [name, def] of entries) {
      const body = errorBody(name);
      expect(errorEnvelope.parse(body), name).toEqual(body);
      expect([body.result.code, body.error.code], name).toEqual([def.code, def.code]);
    }
  });

  it("gives too_many_login_attempts 903 with HTTP 429", () => {
    expect(errorBody("too_many_login_attempts").error).toMatchObject({ code: 903, name: "too_many_login_attempts" });
    expect(ERRORS.too_many_login_attempts.status).toBe(429);
  });

  it("gives service_unavailable 904 with HTTP 503", () => {
    expect(errorBody("service_unavailable").error).toMatchObject({ code: 904, name: "service_unavailable" });
    expect(ERRORS.service_unavailable.status).toBe(503);
  });

  it("gives the basket and referral refusals 909-919", () => {
    const codes = Object.fromEntries(entries.filter(([, d]) => d.code >= 909 && d.code <= 919).map(([n, d]) => [n, [d.code, d.status]]));
    expect(codes).toEqual({
      voucher_not_claimed: [909, 409], voucher_already_redeemed: [910, 409], voucher_expired: [911, 409], voucher_locked: [912, 423],
      voucher_not_redeemable_here: [913, 403], basket_already_exists: [914, 409], basket_price_changed: [915, 409], voucher_not_applicable: [916, 409],
      referral_code_own: [917, 400], referral_window_closed: [918, 409], referral_already_applied: [919, 409],
    });
  });

  it("gives the phone verification refusals 905-908 and 920", () => {
    expect(Object.fromEntries(entries.filter(([n]) => n.startsWith("phone_verification_")).map(([n, d]) => [n, [d.code, d.status]]))).toEqual({
      phone_verification_code_invalid: [905, 400],
      phone_verification_code_expired: [906, 400],
      phone_verification_attempts_exceeded: [907, 429],
      phone_verification_not_pending: [908, 409],
      phone_verification_send_limited: [920, 429],
    });
  });
});
