/**
 * CIDR ranges of the allowed IP ranges (spec, "AllowedIpRange": cidr, format cidr): parsing and
 * the one canonical text form they are stored, compared and rendered in. Pure: no I/O.
 *
 * Canonical form: the network address of the range (host bits cleared) and the prefix length;
 * IPv4 in dotted decimal, IPv6 in RFC 5952 form (lower case, longest zero run compressed).
 * Decisions:
 * - A bare address is the range of that one address: `/32` (IPv4) or `/128` (IPv6).
 * - IPv4 must be four decimal parts without leading zeros: ipaddr.js also reads `10.1`, `0x7f.1`
 *   and `010.0.0.1` (octal), whose meaning differs between tools; an allowlist must not guess.
 * - An IPv6 zone (`fe80::1%eth0`) is refused: it names an interface of one host, not a range.
 * - An IPv4-mapped IPv6 range of prefix >= 96 (`::ffff:10.0.0.0/104`) is stored as the IPv4 range
 *   it covers (`10.0.0.0/8`), so the same range has one form and one live entry per chain.
 */
import ipaddr from "ipaddr.js";
import { ServiceError } from "../http/service-error.ts";

/** A parsed range: the network address and the prefix length in bits. */
export type ParsedCidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

const IPV4 = /^(0|[1-9]\d{0,2})(\.(0|[1-9]\d{0,2})){3}$/;
const PREFIX = /^(0|[1-9]\d{0,2})$/;
/** `::ffff:0:0/96`: the IPv6 block that embeds IPv4 addresses. */
const MAPPED_BITS = 96;

/**
 * Parses a CIDR range or a bare address, strictly (see the module comment).
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
 * The canonical form of a CIDR range (see the module comment).
 * @example normaliseCidr("192.168.1.77/24") === "192.168.1.0/24"
 * @example normaliseCidr("2001:DB8:0:0::1/32") === "2001:db8::/32"
 * @example normaliseCidr("10.0.0.1") === "10.0.0.1/32"
 * @throws ServiceError parameter_invalid (419) when `input` is not an IPv4 or IPv6 range or address
 */
export function normaliseCidr(input: string): string {
  const parsed = parseCidr(input);
  if (!parsed) {
    throw new ServiceError("parameter_invalid", `cidr: "${input.slice(0, 64)}" is not an IPv4 or IPv6 range (for example 192.0.2.0/24).`);
  }
  return formatCidr(parsed);
}

/** `[address, bits]` as text in the canonical form. */
export function formatCidr([address, bits]: ParsedCidr): string {
  const text = address.kind() === "ipv4" ? address.toString() : (address as ipaddr.IPv6).toRFC5952String();
  return `${text}/${bits}`;
}

/** `address` with every bit after the first `bits` cleared. */
function networkOf(address: ipaddr.IPv4 | ipaddr.IPv6, bits: number): ipaddr.IPv4 | ipaddr.IPv6 {
  const bytes = address.toByteArray().map((byte, i) => {
    const keep = Math.min(8, Math.max(0, bits - i * 8));
    return byte & ((0xff << (8 - keep)) & 0xff);
  });
  return ipaddr.fromByteArray(bytes);
}
