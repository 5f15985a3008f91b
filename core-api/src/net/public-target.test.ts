/**
 * The public-address rule of outbound targets (net/public-target.ts), shared by webhook targets
 * and key-set URLs: a table of addresses (IPv4, IPv6, the IPv4-compatible, -mapped and embedding
 * forms), of URL spellings, and of names whose resolver answer is private. The resolver is a
 * stub: nothing is looked up or connected to.
 */
import { describe, expect, it } from "vitest";
import { addressRange, assessTarget, isPublicAddress, requirePublicTarget, type TargetPolicy } from "./public-target.ts";

/** Every special range the rule refuses, with an address in it. */
const REFUSED: Array<[address: string, what: string]> = [
  ["0.0.0.0", "this network 0.0.0.0/8"],
  ["0.1.2.3", "this network 0.0.0.0/8"],
  ["10.0.0.1", "private 10/8"],
  ["172.16.0.1", "private 172.16/12"],
  ["172.31.255.254", "private 172.16/12"],
  ["192.168.1.1", "private 192.168/16"],
  ["127.0.0.1", "loopback"],
  ["127.255.255.254", "loopback"],
  ["169.254.169.254", "link-local (cloud metadata)"],
  ["100.64.0.1", "carrier-grade NAT 100.64/10"],
  ["100.127.255.254", "carrier-grade NAT 100.64/10"],
  ["192.0.0.8", "IETF protocol assignments 192.0.0/24"],
  ["192.0.2.1", "documentation"],
  ["198.18.0.1", "benchmarking 198.18/15"],
  ["224.0.0.1", "multicast"],
  ["239.255.255.250", "multicast"],
  ["240.0.0.1", "reserved 240/4"],
  ["255.255.255.255", "broadcast"],
  ["::", "unspecified"],
  ["::1", "loopback"],
  ["::127.0.0.1", "IPv4-compatible loopback"],
  ["::7f00:1", "IPv4-compatible loopback (hex)"],
  ["::a00:1", "IPv4-compatible private"],
  ["::5db8:d822", "IPv4-compatible, even of a public address (deprecated ::/96)"],
  ["::ffff:10.0.0.1", "IPv4-mapped private"],
  ["::ffff:7f00:1", "IPv4-mapped loopback"],
  ["::ffff:169.254.169.254", "IPv4-mapped link-local"],
  ["::ffff:0:a00:1", "IPv4-translated (RFC 6145)"],
  ["64:ff9b::a00:1", "NAT64 of 10.0.0.1"],
  ["64:ff9b::7f00:1", "NAT64 of 127.0.0.1"],
  ["64:ff9b:1::a00:1", "local-use NAT64 (RFC 8215)"],
  ["2002:a00:1::1", "6to4 of 10.0.0.1"],
  ["2002:7f00:1::1", "6to4 of 127.0.0.1"],
  ["2001:0:4136:e378:8000:63bf:f5ff:fffe", "Teredo (its client address is 10.0.0.1)"],
  ["fc00::1", "unique local"],
  ["fd12:3456:789a::1", "unique local"],
  ["fe80::1", "link local"],
  ["fec0::1", "site local (deprecated)"],
  ["ff02::1", "multicast"],
  ["100::1", "discard 100::/64"],
  ["2001:db8::1", "documentation"],
  ["2001:10::1", "ORCHID"],
  ["400::1", "outside global unicast 2000::/3"],
  ["not an address", "no address at all"],
];

const PUBLIC = ["93.184.216.34", "8.8.8.8", "1.1.1.1", "2606:4700::1111", "2a00:1450:4001::200e", "::ffff:93.184.216.34"];

/** A stub resolver: what each name resolves to; unknown names do not resolve. */
const DNS: Record<string, string[]> = {
  "idp.example.com": ["93.184.216.34"],
  "metadata.example.com": ["169.254.169.254"],
  "intranet.example.com": ["10.0.0.1"],
  "mixed.example.com": ["93.184.216.34", "192.168.1.1"],
  "v6-private.example.com": ["2606:4700::1111", "fd00::1"],
  "compat.example.com": ["::7f00:1"],
  "mapped.example.com": ["::ffff:127.0.0.1"],
  "nat64.example.com": ["64:ff9b::a9fe:a9fe"],
};
const lookups: string[] = [];
const policy: TargetPolicy = {
  allowPrivate: false,
  resolveHost: async (host) => {
    lookups.push(host);
    const found = DNS[host];
    if (!found) throw new Error(`getaddrinfo ENOTFOUND ${host}`);
    return found;
  },
};

