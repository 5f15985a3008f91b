import { describe, expect, it } from "vitest";
import { ServiceError } from "../http/service-error.ts";
import { fromJsonText, TEXT_MAX_BYTES, toJsonText } from "./json-column.ts";

describe("toJsonText / fromJsonText", () => {
  it("round-trips values and keeps null as NULL", () => {
    expect(toJsonText(null, "x")).toBeNull();
    expect(toJsonText(undefined, "x")).toBeNull();
    expect(fromJsonText(null)).toBeNull();
    const value = [{ title: "Spring", items: [{ type: "campaign", id: 3 }] }];
    expect(fromJsonText(toJsonText(value, "zones"))).toEqual(value);
  });

  it("counts UTF-8 bytes, not characters, against the TEXT limit", () => {
    // JSON adds two quotes; each "é" is two bytes
    const fits = "é".repeat((TEXT_MAX_BYTES - 2) / 2 - 1);
    expect(toJsonText(fits, "zones")).toBe(`"${fits}"`);
    const tooBig = "é".repeat((TEXT_MAX_BYTES - 2) / 2 + 1);
    expect(() => toJsonText(tooBig, "zones")).toThrow(ServiceError);
    try {
      toJsonText(tooBig, "zones");
    } catch (e) {
      expect((e as ServiceError).errorName).toBe("parameter_invalid");
      expect((e as ServiceError).message).toContain("zones");
    }
  });
});
