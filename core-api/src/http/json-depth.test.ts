import { describe, expect, it } from "vitest";
import { exceedsDepth } from "./json-depth.ts";

describe("exceedsDepth", () => {
  it("counts a top-level object or array as level 1 and scalars as nothing", () => {
    expect(exceedsDepth("text", 0)).toBe(false);
    expect(exceedsDepth(null, 0)).toBe(false);
    expect(exceedsDepth({}, 0)).toBe(true);
    expect(exceedsDepth({ a: 1, b: "x" }, 1)).toBe(false);
    expect(exceedsDepth({ a: [1] }, 1)).toBe(true);
    expect(exceedsDepth({ a: [1], b: { c: { d: null } } }, 3)).toBe(false);
    expect(exceedsDepth({ a: [1], b: { c: { d: [] } } }, 3)).toBe(true);
  });

  it("measures a million levels without recursion", () => {
    const deep = JSON.parse(`${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}`);
    expect(exceedsDepth(deep, 32)).toBe(true);
    expect(exceedsDepth(deep, 1_000_000)).toBe(false);
  });
});
