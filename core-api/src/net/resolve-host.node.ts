/**
 * Host name -> addresses on Node, for the SSRF checks of outbound targets (net/public-target.ts):
 * webhooks and shopper-token key sets, when configured and before each request: every address
 * the system resolver gives (A and AAAA, as a connection would use them). Deno's entry passes its own (Deno.resolveDns).
 */
import { lookup } from "node:dns/promises";

/**
 * @returns the addresses of `hostname`; an IP literal is returned as it is
 * @throws Error (ENOTFOUND and the like) when the name does not resolve
 */
export async function resolveHostNode(hostname: string): Promise<string[]> {
  const found = await lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => a.address);
}
