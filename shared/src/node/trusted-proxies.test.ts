/** TRUSTED_PROXIES for both services (trusted-proxies.ts): parsing the list and matching socket peers. */
import { describe, expect, it } from "vitest";
import { isTrustedProxy, parseTrustedProxies } from "./trusted-proxies.ts";

describe("isTrustedProxy", () => {
  const proxies = parseTrustedProxies(["10.0.0.0/8", "192.0.2.7", "2001:db8::/32"]);

  it("matches addresses inside the ranges, IPv4-mapped IPv6 peers included", () => {
    const inside = ["10.1.2.3", "::ffff:10.1.2.3", "192.0.2.7", "2001:db8::1"];
    expect(inside).toHaveLength(4);
    for (const peer of inside) expect(isTrustedProxy(proxies, peer), peer).toBe(true);
  });

  it("refuses other, malformed and unknown peers", () => {
    const outside = ["11.0.0.1", "192.0.2.8", "::ffff:11.0.0.1", "2001:db9::1", "not-an-address", undefined];
    expect(outside).toHaveLength(6);
    for (const peer of outside) expect(isTrustedProxy(proxies, peer), String(peer)).toBe(false);
  });

  it("trusts nobody with an empty list", () => {
    const none = parseTrustedProxies([]);
    expect(none.count).toBe(0);
    expect(isTrustedProxy(none, "127.0.0.1")).toBe(false);
  });

  it("reads a range with host bits as its network, and an IPv4-mapped range as the IPv4 range", () => {
    const list = parseTrustedProxies([" 10.1.2.3/8 ", "::ffff:192.168.0.0/112"]);
    expect(["10.200.0.1", "192.168.3.4", "::ffff:192.168.3.4"].map((a) => isTrustedProxy(list, a))).toEqual([true, true, true]);
    expect(["11.0.0.1", "192.169.0.1"].map((a) => isTrustedProxy(list, a))).toEqual([false, false]);
  });
});

describe("parseTrustedProxies", () => {
  it("refuses a malformed entry, naming it", () => {
    for (const entry of ["10.0.0/8", "10.1", "010.0.0.1", "10.0.0.0/33", "10.0.0.0/08", "2001:db8::/129", "fe80::1%eth0", "10.0.0.0/8/1", "proxy.local", ""]) {
      expect(() => parseTrustedProxies(["10.0.0.0/8", entry]), entry).toThrow(`invalid configuration TRUSTED_PROXIES: "${entry}" is not a CIDR range or address`);
    }
  });
});
