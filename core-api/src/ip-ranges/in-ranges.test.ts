import { describe, expect, it } from "vitest";
import { ipInRanges } from "./in-ranges.ts";

describe("ipInRanges", () => {
  it("matches IPv4 addresses against IPv4 ranges, including both ends of a range", () => {
    const ranges = ["192.168.1.0/24", "10.0.0.7/32"];
    expect(ipInRanges("192.168.1.0", ranges)).toBe(true);
    expect(ipInRanges("192.168.1.255", ranges)).toBe(true);
    expect(ipInRanges("192.168.2.0", ranges)).toBe(false);
    expect(ipInRanges("10.0.0.7", ranges)).toBe(true);
    expect(ipInRanges("10.0.0.8", ranges)).toBe(false);
  });

  it("matches IPv6 addresses against IPv6 ranges and never across families", () => {
    expect(ipInRanges("2001:db8::42", ["2001:db8::/32"])).toBe(true);
    expect(ipInRanges("2001:DB9::42", ["2001:db8::/32"])).toBe(false);
    expect(ipInRanges("::1", ["0.0.0.0/0"])).toBe(false);
    expect(ipInRanges("127.0.0.1", ["::/0"])).toBe(false);
  });

  it("compares an IPv4-mapped IPv6 address as its IPv4 address, and a mapped range as its IPv4 range", () => {
    expect(ipInRanges("::ffff:192.168.1.20", ["192.168.1.0/24"])).toBe(true);
    expect(ipInRanges("::FFFF:c0a8:0114", ["192.168.1.0/24"])).toBe(true);
    expect(ipInRanges("::ffff:192.168.9.20", ["192.168.1.0/24"])).toBe(false);
    expect(ipInRanges("192.168.1.20", ["::ffff:192.168.1.0/120"])).toBe(true);
  });

  it("ignores a zone on the address", () => {
    expect(ipInRanges("fe80::1%eth0", ["fe80::/10"])).toBe(true);
  });

  it("is false for no ranges, a malformed address, and skips malformed ranges", () => {
    expect(ipInRanges("10.0.0.1", [])).toBe(false);
    for (const ip of ["", "garbage", "10.1", "010.0.0.1", "10.0.0.1/32", "2001:db8:::1"]) {
      expect(ipInRanges(ip, ["0.0.0.0/0", "::/0"]), ip).toBe(false);
    }
    expect(ipInRanges("10.0.0.1", ["nonsense", "10.0.0.0/33", "10.0.0.0/8"])).toBe(true);
    expect(ipInRanges("10.0.0.1", ["nonsense"])).toBe(false);
  });
});
