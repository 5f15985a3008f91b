import { describe, expect, it } from "vitest";
import { escapeLike, parseSearchTerms, tokenize } from "./text.ts";

describe("tokenize", () => {
  it("splits on anything but letters and digits, folds case and diacritics", () => {
    expect(tokenize("Café-Bär 12, Düsseldorf")).toEqual(["cafe", "bar", "12", "dusseldorf"]);
    expect(tokenize("AH-1234")).toEqual(["ah", "1234"]);
    expect(tokenize("  ")).toEqual([]);
    expect(tokenize(null)).toEqual([]);
  });
  it("drops duplicate words", () => {
    expect(tokenize("Jumbo jumbo JUMBO")).toEqual(["jumbo"]);
  });
});

describe("parseSearchTerms", () => {
  it("separates terms by spaces and commas; a term with inner separators is a phrase", () => {
    expect(parseSearchTerms("ams, rotter  albert-heijn")).toEqual([["ams"], ["rotter"], ["albert", "heijn"]]);
    expect(parseSearchTerms(" , ")).toEqual([]);
  });
});

describe("escapeLike", () => {
  it("escapes LIKE wildcards", () => {
    expect(escapeLike("a_b%c\\")).toBe("a\\_b\\%c\\\\");
  });
});