describe("isPublicAddress", () => {
  it.each(REFUSED)("refuses %s (%s)", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it("accepts public IPv4 and IPv6 addresses, and an IPv4-mapped public one", () => {
    expect(PUBLIC.map((a) => [a, isPublicAddress(a)])).toEqual(PUBLIC.map((a) => [a, true]));
  });

  it("names the range: ipaddr.js's names, ipv4Compatible for ::/96, reserved outside 2000::/3", () => {
    expect(["::7f00:1", "::ffff:10.0.0.1", "64:ff9b::a00:1", "2002:a00:1::1", "400::1", "x"].map(addressRange))
      .toEqual(["ipv4Compatible", "private", "rfc6052", "6to4", "reserved", null]);
  });
});

describe("assessTarget", () => {
  it("refuses every URL spelling of a non-public address, naming the field and the range", async () => {
    const cases: Array<[url: string, reason: RegExp]> = [
      ["https://169.254.169.254/latest/meta-data/", /^jwt_jwks_url points at 169\.254\.169\.254, a link-local address/],
      ["https://10.0.0.1/jwks", /10\.0\.0\.1, a private address/],
      ["http://127.0.0.1/jwks", /127\.0\.0\.1, a loopback address/],
      ["https://[::127.0.0.1]/jwks", /::7f00:1, an IPv4-compatible IPv6 address/],
      ["https://[::7f00:1]/jwks", /IPv4-compatible/],
      ["https://[::ffff:10.0.0.1]/jwks", /a private address/],
      ["https://[64:ff9b::a00:1]/jwks", /a NAT64 address/],
      ["https://[fd00::1]/jwks", /a unique-local address/],
      ["https://0x7f.1/jwks", /127\.0\.0\.1, a loopback/],
      ["https://2130706433/jwks", /127\.0\.0\.1, a loopback/],
      ["https://0/jwks", /0\.0\.0\.0, an unspecified/],
      ["https://100.64.1.1/jwks", /carrier-grade NAT/],
      ["https://metadata.example.com/jwks", /169\.254\.169\.254, a link-local/],
      ["https://intranet.example.com/jwks", /10\.0\.0\.1, a private/],
      ["https://mixed.example.com/jwks", /192\.168\.1\.1, a private/],
      ["https://v6-private.example.com/jwks", /fd00::1, a unique-local/],
      ["https://compat.example.com/jwks", /::7f00:1, an IPv4-compatible/],
      ["https://mapped.example.com/jwks", /::ffff:127\.0\.0\.1, a loopback/],
      ["https://nat64.example.com/jwks", /a NAT64 address/],
    ];
    for (const [url, reason] of cases) {
      const verdict = await assessTarget(url, policy, "jwt_jwks_url");
      expect({ url, verdict }).toEqual({ url, verdict: { ok: false, reason: expect.stringMatching(reason), retryable: false } });
    }
  });

  it("passes a public literal or a name resolving only to public addresses, and looks up only names", async () => {
    lookups.length = 0;
    for (const url of ["https://93.184.216.34/jwks", "https://[2606:4700::1111]/jwks", "https://idp.example.com/.well-known/jwks.json"]) {
      expect(await assessTarget(url, policy, "jwt_jwks_url")).toEqual({ ok: true, url: new URL(url) });
    }
    expect(lookups).toEqual(["idp.example.com"]);
  });

  it("a name that does not resolve is refused as retryable; bad URLs are refused outright", async () => {
    expect(await assessTarget("https://nowhere.example.com/", policy, "jwt_jwks_url")).toEqual({ ok: false, reason: "jwt_jwks_url's host nowhere.example.com does not resolve", retryable: true });
    expect((await assessTarget("ftp://idp.example.com/", policy)).ok).toBe(false);
    expect((await assessTarget("https://user:pw@idp.example.com/", policy)).ok).toBe(false);
    expect((await assessTarget("/relative", policy)).ok).toBe(false);
  });

  it("with WEBHOOK_ALLOW_PRIVATE passes any address and resolves nothing", async () => {
    lookups.length = 0;
    const open = { ...policy, allowPrivate: true };
    for (const url of ["http://127.0.0.1/x", "https://[::7f00:1]/x", "https://metadata.example.com/x"]) expect((await assessTarget(url, open)).ok).toBe(true);
    expect(lookups).toEqual([]);
  });

  it("requirePublicTarget throws 419 parameter_invalid with the reason", async () => {
    await expect(requirePublicTarget("https://10.0.0.1/jwks", policy, "jwt_jwks_url")).rejects.toMatchObject({
      errorName: "parameter_invalid",
      message: expect.stringMatching(/^jwt_jwks_url points at 10\.0\.0\.1, a private address/),
    });
  });
});
