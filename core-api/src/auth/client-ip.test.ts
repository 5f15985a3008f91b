import { parseTrustedProxies } from "@service/shared/node";
import { describe, expect, it } from "vitest";
import { resolveClientIp } from "./client-ip.ts";

describe("resolveClientIp", () => {
  const trusted = parseTrustedProxies(["10.0.0.0/8", "2001:db8:ffff::/48"]);

  it("is the socket address when there is no X-Forwarded-For or no trusted proxy", () => {
    expect(resolveClientIp("203.0.113.9", undefined, trusted)).toBe("203.0.113.9");
    expect(resolveClientIp("10.0.0.5", "203.0.113.9", parseTrustedProxies([]))).toBe("10.0.0.5");
    expect(resolveClientIp("::ffff:203.0.113.9", undefined, trusted)).toBe("203.0.113.9");
  });

  it("ignores X-Forwarded-For from a peer that is not a trusted proxy (spoofing)", () => {
    expect(resolveClientIp("203.0.113.9", "10.9.9.9", trusted)).toBe("203.0.113.9");
    expect(resolveClientIp("203.0.113.9", "192.0.2.1, 10.0.0.1", trusted)).toBe("203.0.113.9");
  });

  it("takes the right-most untrusted entry behind trusted proxies", () => {
    expect(resolveClientIp("10.0.0.1", "198.51.100.4", trusted)).toBe("198.51.100.4");
    // the client claims 192.0.2.1; the proxies saw 198.51.100.4 and then 10.0.0.2
    expect(resolveClientIp("10.0.0.1", "192.0.2.1, 198.51.100.4, 10.0.0.2", trusted)).toBe("198.51.100.4");
    expect(resolveClientIp("::ffff:10.0.0.1", "2001:db8::7, 2001:db8:ffff::1", trusted)).toBe("2001:db8::7");
    expect(resolveClientIp("10.0.0.1", "::ffff:198.51.100.4", trusted)).toBe("198.51.100.4");
  });

  it("is the left-most entry when every hop is a trusted proxy", () => {
    expect(resolveClientIp("10.0.0.1", "10.0.0.3, 10.0.0.2", trusted)).toBe("10.0.0.3");
  });

  it("is unknown when the trusted part of the chain is malformed or the socket is unknown", () => {
    expect(resolveClientIp("10.0.0.1", "198.51.100.4, garbage", trusted)).toBeNull();
    expect(resolveClientIp(undefined, "198.51.100.4", trusted)).toBeNull();
    expect(resolveClientIp("not-an-ip", undefined, trusted)).toBeNull();
    // garbage left of the first untrusted hop is never reached
    expect(resolveClientIp("10.0.0.1", "garbage, 198.51.100.4", trusted)).toBe("198.51.100.4");
  });
});
