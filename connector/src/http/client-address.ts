/**
 * The client address `authenticate` counts its limits against (customers/address-throttle.ts,
 * customers/customer-throttle.ts). The core API relays every shopper login, so the address that
 * matters is the shopper's, which the core API sends as `X-Forwarded-For`.
 *
 * Only the socket peer is a fact; an X-Forwarded-For entry is believed only when its writer is
 * trusted: our own proxies (TRUSTED_PROXIES) for the entries they add, and the platform for the one
 * it adds, recognised by its integration token (http/auth.ts: every integration token is issued
 * to the platform), not by its address. Walking from the socket peer leftwards over the entries:
 * trusted proxies are skipped; the first other hop is the platform itself when the request carries
 * its token, and the entry it wrote (the next one) is the client. Without the platform's token the
 * first other hop is the client, as Express's `req.ip` has it. A request relayed without
 * X-Forwarded-For counts as the platform's own address.
 */
import type { Request } from "express";
import { canonicalAddress } from "@service/shared/ip-address";
import { isTrustedProxy, type TrustedProxies } from "@service/shared/node";

/** The flag http/auth.ts sets in `res.locals` when a request carries an active integration token. */
export const AUTHENTICATED_AS_PLATFORM = "authenticatedAsPlatform";

/**
 * The client address of a request.
 * @param peer the socket's remote address (`req.socket.remoteAddress`); undefined when the socket is gone
 * @param forwardedFor the X-Forwarded-For header (several headers arrive joined by ", ")
 * @param proxies TRUSTED_PROXIES (parseTrustedProxies of @service/shared/node)
 * @param fromPlatform whether the request carries the platform's integration token
 * @returns the address in the one spelling the core API writes too (canonicalAddress of
 *   `@service/shared/ip-address`: IPv6 in RFC 5952 form, an IPv4-mapped IPv6 address as its IPv4,
 *   a port or zone dropped); null when unknown: no socket address, or the entry taken as the
 *   client is not an IP address
 */
export function resolveClientAddress(
  peer: string | undefined,
  forwardedFor: string | undefined,
  proxies: TrustedProxies,
  fromPlatform: boolean,
): string | null {
  if (peer === undefined) return null;
  const entries = (forwardedFor ?? "").split(",").map((s) => s.trim()).filter((s) => s !== "");
  const hops = [peer, ...entries.reverse()];
  let i = 0;
  while (i < hops.length - 1 && isTrustedProxy(proxies, hops[i])) i++;
  if (fromPlatform && i < hops.length - 1) i++;
  return canonicalAddress(hops[i]!);
}

/** resolveClientAddress of an Express request, with its `res.locals` flag (AUTHENTICATED_AS_PLATFORM). */
export function clientAddressOf(req: Request, locals: Record<string, unknown>, proxies: TrustedProxies): string | null {
  return resolveClientAddress(req.socket.remoteAddress, req.get("x-forwarded-for"), proxies, locals[AUTHENTICATED_AS_PLATFORM] === true);
}
