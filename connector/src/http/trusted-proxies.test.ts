/** TRUSTED_PROXIES for the connector (http/trusted-proxies.ts): parsing and matching socket peers. */
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
    expect(isTrustedProxy(parseTrustedProxies([]), "127.0.0.1")).toBe(false);
  });
});
