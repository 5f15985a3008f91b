import { describe, expect, it } from "vitest";
import { parseBooleanText, parseDateTime, parseDecimalText, parseIntegerText, parseText } from "./text-values.ts";

describe("parseIntegerText", () => {
  it.each([["42", 42], [" +7 ", 7], ["-3", -3], ["007", 7], ["9007199254740991", Number.MAX_SAFE_INTEGER]])("%j is %d", (text, n) => {
    expect(parseIntegerText(text)).toBe(n);
  });
  it.each(["", "1.5", "1e3", "0x10", "1_000", "one", "9007199254740992", "--1"])("%j is no integer", (text) => {
    expect(parseIntegerText(text)).toBeUndefined();
  });
});

describe("parseDecimalText", () => {
  it.each([["52.37", 52.37], ["-4.", -4], [".5", 0.5], ["1e-3", 0.001], [" +1E2 ", 100], ["0", 0]])("%j is %d", (text, n) => {
    expect(parseDecimalText(text)).toBe(n);
  });
  it.each(["", "1e309", "-1e309", "Infinity", "NaN", "4,9", "52N", "1e", ".", "0x1"])("%j is no decimal number", (text) => {
    expect(parseDecimalText(text)).toBeUndefined();
  });
});

describe("parseBooleanText", () => {
  it.each([["true", true], ["TRUE", true], [" 1 ", true], ["yes", true], ["On", true], ["false", false], ["0", false], ["no", false], ["OFF", false]])("%j is %s", (text, b) => {
    expect(parseBooleanText(text)).toBe(b);
  });
  it.each(["", "2", "y", "n", "maybe", "truee", "-1"])("%j is no boolean", (text) => {
    expect(parseBooleanText(text)).toBeUndefined();
  });
});

describe("parseText", () => {
  it("reads each kind by its rule and nothing else", () => {
    expect(parseText("integer", "12")).toBe(12);
    expect(parseText("integer", "1.5")).toBeUndefined();
    expect(parseText("number", "1.5")).toBe(1.5);
    expect(parseText("boolean", "yes")).toBe(true);
    expect(parseText("boolean", "12")).toBeUndefined();
  });
});

describe("parseDateTime", () => {
  it.each([
    ["2026-11-21T10:00:00Z", "2026-11-21T10:00:00.000Z"],
    ["2026-11-21t10:00:00z", "2026-11-21T10:00:00.000Z"],
    ["2026-11-21T11:30:00+01:30", "2026-11-21T10:00:00.000Z"],
    ["2026-11-21T05:00:00-05:00", "2026-11-21T10:00:00.000Z"],
    ["2026-11-21T10:00:00.999Z", "2026-11-21T10:00:00.999Z"],
    ["2026-11-21T10:00:00.250123Z", "2026-11-21T10:00:00.250Z"],
    ["2026-11-21 10:00:00", "2026-11-21T10:00:00.000Z"],
    [" 2024-02-29 23:59:59 ", "2024-02-29T23:59:59.000Z"],
    ["1000-01-01 00:00:00", "1000-01-01T00:00:00.000Z"],
    ["9999-12-31T23:59:59Z", "9999-12-31T23:59:59.000Z"],
  ])("%s is %s", (text, iso) => {
    expect(parseDateTime(text)?.toISOString()).toBe(iso);
  });

  it.each([
    "2026-11-21",
    "2026-11-21T10:00:00",
    "2026-11-21 10:00",
    "2026-11-21 10:00:00Z",
    "21-11-2026 10:00:00",
    "2026-02-30 10:00:00",
    "2025-02-29 10:00:00",
    "2026-13-01 10:00:00",
    "2026-11-21 24:00:00",
    "2026-11-21 10:60:00",
    "2026-11-21 10:00:60",
    "2026-11-21T10:00:00+24:00",
    "0999-12-31 23:59:59",
    "0099-01-01 00:00:00",
    "9999-12-31T23:59:59-01:00",
    "tomorrow",
    "",
  ])("%s is refused", (text) => {
    expect(parseDateTime(text)).toBeNull();
  });
});
