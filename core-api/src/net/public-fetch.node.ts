/**
 * A fetch for targets that must be public (webhooks and shopper-token key sets without
 * WEBHOOK_ALLOW_PRIVATE), on Node: the address is checked when the connection is made, in the
 * resolver callback the socket itself uses, so a name that resolves to a public address for the
 * check and to a private one a moment later (DNS rebinding) still cannot reach a private address.
 * The check before sending (net/public-target.ts) stays: it gives the clear reason; this closes
 * the gap after it. Same rule (isPublicAddress).
 *
 * Implements the part of fetch the outbox worker and jose's key-set fetch use: method, headers,
 * a string body, an abort signal, no redirects (a 3xx is returned as it is); the answer is a web
 * Response.
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { Readable } from "node:stream";
import ipaddr from "ipaddr.js";
import { isPublicAddress } from "./public-target.ts";

/**
 * The public-only fetch.
 * @param opts.allowAddress which resolved addresses may be connected to (default isPublicAddress)
 * @param opts.lookup the resolver (default node:dns lookup)
 * @returns a fetch whose requests reject with an Error naming the address when the target
 *   resolves to, or is, an address not allowed
 */
export function publicOnlyFetch(opts: { allowAddress?: (address: string) => boolean; lookup?: typeof dnsLookup } = {}): typeof fetch {
  const allow = opts.allowAddress ?? isPublicAddress;
  const resolve = opts.lookup ?? dnsLookup;
  const guardedLookup: LookupFunction = (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, addresses: LookupAddress[] | string) => {
      if (err) return callback(err, "", 0);
      const list = addresses as LookupAddress[];
      const refused = list.find((a) => !allow(a.address));
      if (refused) return callback(new Error(`${hostname} resolves to ${refused.address}, which is not a public address`), "", 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };

  return (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const host = url.hostname.replace(/^\[|\]$/g, "");
    // An IP literal is connected to without a lookup: check it here.
    if (ipaddr.isValid(host) && !allow(host)) throw new Error(`${host} is not a public address`);
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const body = init.body === undefined || init.body === null ? undefined : String(init.body);
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    return new Promise<Response>((resolvePromise, reject) => {
      const req = send(url, { method: init.method ?? "GET", headers, lookup: guardedLookup, signal: init.signal ?? undefined }, (res: IncomingMessage) => {
        const responseHeaders = new Headers();
        for (const [k, v] of Object.entries(res.headers)) {
          if (v !== undefined) responseHeaders.set(k, Array.isArray(v) ? v.join(", ") : v);
        }
        const status = res.statusCode ?? 500;
        const stream = status === 204 || status === 304 ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
        resolvePromise(new Response(stream, { status, headers: responseHeaders }));
      });
      req.on("error", reject);
      req.end(body);
    });
  }) as typeof fetch;
}
