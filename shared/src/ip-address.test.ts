/** The one spelling of an address both services count and compare by (ip-address.ts). */
import { describe, expect, it } from "vitest";
import { canonicalAddress, formatCidr, parseCidr } from "./ip-address.ts";

describe("canonicalAddress", () => {
  it("reads IPv4, IPv6 and IPv4-mapped IPv6 into one form", () => {
    expect(canonicalAddress(" 192.0.2.7 ")).toBe("192.0.2.7");
    expect(canonicalAddress("2001:DB8:0:0::1")).toBe("2001:db8::1");
    expect(canonicalAddress("::ffff:192.0.2.7")).toBe("192.0.2.7");
    expect(canonicalAddress("::FFFF:c000:0207")).toBe("192.0.2.7");
    expect(canonicalAddress("fe80::1%eth0")).toBe("fe80::1");
  });
  it("drops the ports proxies sometimes add", () => {
    expect(canonicalAddress("192.0.2.7:5123")).toBe("192.0.2.7");
    expect(canonicalAddress("[2001:db8::1]:443")).toBe("2001:db8::1");
    expect(canonicalAddress("[::ffff:10.0.0.1]")).toBe("10.0.0.1");
  });
  it("refuses what is not exactly one address", () => {
    for (const bad of ["", "unknown", "10.1", "0x7f.0.0.1", "010.0.0.1", "192.0.2.0/24", "1.2.3.4.5", "999.1.1.1", "::g"]) {
      expect(canonicalAddress(bad), bad).toBeNull();
    }
  });
});

describe("parseCidr and formatCidr", () => {
  it("give a range its network address and prefix, IPv4-mapped ranges as IPv4", () => {
    expect(formatCidr(parseCidr("192.168.1.77/24")!)).toBe("192.168.1.0/24");
    expect(formatCidr(parseCidr("2001:DB8:0:0::1/32")!)).toBe("2001:db8::/32");
    expect(formatCidr(parseCidr("::ffff:10.1.2.3/104")!)).toBe("10.0.0.0/8");
    expect(formatCidr(parseCidr("10.0.0.1")!)).toBe("10.0.0.1/32");
  });
  it("refuse a zone, a bad prefix and loose IPv4", () => {
    for (const bad of ["fe80::1%eth0/64", "10.0.0.0/33", "10.0.0.0/024", "10.1/8", "0x7f.0.0.1"]) expect(parseCidr(bad), bad).toBeNull();
  });
});
