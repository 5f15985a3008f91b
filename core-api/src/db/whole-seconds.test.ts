import { describe, expect, it } from "vitest";
import { wholeSeconds } from "./whole-seconds.ts";

describe("wholeSeconds", () => {
  it("drops the milliseconds, towards the past", () => {
    expect(wholeSeconds(new Date("2026-11-21T10:00:01.999Z"))).toEqual(new Date("2026-11-21T10:00:01Z"));
    expect(wholeSeconds(new Date("1969-12-31T23:59:59.500Z"))).toEqual(new Date("1969-12-31T23:59:59Z"));
  });

  it("leaves a whole second as it is", () => {
    expect(wholeSeconds(new Date("2026-11-21T10:00:01Z")).getTime()).toBe(Date.parse("2026-11-21T10:00:01Z"));
  });
});
