/**
 * Host name -> addresses on Node, for the SSRF checks of webhook targets (webhooks/target-url.ts)
 * at configuration and at send time: every address the system resolver gives (A and AAAA, as a
 * connection would use them). Deno's entry passes its own (Deno.resolveDns).
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
