/** The client address authenticate counts against (http/client-address.ts). */
import { describe, expect, it } from "vitest";
import { resolveClientAddress } from "./client-address.ts";
import { parseTrustedProxies } from "@service/shared/node";

const none = parseTrustedProxies([]);
const proxy = parseTrustedProxies(["10.0.0.0/8"]);

describe("resolveClientAddress", () => {
  it("believes the entry the platform wrote only on the platform's request (its integration token), not by its address", () => {
    expect(resolveClientAddress("127.0.0.1", "198.51.100.7", none, true)).toBe("198.51.100.7");
    expect(resolveClientAddress("127.0.0.1", "198.51.100.7", none, false)).toBe("127.0.0.1");
    // the platform's entry is the last one: what its caller wrote further left proves nothing
    expect(resolveClientAddress("127.0.0.1", "6.6.6.6, 198.51.100.7", none, true)).toBe("198.51.100.7");
  });

  it("skips our own proxies in front of the connector, then takes the platform's entry", () => {
    // shopper -> platform (192.0.2.5) -> proxy 10.0.0.2 -> connector
    expect(resolveClientAddress("10.0.0.2", "198.51.100.7, 192.0.2.5", proxy, true)).toBe("198.51.100.7");
    expect(resolveClientAddress("10.0.0.2", "198.51.100.7, 192.0.2.5", proxy, false)).toBe("192.0.2.5");
    // an untrusted peer's header is not believed without the platform's token
    expect(resolveClientAddress("192.0.2.9", "198.51.100.7", proxy, false)).toBe("192.0.2.9");
  });

  it("is the platform's own address when it forwards none, one spelling per address, and null when unknown or malformed", () => {
    expect(resolveClientAddress("::ffff:127.0.0.1", undefined, none, true)).toBe("127.0.0.1");
    expect(resolveClientAddress("127.0.0.1", "::FFFF:198.51.100.7", none, true)).toBe("198.51.100.7");
    expect(resolveClientAddress("127.0.0.1", "2001:DB8::1", none, true)).toBe("2001:db8::1");
    expect(resolveClientAddress("127.0.0.1", "2001:0db8:0:0::1", none, true)).toBe("2001:db8::1");
    expect(resolveClientAddress("127.0.0.1", "[2001:db8::1]:443", none, true)).toBe("2001:db8::1");
    expect(resolveClientAddress(undefined, "198.51.100.7", none, true)).toBeNull();
    expect(resolveClientAddress("127.0.0.1", "not-an-address", none, true)).toBeNull();
  });
});
