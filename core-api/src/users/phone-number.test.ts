/**
 * Phone numbers by version (spec, "Internal call: add-user": phone_number; "Versioning": >= 1.6.1,
 * >= 1.6.3). Pure: the version rules come from users/version-rules.ts as the handlers read them.
 */
import { describe, expect, it } from "vitest";
import { ServiceError } from "../http/service-error.ts";
import { decidePhone } from "./phone-number.ts";
import { userVersionRules } from "./version-rules.ts";

const V158 = userVersionRules([1, 5, 8]);
const V161 = userVersionRules([1, 6, 1]);
const V163 = userVersionRules([1, 6, 3]);
const V168 = userVersionRules([1, 6, 8]);

describe("decidePhone", () => {
  it("before 1.6.1: stored as given; an invalid number has status invalid, a valid one unchecked", () => {
    expect(decidePhone("06 12345678", "NL", V158, null)).toEqual({ number: "06 12345678", status: 0, duplicate: false });
    expect(decidePhone("12", "NL", V158, null)).toEqual({ number: "12", status: 1, duplicate: false });
    expect(decidePhone("not a number", null, V158, null)).toEqual({ number: "not a number", status: 1, duplicate: false });
  });

  it("from 1.6.1: E.164 with country_code as the hint; unparseable or invalid is 547", () => {
    expect(decidePhone("06 12345678", "NL", V161, null)).toMatchObject({ number: "+31612345678", status: 0, duplicate: false });
    expect(decidePhone("+32 470 12 34 56", "NL", V161, null)).toMatchObject({ number: "+32470123456" });
    expect(decidePhone("030 1234567", "DE", V161, null)).toMatchObject({ number: "+49301234567" });
    for (const bad of ["12", "not a number", "06 12345678"]) {
      const hint = bad === "06 12345678" ? null : "NL";
      expect(() => decidePhone(bad, hint, V161, null), bad).toThrow(ServiceError);
      try {
        decidePhone(bad, hint, V161, null);
      } catch (err) {
        expect((err as ServiceError).errorName).toBe("invalid_phone_number");
      }
    }
  });

  it("from 1.6.1: input whose E.164 form would drop an extension, control characters or other text is 547; formatting is not", () => {
    for (const lossy of ["+31612345678 ext. 5", "+31612345678 x5", "+31612345678\0", "+31612345678\u200b", "+31612345678 mobile"]) {
      expect(() => decidePhone(lossy, "NL", V161, null), JSON.stringify(lossy)).toThrow(expect.objectContaining({ errorName: "invalid_phone_number" }));
    }
    for (const formatted of ["+31 (0)6-1234.5678", "0031612345678", "06/12345678"]) {
      expect(decidePhone(formatted, "NL", V161, null).number, formatted).toBe("+31612345678");
    }
    expect(decidePhone("+31612345678 ext. 5", "NL", V158, null)).toEqual({ number: "+31612345678 ext. 5", status: 0, duplicate: false });
    expect(decidePhone("+31612345678\0", "NL", V158, null)).toEqual({ number: "+31612345678\0", status: 1, duplicate: false });
  });

  it("from 1.6.3: validated, duplicate checked; a re-submitted verified number stays verified", () => {
    expect(decidePhone("06 12345678", "NL", V163, null)).toEqual({ number: "+31612345678", status: 2, duplicate: "check" });
    const verified = { number: "+31612345678", status: 3, duplicate: false };
    expect(decidePhone("+31 6 12345678", null, V168, verified)).toEqual({ number: "+31612345678", status: 3, duplicate: "check" });
    expect(decidePhone("06 87654321", "NL", V168, verified)).toEqual({ number: "+31687654321", status: 2, duplicate: "check" });
  });

  it("an unchanged number keeps its status and duplicate flag before 1.6.3; a new one starts unchecked", () => {
    const stored = { number: "+31612345678", status: 3, duplicate: true };
    expect(decidePhone("06 12345678", "NL", V161, stored)).toEqual({ number: "+31612345678", status: 3, duplicate: true });
    expect(decidePhone("06 87654321", "NL", V161, stored)).toEqual({ number: "+31687654321", status: 0, duplicate: false });
    expect(decidePhone("+31612345678", null, V158, stored)).toEqual({ number: "+31612345678", status: 3, duplicate: true });
  });

  it("empty clears the number at every version", () => {
    const stored = { number: "+31612345678", status: 3, duplicate: true };
    for (const rules of [V158, V161, V163]) {
      expect(decidePhone(null, "NL", rules, stored)).toEqual({ number: null, status: 0, duplicate: false });
      expect(decidePhone("", "NL", rules, stored)).toEqual({ number: null, status: 0, duplicate: false });
    }
  });
});

describe("userVersionRules", () => {
  it("starts each rule at its version", () => {
    expect(userVersionRules([1, 4, 9])).toEqual({ extendedGenders: false, e164PhoneNumbers: false, phoneNumberStatus: false });
    expect(userVersionRules([1, 4, 10])).toEqual({ extendedGenders: true, e164PhoneNumbers: false, phoneNumberStatus: false });
    expect(userVersionRules([1, 6, 0])).toEqual({ extendedGenders: true, e164PhoneNumbers: false, phoneNumberStatus: false });
    expect(userVersionRules([1, 6, 1])).toEqual({ extendedGenders: true, e164PhoneNumbers: true, phoneNumberStatus: false });
    expect(userVersionRules([1, 6, 2])).toEqual({ extendedGenders: true, e164PhoneNumbers: true, phoneNumberStatus: false });
    expect(userVersionRules([1, 6, 3])).toEqual({ extendedGenders: true, e164PhoneNumbers: true, phoneNumberStatus: true });
    expect(userVersionRules([2, 0, 0])).toEqual({ extendedGenders: true, e164PhoneNumbers: true, phoneNumberStatus: true });
  });
});
