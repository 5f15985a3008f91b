import { addBusinessCall } from "@service/shared/internal/add-business";
import { openingTimesSchema } from "@service/shared/internal/opening-times";
import { describe, expect, it } from "vitest";
import type { BusinessRow } from "../businesses/business-repository.ts";
import { thrownErrorName as errorOf } from "../http/thrown-error.test-support.ts";
import { isPhoneNumber, isPostalCodeOf, readBusinessFields } from "./business-fields.ts";
import { decimalText } from "./business-record.ts";

describe("isPostalCodeOf", () => {
  it("checks NL, DE and BE forms and leaves other countries alone", () => {
    for (const code of ["1234 AB", "1234AB", "1234 ab"]) expect(isPostalCodeOf(code, "NL")).toBe(true);
    for (const code of ["1234", "1234 A", "12345 AB", "AB 1234"]) expect(isPostalCodeOf(code, "NL")).toBe(false);
    for (const code of ["12345", "D-12345"]) expect(isPostalCodeOf(code, "de")).toBe(true);
    for (const code of ["1234", "D12345", "D-1234"]) expect(isPostalCodeOf(code, "DE")).toBe(false);
    for (const code of ["1234", "1234 BE"]) expect(isPostalCodeOf(code, "BE")).toBe(true);
    for (const code of ["12345", "1234 NL", "B-1234"]) expect(isPostalCodeOf(code, "BE")).toBe(false);
    expect(isPostalCodeOf("SW1A 1AA", "GB")).toBe(true);
  });
});

describe("isPhoneNumber", () => {
  it("checks numbers against the plan of their + prefix or of the country", () => {
    expect(isPhoneNumber("+31 20 123 4567", null)).toBe(true);
    expect(isPhoneNumber("020 123 4567", "NL")).toBe(true);
    expect(isPhoneNumber("030 1234567", "DE")).toBe(true);
    expect(isPhoneNumber("+31 12", null)).toBe(false);
    expect(isPhoneNumber("12", "NL")).toBe(false);
    expect(isPhoneNumber("020-CALL-NOW", "NL")).toBe(false);
  });
  it("without a prefix or a country accepts 6 to 15 digits", () => {
    expect(isPhoneNumber("(020) 123-4567", null)).toBe(true);
    expect(isPhoneNumber("12345", null)).toBe(false);
  });
  it("treats a country without a numbering plan of its own like no country", () => {
    expect(isPhoneNumber("123 456 789", "AQ")).toBe(true);
    expect(isPhoneNumber("12", "AQ")).toBe(false);
  });
});

describe("openingTimesSchema", () => {
  it("accepts the spec's shape with closed days and special hours", () => {
    const ok = {
      monday: { open: "08:00", close: "20:00" },
      saturday: { open: "22:00", close: "02:00" },
      sunday: { open: null, close: null },
      special_hours: [{ date: "2028-02-29", open: "10:00", close: "24:00", reason: "Leap day" }],
    };
    expect(openingTimesSchema.safeParse(ok).success).toBe(true);
    expect(openingTimesSchema.safeParse({}).success).toBe(true);
  });
  it("refuses other keys, bad times and impossible dates", () => {
    for (const bad of [
      { monday: { open: "8:00", close: "20:00" } },
      { monday: { open: "08:00", close: "24:30" } },
      { monday: { open: "08:00" } },
      { monday: { open: "08:00", close: "20:00", note: "x" } },
      { holiday: { open: "08:00", close: "20:00" } },
      { special_hours: [{ date: "2027-02-29", open: null, close: null, reason: null }] },
      { special_hours: { date: "2027-01-01" } },
    ]) expect(openingTimesSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });
});

describe("readBusinessFields", () => {
  it("returns only the given fields, trimmed, country upper-cased, empties as null", () => {
    const changes = readBusinessFields(
      { name: " Shop ", countrycode: "be", postalcode: "1000", towncity: "", latitude: "50.85", longitude: 4.35, is_shut_down: "on", extra: "ignored" },
      addBusinessCall,
    );
    expect(changes).toEqual({ name: "Shop", countryCode: "BE", postalcode: "1000", towncity: null, latitude: 50.85, longitude: 4.35, isShutDown: true });
  });

  it("checks parameters in rule order, then coordinates, then the joined rules", () => {
    expect(errorOf(() => readBusinessFields({ name: "n".repeat(256), owner_code: "o".repeat(65) }, addBusinessCall))).toBe("business_name_invalid");
    expect(errorOf(() => readBusinessFields({ latitude: 91, format: "f".repeat(65) }, addBusinessCall))).toBe("string_parameter_too_long");
    expect(errorOf(() => readBusinessFields({ latitude: 91 }, addBusinessCall))).toBe("latitude_value_error");
    expect(errorOf(() => readBusinessFields({ latitude: 50, countrycode: "NL", postalcode: "1" }, addBusinessCall))).toBe("lat_long_both_required");
  });

  it("completes the request with the stored business for the joined rules", () => {
    const current = { latitude: 52, longitude: 4, countryCode: "DE", postalcode: "10115" } as BusinessRow;
    expect(readBusinessFields({ latitude: 53 }, addBusinessCall, { current })).toEqual({ latitude: 53 });
    expect(errorOf(() => readBusinessFields({ countrycode: "NL" }, addBusinessCall, { current }))).toBe("postalcode_invalid");
    expect(readBusinessFields({ phone_number: "030 1234567" }, addBusinessCall, { current })).toEqual({ phoneNumber: "030 1234567" });
  });
});

describe("decimalText", () => {
  it("renders coordinates as plain decimal text", () => {
    expect(decimalText(52.3791)).toBe("52.3791");
    expect(decimalText(-4)).toBe("-4");
    expect(decimalText(1e-7)).toBe("0.0000001");
    expect(decimalText(-0)).toBe("0");
    expect(decimalText(null)).toBeNull();
  });
});
