/** The canonical last_hash (shared/src/user-info-hash.ts), checked against node:crypto. */
import { createHash } from "node:crypto";
import { canonicalJson, userInfoHash } from "@service/shared/user-info-hash";
import { describe, expect, it } from "vitest";

describe("user info hash", () => {
  it("serialises with sorted keys, drops password and undefined, keeps null", () => {
    expect(canonicalJson({ b: 1, a: { d: null, c: "x" }, password: "p", u: undefined, l: [2, { z: 1, y: true }] }))
      .toBe('{"a":{"c":"x","d":null},"b":1,"l":[2,{"y":true,"z":1}]}');
  });

  it("is sha256 hex of the canonical JSON and independent of key order", async () => {
    const expected = createHash("sha256").update('{"first_name":"Zoë","last_name":null}', "utf8").digest("hex");
    expect(await userInfoHash({ last_name: null, first_name: "Zoë" })).toBe(expected);
    expect(await userInfoHash({ first_name: "Zoë", last_name: null, password: "secret" })).toBe(expected);
  });

  it("refuses values JSON cannot carry", () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(TypeError);
  });
});
