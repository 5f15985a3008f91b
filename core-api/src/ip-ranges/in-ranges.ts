/**
 * Whether a client address lies inside a chain's allowed IP ranges (spec, "AllowedIpRange":
 * admin login requests must come from an address inside at least one range). Pure: no I/O; the
 * login check reads the ranges and the client address and asks here.
 */
import { parseCidr, type ParsedCidr } from "@service/shared/ip-address";

/**
 * Tests `ip` against `cidrs`.
 *
 * An IPv4-mapped IPv6 address (`::ffff:192.0.2.7`, what a dual-stack socket reports for an IPv4
 * client) is compared as the IPv4 address it carries, and an IPv4-mapped range as its IPv4 range,
 * so either spelling matches the other. A zone (`fe80::1%eth0`) on the address is ignored. The
 * address follows the strict rules of @service/shared/ip-address (IPv4 as four decimal parts).
 * @param ip the client address, IPv4 or IPv6, without a prefix
 * @param cidrs ranges in any form `parseCidr` reads (normally the stored canonical form)
 * @returns true when `ip` is inside at least one range; false for an empty list, for a malformed
 *   `ip` (it cannot be shown to be inside), and malformed entries never match
 * @example ipInRanges("::ffff:10.1.2.3", ["10.0.0.0/8"]) === true
 */
export function ipInRanges(ip: string, cidrs: readonly string[]): boolean {
  const address = parseAddress(ip);
  if (!address) return false;
  for (const cidr of cidrs) {
    const range = parseCidr(cidr);
    if (range && range[0].kind() === address.kind() && address.match(range)) return true;
  }
  return false;
}

/** The address alone, read as a one-address range so both sides follow the same rules (@service/shared/ip-address). */
function parseAddress(ip: string): ParsedCidr[0] | null {
  const text = ip.trim().replace(/%[0-9a-z._~-]+$/i, "");
  if (text.includes("/")) return null;
  return parseCidr(text)?.[0] ?? null;
}
