/**
 * IP addresses and CIDR ranges in one canonical text form, for both services: the core API's
 * allowed IP ranges and client address (handbook, "client IP"), and the client address the
 * connector's authenticate counts its limits against. One spelling per address matters: a limit
 * counted per address is only a limit if `2001:DB8:0::1` and `2001:db8::1` are one address.
 * Pure: no I/O (ipaddr.js parses).
 *
 * Canonical form: IPv4 in dotted decimal, IPv6 in RFC 5952 form (lower case, longest zero run
 * compressed); a range is its network address (host bits cleared) and its prefix length.
 * Decisions:
 * - IPv4 must be four decimal parts without leading zeros: ipaddr.js also reads `10.1`, `0x7f.1`
 *   and `010.0.0.1` (octal), whose meaning differs between tools; an allowlist must not guess.
 * - An IPv6 zone (`fe80::1%eth0`) is refused in a range (it names an interface of one host) and
 *   dropped from an address.
 * - An IPv4-mapped IPv6 address or range of prefix >= 96 (`::ffff:10.0.0.0/104`, what a
 *   dual-stack socket reports for an IPv4 client) is the IPv4 address or range it carries.
 */
import ipaddr from "ipaddr.js";

/** A parsed range: the network address and the prefix length in bits. */
export type ParsedCidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

const IPV4 = /^(0|[1-9]\d{0,2})(\.(0|[1-9]\d{0,2})){3}$/;
const PREFIX = /^(0|[1-9]\d{0,2})$/;
/** `::ffff:0:0/96`: the IPv6 block that embeds IPv4 addresses. */
const MAPPED_BITS = 96;

/**
 * Parses a CIDR range or a bare address, strictly (see the module comment). A bare address is
 * the range of that one address: `/32` (IPv4) or `/128` (IPv6).
 * @param input for example `192.168.1.77/24`, `2001:DB8::1/32`, `10.0.0.1`
 * @returns the network address (host bits cleared) and prefix length, or null when malformed
 */
export function parseCidr(input: string): ParsedCidr | null {
  const text = input.trim();
  const slash = text.indexOf("/");
  const addressText = slash < 0 ? text : text.slice(0, slash);
  const prefixText = slash < 0 ? undefined : text.slice(slash + 1);
  if (addressText.includes("%")) return null;

  let address: ipaddr.IPv4 | ipaddr.IPv6;
  if (IPV4.test(addressText) && ipaddr.IPv4.isValid(addressText)) address = ipaddr.IPv4.parse(addressText);
  else if (addressText.includes(":") && ipaddr.IPv6.isValid(addressText)) address = ipaddr.IPv6.parse(addressText);
  else return null;

  const maxBits = address.kind() === "ipv4" ? 32 : 128;
  if (prefixText !== undefined && !PREFIX.test(prefixText)) return null;
  const bits = prefixText === undefined ? maxBits : Number(prefixText);
  if (bits > maxBits) return null;

  if (address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= MAPPED_BITS) {
    return [networkOf((address as ipaddr.IPv6).toIPv4Address(), bits - MAPPED_BITS), bits - MAPPED_BITS];
  }
  return [networkOf(address, bits), bits];
}

/**
 * `[address, bits]` as text in the canonical form.
 * @example formatCidr(parseCidr("2001:DB8:0:0::1/32")!) === "2001:db8::/32"
 */
export function formatCidr([address, bits]: ParsedCidr): string {
  const text = address.kind() === "ipv4" ? address.toString() : (address as ipaddr.IPv6).toRFC5952String();
  return `${text}/${bits}`;
}

/**
 * The canonical text of one address, tolerating what proxies and sockets write around it: white
 * space, a port (`192.0.2.7:5123`, `[2001:db8::1]:443`), brackets, a zone (`fe80::1%eth0`).
 * @returns for example `192.0.2.7` for `::ffff:192.0.2.7`, `2001:db8::1` for `2001:DB8:0:0::1`;
 *   null when `text` is not one IPv4 or IPv6 address (a range, `10.1`, `0x7f.0.0.1` are refused)
 */
export function canonicalAddress(text: string): string | null {
  let t = text.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(t);
  if (bracketed) t = bracketed[1]!;
  else if (/^[\d.]+:\d{1,5}$/.test(t)) t = t.slice(0, t.lastIndexOf(":"));
  t = t.replace(/%[0-9a-z._~-]+$/i, "");
  if (t === "" || t.includes("/")) return null;
  const parsed = parseCidr(t);
  return parsed ? formatCidr(parsed).replace(/\/\d+$/, "") : null;
}

/** `address` with every bit after the first `bits` cleared. */
function networkOf(address: ipaddr.IPv4 | ipaddr.IPv6, bits: number): ipaddr.IPv4 | ipaddr.IPv6 {
  const bytes = address.toByteArray().map((byte, i) => {
    const keep = Math.min(8, Math.max(0, bits - i * 8));
    return byte & ((0xff << (8 - keep)) & 0xff);
  });
  return ipaddr.fromByteArray(bytes);
}
