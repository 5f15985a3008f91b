import { describe, expect, it } from "vitest";
import { ServiceError } from "../http/service-error.ts";
import { parseCidr } from "@service/shared/ip-address";
import { normaliseCidr } from "./cidr.ts";

describe("normaliseCidr", () => {
  it("clears the host bits of IPv4 ranges", () => {
    expect(normaliseCidr("192.168.1.77/24")).toBe("192.168.1.0/24");
    expect(normaliseCidr("10.200.3.4/8")).toBe("10.0.0.0/8");
    expect(normaliseCidr("172.16.255.255/12")).toBe("172.16.0.0/12");
    expect(normaliseCidr("203.0.113.9/31")).toBe("203.0.113.8/31");
    expect(normaliseCidr("203.0.113.9/32")).toBe("203.0.113.9/32");
    expect(normaliseCidr("8.8.8.8/0")).toBe("0.0.0.0/0");
  });

  it("writes IPv6 in RFC 5952 form: lower case, zero runs compressed, host bits cleared", () => {
    expect(normaliseCidr("2001:DB8:0:0:0:0:0:1/32")).toBe("2001:db8::/32");
    expect(normaliseCidr("2001:0db8:85a3:0000:0000:8a2e:0370:7334/64")).toBe("2001:db8:85a3::/64");
    expect(normaliseCidr("2001:db8:abcd:12ff::1/52")).toBe("2001:db8:abcd:1000::/52");
    expect(normaliseCidr("FE80::1/10")).toBe("fe80::/10");
    expect(normaliseCidr("::/0")).toBe("::/0");
    expect(normaliseCidr("2001:db8::1/128")).toBe("2001:db8::1/128");
  });

  it("reads a bare address as that one address (/32 or /128)", () => {
    expect(normaliseCidr("10.0.0.1")).toBe("10.0.0.1/32");
    expect(normaliseCidr("2001:DB8::0:1")).toBe("2001:db8::1/128");
  });

  it("stores an IPv4-mapped IPv6 range as the IPv4 range it covers", () => {
    expect(normaliseCidr("::ffff:10.1.2.3/104")).toBe("10.0.0.0/8");
    expect(normaliseCidr("::ffff:192.0.2.1")).toBe("192.0.2.1/32");
    // wider than the mapped block: stays IPv6
    expect(normaliseCidr("::ffff:10.0.0.0/80")).toBe("::/80");
  });

  it("trims surrounding white space", () => {
    expect(normaliseCidr("  192.0.2.10/24 ")).toBe("192.0.2.0/24");
  });

  it("refuses malformed ranges with 419 parameter_invalid", () => {
    const bad = [
      "",
      "   ",
      "not an ip",
      "192.168.1.0/33",
      "192.168.1.0/-1",
      "192.168.1.0/",
      "192.168.1.0/24/8",
      "192.168.1.0/ 24",
      "192.168.1.0/024",
      "192.168.1.0/2x",
      "256.1.1.1/24",
      "1.2.3/24",
      "10.1",
      "0x7f.0.0.1/8",
      "010.0.0.1/8",
      "1.2.3.4.5",
      "2001:db8::1/129",
      "2001:db8:::1/64",
      "2001:db8::g/64",
      "12345::/16",
      "1:2:3:4:5:6:7:8:9/64",
      ":::/0",
      "fe80::1%eth0/64",
      "2001:db8::1%1",
      "::ffff:1.2.3.256/128",
      "/24",
    ];
    for (const input of bad) {
      expect(parseCidr(input), input).toBeNull();
      let err: unknown;
      try {
        normaliseCidr(input);
      } catch (e) {
        err = e;
      }
      expect(err, input).toBeInstanceOf(ServiceError);
      expect({ input, name: (err as ServiceError).errorName, status: (err as ServiceError).status }).toEqual({
        input,
        name: "parameter_invalid",
        status: 400,
      });
    }
  });
});
