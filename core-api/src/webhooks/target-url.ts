/**
 * Where a webhook may point (issue 9, "Bad input"; SSRF): an absolute http(s) URL of at most
 * 2,048 characters, without credentials, whose host is, and resolves only to, public unicast
 * addresses (ipaddr.js range `unicast`): loopback, private (RFC 1918), carrier-grade NAT,
 * link-local, unique-local (fc00::/7), multicast, reserved and unspecified addresses are refused,
 * IPv4-mapped IPv6 addresses as their IPv4 address. With WEBHOOK_ALLOW_PRIVATE every address
 * passes (a test rig, a receiver on the same host) and nothing is resolved.
 *
 * Checked when a webhook is configured (419 parameter_invalid) and again before every send
 * (webhooks/webhook-destination.ts), so a name that later resolves to a private address (DNS
 * rebinding) is not sent to.
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

/** The verdict on a target: its URL, or why it is refused (`retryable`: the name did not resolve, which may pass later). */
export type TargetVerdict = { ok: true; url: URL } | { ok: false; reason: string; retryable: boolean };

/**
 * Judges `raw` as a webhook target under `policy`. Never throws for bad input.
 * @example await assessTarget("http://10.0.0.5/hook", { allowPrivate: false, resolveHost })
 *   // { ok: false, reason: "target_url points at 10.0.0.5, a private address", retryable: false }
 */
export async function assessTarget(raw: string, policy: TargetPolicy): Promise<TargetVerdict> {
  const refuse = (reason: string, retryable = false): TargetVerdict => ({ ok: false, reason, retryable });
  if (raw.length > MAX_TARGET_URL_LENGTH) return refuse(`target_url is longer than ${MAX_TARGET_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse("target_url is not an absolute URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return refuse("target_url must be an http or https URL");
  if (url.username || url.password) return refuse("target_url must not carry a user name or password");
  if (policy.allowPrivate) return { ok: true, url };

  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  if (ipaddr.isValid(host)) addresses = [host];
  else {
    try {
      addresses = await policy.resolveHost(host);
    } catch {
      return refuse(`target_url's host ${host} does not resolve`, true);
    }
    if (addresses.length === 0) return refuse(`target_url's host ${host} does not resolve`, true);
  }
  for (const address of addresses) {
    const range = rangeOf(address);
    if (range !== "unicast") return refuse(`target_url points at ${address}, ${range === null ? "no valid" : `a ${RANGE_LABELS[range] ?? range}`} address (WEBHOOK_ALLOW_PRIVATE allows it)`);
  }
  return { ok: true, url };
}

/**
 * assessTarget for a write: the URL, or 419.
 * @throws ServiceError parameter_invalid (419) naming why the target is refused
 */
export async function requirePublicTarget(raw: string, policy: TargetPolicy): Promise<URL> {
  const verdict = await assessTarget(raw, policy);
  if (!verdict.ok) throw new ServiceError("parameter_invalid", `${verdict.reason}.`);
  return verdict.url;
}

/** ipaddr.js's range names as people write them. */
const RANGE_LABELS: Record<string, string> = {
  carrierGradeNat: "carrier-grade NAT",
  linkLocal: "link-local",
  uniqueLocal: "unique-local",
};

/** ipaddr.js's range name of `address` (IPv4-mapped IPv6 as IPv4), or null when it is no address. */
function rangeOf(address: string): string | null {
  try {
    return ipaddr.process(address).range();
  } catch {
    return null;
  }
}
