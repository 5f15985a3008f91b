/**
 * The client's address (handbook, "client IP"): the socket peer's, unless that peer is one of our
 * own proxies (`TRUSTED_PROXIES`), in which case `X-Forwarded-For` is believed, read from the right
 * up to the first address that is not a trusted proxy. Pure: the runtime hands in the socket
 * address (AppDeps.clientAddress), so Node, Deno and tests all go through the same rules.
 *
 * Addresses are compared and stored in one canonical text form (canonicalAddress of
 * `@service/shared/ip-address`, which the connector's login limits use too): an IPv4-mapped IPv6
 * address (`::ffff:192.0.2.7`, what a dual-stack socket reports for an IPv4 client) becomes the
 * IPv4 address it carries, IPv6 is RFC 5952 lower case, a zone is dropped.
 */
import type { Context } from "hono";
import { isTrustedProxy, type TrustedProxies } from "@service/shared/node";
import { canonicalAddress } from "@service/shared/ip-address";
import { requestHeader } from "../http/request-headers.ts";

/**
 * The client address of a request.
 *
 * Only the socket peer is a fact; every X-Forwarded-For entry was written by whoever sent it. So
 * the header counts only when the peer is a trusted proxy, and then only as far as the chain of
 * trusted proxies reaches: walking from the right, the first entry that is not a trusted proxy is
 * the client (entries further left were written by that client and prove nothing). When every
 * entry is a trusted proxy, the left-most is the client.
 * @param peer the socket's remote address as the runtime reports it; undefined when unknown
 * @param forwardedFor the X-Forwarded-For header (several headers arrive joined by ", ")
 * @param trustedProxies TRUSTED_PROXIES (parseTrustedProxies of @service/shared/node)
 * @returns the canonical address, or null when unknown: no socket address, or a malformed entry in
 *   the trusted part of the chain (callers treat unknown as "not inside any allowed range")
 */
export function resolveClientIp(
  peer: string | undefined,
  forwardedFor: string | undefined,
  trustedProxies: TrustedProxies,
): string | null {
  const socket = peer === undefined ? null : canonicalPeer(peer);
  if (socket === null) return null;
  if (forwardedFor === undefined || !isTrustedProxy(trustedProxies, socket)) return socket;
  const hops = forwardedFor.split(",").map((s) => s.trim()).filter((s) => s !== "");
  let client = socket;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = canonicalAddress(hops[i]!);
    if (hop === null) return null;
    client = hop;
    if (!isTrustedProxy(trustedProxies, hop)) return hop;
  }
  return client;
}

/**
 * The client address of Hono request `c`: the runtime's socket address (`clientAddress`, see
 * AppDeps) run through resolveClientIp.
 * @returns null when the runtime cannot tell (for example `app.request()` in a test without a fake)
 */
export function clientIpOf(
  c: Context,
  clientAddress: ((c: Context) => string | undefined) | undefined,
  trustedProxies: TrustedProxies,
): string | null {
  return resolveClientIp(socketPeer(c, clientAddress), requestHeader(c, "x-forwarded-for"), trustedProxies);
}

/**
 * Whether request `c` came straight from one of our own proxies (`TRUSTED_PROXIES`): only then
 * are the headers a proxy writes (X-Forwarded-For, X-Request-Id) believed.
 * @returns false when the socket address is unknown or malformed
 */
export function fromTrustedProxy(
  c: Context,
  clientAddress: ((c: Context) => string | undefined) | undefined,
  trustedProxies: TrustedProxies,
): boolean {
  const peer = socketPeer(c, clientAddress);
  const socket = peer === undefined ? null : canonicalPeer(peer);
  return socket !== null && isTrustedProxy(trustedProxies, socket);
}

/** canonicalAddress of socket peers seen lately: a peer's text is the same on every request of a connection. */
const peerAddresses = new Map<string, string | null>();
const PEER_ADDRESSES_KEPT = 1024;

/** canonicalAddress(peer), remembered for the next requests (pure, so remembering changes nothing). */
function canonicalPeer(peer: string): string | null {
  let canonical = peerAddresses.get(peer);
  if (canonical === undefined) {
    canonical = canonicalAddress(peer);
    if (peerAddresses.size >= PEER_ADDRESSES_KEPT) peerAddresses.clear();
    peerAddresses.set(peer, canonical);
  }
  return canonical;
}

/** The socket peer's address as the runtime reports it; undefined when unknown. */
function socketPeer(c: Context, clientAddress: ((c: Context) => string | undefined) | undefined): string | undefined {
  try {
    return clientAddress?.(c);
  } catch {
    // getConnInfo throws when the request did not come through the runtime's server (app.request).
    return undefined;
  }
}
