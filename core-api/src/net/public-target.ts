/**
 * Where the service may send a request of its own (SSRF): the one rule for every URL a chain's
 * settings make core-api fetch, webhook targets (`target_url`) and shopper-token key sets
 * (`jwt_jwks_url`). An absolute http(s) URL of at most 2,048 characters, without credentials,
 * whose host is, and resolves only to, public unicast addresses:
 * - ipaddr.js's range must be `unicast`: loopback, private (RFC 1918), carrier-grade NAT
 *   (100.64.0.0/10), link-local, 0.0.0.0/8, broadcast, multicast, reserved and documentation
 *   ranges, unique-local (fc00::/7), site-local, NAT64 (64:ff9b::/96, 64:ff9b:1::/48), 6to4
 *   (2002::/16), Teredo (2001::/32) and the other special IPv6 ranges are refused; an IPv4-mapped
 *   address (`::ffff:10.0.0.1`) is judged as its IPv4 address;
 * - on top of ipaddr.js: IPv4-compatible IPv6 (`::/96`, deprecated by RFC 4291, `[::127.0.0.1]`
 *   is `[::7f00:1]`), which ipaddr.js calls unicast, and any IPv6 address outside global unicast
 *   2000::/3 (nothing else is routable on the internet).
 * With WEBHOOK_ALLOW_PRIVATE every address passes (a test rig, a receiver on the same host) and
 * nothing is resolved.
 *
 * Checked when the setting is written (419 parameter_invalid, requirePublicTarget) and again
 * before every request, where the Node entry also checks the address the socket connects to
 * (net/public-fetch.node.ts), so a name that later resolves to a private address (DNS rebinding)
 * is not reached.
 */
import ipaddr from "ipaddr.js";
import { ServiceError } from "../http/service-error.ts";

/** Longest target URL accepted. */
export const MAX_TARGET_URL_LENGTH = 2048;

/** What the check needs from the service. */
export interface TargetPolicy {
  /** WEBHOOK_ALLOW_PRIVATE */
  allowPrivate: boolean;
  /** host name -> its addresses; throws when it does not resolve */
  resolveHost: (hostname: string) => Promise<string[]>;
}

/** The resolver of a service given none: every name is unresolvable, so only IP literals can pass. */
export const resolvesNothing = async (hostname: string): Promise<string[]> => {
  throw new Error(`no host resolver: ${hostname} cannot be resolved`);
};

/** IPv4-compatible IPv6 addresses (RFC 4291 2.5.5.1, deprecated): `::a.b.c.d`. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR("::/96");
/** IPv6 global unicast (RFC 4291 2.4): every public IPv6 address is in it. */
const GLOBAL_UNICAST = ipaddr.parseCIDR("2000::/3");

/**
 * The range `address` is in: ipaddr.js's range name (IPv4-mapped IPv6 as IPv4), `ipv4Compatible`
 * for ::/96, `reserved` for IPv6 outside 2000::/3; `unicast` only for a public address.
 * @returns the range name, or null when `address` is no IP address
 */
export function addressRange(address: string): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return null;
  }
  const range = parsed.range();
  if (range !== "unicast" || parsed.kind() === "ipv4") return range;
  const v6 = parsed as ipaddr.IPv6;
  if (v6.match(IPV4_COMPATIBLE)) return "ipv4Compatible";
  return v6.match(GLOBAL_UNICAST) ? "unicast" : "reserved";
}

/** Whether `address` may be connected to: a public unicast address only (see the module comment). */
export function isPublicAddress(address: string): boolean {
  return addressRange(address) === "unicast";
}

/** The verdict on a target: its URL, or why it is refused (`retryable`: the name did not resolve, which may pass later). */
export type TargetVerdict = { ok: true; url: URL } | { ok: false; reason: string; retryable: boolean };

/**
 * Judges `raw` as an outbound target under `policy`. Never throws for bad input.
 * @param field the setting's name, for the reason (`target_url`, `jwt_jwks_url`)
 * @example await assessTarget("http://10.0.0.5/hook", { allowPrivate: false, resolveHost })
 *   // { ok: false, reason: "target_url points at 10.0.0.5, a private address (...)", retryable: false }
 */
export async function assessTarget(raw: string, policy: TargetPolicy, field = "target_url"): Promise<TargetVerdict> {
  const refuse = (reason: string, retryable = false): TargetVerdict => ({ ok: false, reason, retryable });
  if (raw.length > MAX_TARGET_URL_LENGTH) return refuse(`${field} is longer than ${MAX_TARGET_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse(`${field} is not an absolute URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return refuse(`${field} must be an http or https URL`);
  if (url.username || url.password) return refuse(`${field} must not carry a user name or password`);
  if (policy.allowPrivate) return { ok: true, url };

  // The URL parser has already normalised IPv4 spellings (0x7f.1, 2130706433) and IPv6 ones.
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  if (ipaddr.isValid(host)) addresses = [host];
  else {
    try {
      addresses = await policy.resolveHost(host);
    } catch {
      return refuse(`${field}'s host ${host} does not resolve`, true);
    }
    if (addresses.length === 0) return refuse(`${field}'s host ${host} does not resolve`, true);
  }
  for (const address of addresses) {
    const range = addressRange(address);
    if (range !== "unicast") return refuse(`${field} points at ${address}, ${describeRange(range)} address (WEBHOOK_ALLOW_PRIVATE allows it)`);
  }
  return { ok: true, url };
}

/**
 * assessTarget for a write: the URL, or 419.
 * @param field the setting's name, for the message
 * @throws ServiceError parameter_invalid (419) naming why the target is refused
 */
export async function requirePublicTarget(raw: string, policy: TargetPolicy, field = "target_url"): Promise<URL> {
  const verdict = await assessTarget(raw, policy, field);
  if (!verdict.ok) throw new ServiceError("parameter_invalid", `${verdict.reason}.`);
  return verdict.url;
}

/** Range names as people write them. */
const RANGE_LABELS: Record<string, string> = {
  carrierGradeNat: "carrier-grade NAT",
  linkLocal: "link-local",
  uniqueLocal: "unique-local",
  ipv4Compatible: "IPv4-compatible IPv6",
  rfc6052: "NAT64",
  rfc6145: "IPv4-translated",
  deprecatedSiteLocal: "site-local",
};

/** "a private", "an IPv4-compatible IPv6", "no valid": the range as the reason names it. */
function describeRange(range: string | null): string {
  if (range === null) return "no valid";
  const label = RANGE_LABELS[range] ?? range;
  return `${/^[aeio]|^IPv|^unsp/i.test(label) ? "an" : "a"} ${label}`;
}
