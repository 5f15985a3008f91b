import { describe, expect, it } from "vitest";
import { ServiceError } from "../http/service-error.ts";
import { MAX_PARAM_DEPTH } from "../http/json-depth.ts";
import { fromJsonText, TEXT_MAX_BYTES, toJsonText } from "./json-column.ts";

/** An array nested `levels` deep: [[[...]]]. */
function nested(levels: number): unknown {
  let value: unknown = [];
  for (let i = 1; i < levels; i++) value = [value];
  return value;
}

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

  it("refuses a value nested deeper than the request limit with 419 instead of overflowing the stack", () => {
    expect(toJsonText(nested(MAX_PARAM_DEPTH), "zones")).toBe(`${"[".repeat(MAX_PARAM_DEPTH)}${"]".repeat(MAX_PARAM_DEPTH)}`);
    for (const levels of [MAX_PARAM_DEPTH + 1, 8_000, 200_000]) {
      expect(() => toJsonText(nested(levels), "zones"), String(levels)).toThrow(expect.objectContaining({ errorName: "parameter_invalid" }));
    }
  });
});
