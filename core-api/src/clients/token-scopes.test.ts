import { describe, expect, it } from "vitest";
import { parseScopeFields, requestedScope } from "./token-scopes.ts";

const denied = (scope: string, chainId = 7) =>
  expect(() => requestedScope(scope, chainId)).toThrow(expect.objectContaining({ errorName: "access_denied", status: 403 }));

describe("requestedScope (POST /resources/access_token scope rules)", () => {
  it("accepts chain:{id} and read_businesses:{id} of the header chain, alone or together", () => {
    expect(requestedScope("chain:7", 7)).toBe("chain:7");
    expect(requestedScope("read_businesses:7", 7)).toBe("read_businesses:7");
    expect(requestedScope("chain:7,read_businesses:7", 7)).toBe("chain:7,read_businesses:7");
    expect(requestedScope("read_businesses:7,chain:7", 7)).toBe("read_businesses:7,chain:7");
  });

  it("ignores blanks around fields and counts a repeated field once", () => {
    expect(requestedScope(" chain:7 , read_businesses:7 ", 7)).toBe("chain:7,read_businesses:7");
    expect(requestedScope("chain:7,chain:7", 7)).toBe("chain:7");
  });

  it("refuses another chain, another key, malformed and empty scopes with access_denied (424)", () => {
    for (const scope of [
      "chain:8",
      "read_businesses:8",
      "chain:7,chain:8",
      "chain:7,read_businesses:70",
      "chain:07",
      "chain:+7",
      "chain: 7",
      "chain:7.0",
      "chain:*",
      "admin:7",
      "CHAIN:7",
      "read_vouchers:7",
      "chain",
      "chain:",
      ":7",
      "7",
      "chain:7:7",
      "chain:7;read_businesses:7",
      "chain:7,",
      ",chain:7",
      "chain:7,,read_businesses:7",
      "",
      "   ",
    ]) {
      denied(scope);
    }
    expect(() => requestedScope("chain:8", 7)).toThrow(/chain:7/);
  });
});

describe("parseScopeFields (stored scopes, operator-provisioned ones included)", () => {
  it("splits key:value fields and drops fields that grant nothing", () => {
    expect(parseScopeFields("chain:7,read_businesses:8")).toEqual([
      { key: "chain", value: "7" },
      { key: "read_businesses", value: "8" },
    ]);
    expect(parseScopeFields(" chain:7 ,junk,:9,,x:")).toEqual([
      { key: "chain", value: "7" },
      { key: "x", value: "" },
    ]);
    expect(parseScopeFields("")).toEqual([]);
  });
});
