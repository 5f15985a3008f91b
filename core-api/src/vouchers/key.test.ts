import { describe, expect, it } from "vitest";
import { generateVoucherKey, KEY_ALPHABET } from "./key.ts";

describe("generateVoucherKey", () => {
  it("makes 64 base62 characters, different every time", () => {
    const keys = new Set(Array.from({ length: 2000 }, () => generateVoucherKey()));
    expect(keys.size).toBe(2000);
    for (const k of keys) expect(k).toMatch(/^[0-9A-Za-z]{64}$/);
  });

  it("uses every character of the alphabet about equally often (no modulo bias)", () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 2000; i++) for (const ch of generateVoucherKey()) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 128000 characters / 62 = 2065 expected each; 5 standard deviations is about +-225.
    for (const n of counts.values()) expect(Math.abs(n - 2065)).toBeLessThan(260);
  });

  it("maps bytes below 248 modulo 62 and discards 248..255", () => {
    let call = 0;
    const key = generateVoucherKey((bytes) => {
      call++;
      // first round: only discarded bytes; second: 0, 61, 62, 247, 248, 0, 1, ...
      bytes.set(call === 1 ? bytes.map(() => 255) : bytes.map((_, i) => [0, 61, 62, 247, 248][i] ?? i % 62));
    });
    expect(call).toBe(2);
    expect(key.slice(0, 4)).toBe(`${KEY_ALPHABET[0]}${KEY_ALPHABET[61]}${KEY_ALPHABET[0]}${KEY_ALPHABET[247 % 62]}`);
    expect(key.slice(4, 6)).toBe(`${KEY_ALPHABET[5]}${KEY_ALPHABET[6]}`);
    expect(key).toHaveLength(64);
  });

  it("fails loudly on a source that yields only discarded bytes", () => {
    expect(() => generateVoucherKey((bytes) => bytes.fill(250))).toThrow(/random source/);
  });
});
