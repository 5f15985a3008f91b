/**
 * Money in cents (handbook, "Baskets": money): 2-decimal input only, 2-place output, half-up
 * rounding on .5-cent cases, largest-remainder splits with ties to the earlier line.
 */
import { describe, expect, it } from "vitest";
import { divideHalfUp, formatCents, multiplyHalfUp, splitByLargestRemainder, toCents } from "./money.ts";

describe("toCents / formatCents", () => {
  it.each([
    [12.5, 1250], ["12.50", 1250], ["12", 1200], [0.1, 10], ["-3.05", -305], [-0.01, -1], [9_999_999_999.99, 999_999_999_999], ["0", 0], ["-0", 0],
  ])("%s reads as %s cents", (input, cents) => expect(toCents(input)).toBe(cents));

  it.each([[0.125], ["1.234"], ["1,00"], [""], ["abc"], [Number.NaN], [Infinity], [1e21], [true], [null], ["1."], [".5"]])("%s is refused", (input) => {
    expect(toCents(input)).toBeNull();
  });

  it.each([[1250, "12.50"], [5, "0.05"], [-5, "-0.05"], [0, "0.00"], [-120_000, "-1200.00"]])("%s cents is %s", (cents, text) => {
    expect(formatCents(cents)).toBe(text);
  });
});

describe("half-up rounding", () => {
  it("rounds a half cent away from zero", () => {
    expect(divideHalfUp(5n, 10n)).toBe(1n);
    expect(divideHalfUp(4n, 10n)).toBe(0n);
    expect(divideHalfUp(-5n, 10n)).toBe(-1n);
    expect(divideHalfUp(15n, 10n)).toBe(2n);
  });

  it("multiplies exactly at 6 decimals: x.xx5 results round up where binary floating point would not", () => {
    // 0.05 x 10% = 0.005 -> 0.01; 1.05 x 50% = 0.525 -> 0.53; 333 cents x 15% = 49.95 -> 50
    expect(multiplyHalfUp(5, 0.1)).toBe(1);
    expect(multiplyHalfUp(105, 0.5)).toBe(53);
    expect(multiplyHalfUp(333, 0.15)).toBe(50);
    expect(Math.round(1.005 * 100)).toBe(100); // what the naive way gives
    expect(multiplyHalfUp(201, 0.5)).toBe(101);
    expect(multiplyHalfUp(100, 1.5)).toBe(150); // a fractional quantity
    expect(multiplyHalfUp(33, 0.333)).toBe(11); // 10.989
  });
});

describe("splitByLargestRemainder", () => {
  it("splits in proportion and adds up exactly", () => {
    expect(splitByLargestRemainder(100, [100, 100, 100])).toEqual([34, 33, 33]); // ties: the earlier line
    expect(splitByLargestRemainder(100, [100, 200])).toEqual([33, 67]);
    expect(splitByLargestRemainder(1, [50, 50])).toEqual([1, 0]);
    expect(splitByLargestRemainder(10, [3, 0, 7])).toEqual([3, 0, 7]);
    expect(splitByLargestRemainder(0, [3, 7])).toEqual([0, 0]);
  });

  it("never gives a line more than its weight, and the shares sum to the total", () => {
    for (let t = 1; t <= 60; t++) {
      const w = [7, 13, 1, 19, 20];
      const s = splitByLargestRemainder(t, w);
      expect(s.reduce((a, b) => a + b, 0)).toBe(t);
      s.forEach((x, i) => expect(x).toBeLessThanOrEqual(w[i]!));
    }
  });
});
