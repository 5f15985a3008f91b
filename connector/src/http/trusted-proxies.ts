/**
 * Our own proxies (`TRUSTED_PROXIES`, as for the core API): only a request whose socket peer is one
 * of them may bring headers a proxy writes (X-Request-Id, http/http-log.ts). Node's BlockList
 * does the matching; an IPv4-mapped IPv6 peer (`::ffff:10.0.0.5`, what a dual-stack socket
 * reports for an IPv4 client) matches the IPv4 ranges.
 */
import { BlockList, isIP } from "node:net";

/**
 * Validates and compiles the TRUSTED_PROXIES list.
 * @param entries CIDRs or bare addresses, for example `["10.0.0.0/8", "::1"]`
 * @throws Error naming the first malformed entry (a typo must not silently trust nobody, or everybody)
 */
export function parseTrustedProxies(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = "", prefix, extra] = entry.split("/");
    const family = isIP(address);
    const bits = prefix === undefined ? null : /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
    const max = family === 6 ? 128 : 32;
    if (family === 0 || extra !== undefined || (bits !== null && !(bits <= max))) {
      throw new Error(`invalid connector configuration TRUSTED_PROXIES: "${entry}" is not a CIDR range or address`);
    }
    const type = family === 6 ? "ipv6" : "ipv4";
    if (bits === null) list.addAddress(address, type);
    else list.addSubnet(address, bits, type);
  }
  return list;
}

/**
 * Whether socket peer `address` is a trusted proxy.
 * @param address as Node reports it (`req.socket.remoteAddress`); undefined when the socket is gone
 */
export function isTrustedProxy(proxies: BlockList, address: string | undefined): boolean {
  if (address === undefined) return false;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  const peer = mapped ? mapped[1]! : address;
  const family = isIP(peer);
  return family !== 0 && proxies.check(peer, family === 6 ? "ipv6" : "ipv4");
}
