/**
 * Our own proxies (`TRUSTED_PROXIES`, handbook "client IP"), for both services: only a request
 * whose socket peer is one of them may bring the headers a proxy writes (X-Forwarded-For,
 * X-Request-Id). One meaning everywhere: parseTrustedProxies checks the list once, at start-up (the
 * configuration of either service reports a bad entry through trustedProxiesVariable), and
 * isTrustedProxy matches a peer against it.
 *
 * Node's BlockList does the matching (Deno provides it too, so the core API runs this on both).
 * An IPv4-mapped IPv6 peer (`::ffff:10.0.0.5`, what a dual-stack socket reports for an IPv4
 * client) matches the IPv4 ranges, and an IPv4-mapped range (`::ffff:10.0.0.0/104`) is the IPv4
 * range it covers. Entries are read strictly: IPv4 in four decimal parts without leading zeros,
 * no zone, a prefix within the family's bits.
 */
import { BlockList, isIP } from "node:net";

/** The parsed TRUSTED_PROXIES list. */
export interface TrustedProxies {
  /** how many ranges it holds; 0 trusts nobody */
  readonly count: number;
  /** the ranges (Node's BlockList); read through isTrustedProxy */
  readonly list: BlockList;
}

/** An IPv4 address inside IPv6 (`::ffff:a.b.c.d`). */
const MAPPED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;
/** The prefix length of `::ffff:0:0/96`, the block that embeds IPv4 addresses. */
const MAPPED_BITS = 96;

/**
 * Validates and compiles the TRUSTED_PROXIES list.
 * @param entries CIDRs or bare addresses, for example `["10.0.0.0/8", "::1"]` (surrounding spaces
 *   ignored); host bits of a range are ignored (`10.1.2.3/8` is `10.0.0.0/8`)
 * @throws Error `invalid configuration TRUSTED_PROXIES: "<entry>" is not a CIDR range or address`
 *   for the first malformed entry (a typo must not silently trust nobody, or everybody)
 */
export function parseTrustedProxies(entries: readonly string[]): TrustedProxies {
  const list = new BlockList();
  for (const entry of entries) {
    const range = parseRange(entry.trim());
    if (!range) throw new Error(`invalid configuration TRUSTED_PROXIES: "${entry}" is not a CIDR range or address`);
    const [address, bits, type] = range;
    if (bits === null) list.addAddress(address, type);
    else list.addSubnet(address, bits, type);
  }
  return { count: entries.length, list };
}

/**
 * Whether socket peer `address` is a trusted proxy.
 * @param address as the runtime reports it (`req.socket.remoteAddress`, a canonical address);
 *   undefined when the socket is gone
 * @returns false for an unknown or malformed address, and always with an empty list
 */
export function isTrustedProxy(proxies: TrustedProxies, address: string | undefined): boolean {
  if (address === undefined || proxies.count === 0) return false;
  const peer = MAPPED.exec(address)?.[1] ?? address;
  const family = isIP(peer);
  return family !== 0 && proxies.list.check(peer, family === 6 ? "ipv6" : "ipv4");
}

/** `[address, prefix bits or null for one address, family]` of one entry, or null when malformed. */
function parseRange(entry: string): [string, number | null, "ipv4" | "ipv6"] | null {
  const [address = "", prefix, extra] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || extra !== undefined || address.includes("%")) return null;
  const max = family === 6 ? 128 : 32;
  const bits = prefix === undefined ? null : /^(0|[1-9]\d{0,2})$/.test(prefix) ? Number(prefix) : NaN;
  if (bits !== null && !(bits <= max)) return null;
  const mapped = family === 6 ? MAPPED.exec(address)?.[1] : undefined;
  if (mapped !== undefined && (bits === null || bits >= MAPPED_BITS)) return [mapped, bits === null ? null : bits - MAPPED_BITS, "ipv4"];
  return [address, bits, family === 6 ? "ipv6" : "ipv4"];
}
