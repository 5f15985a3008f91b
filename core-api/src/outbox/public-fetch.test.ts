/**
 * The public-only fetch of webhook deliveries (outbox/public-fetch.node.ts): the address is
 * checked where the socket connects, so a private address is never reached, whether given as an
 * IP literal, resolved by the system, or handed out by a resolver that changed its mind after the
 * check (DNS rebinding); allowed addresses get a plain fetch answer, redirects not followed.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isPublicAddress, publicOnlyFetch } from "./public-fetch.node.ts";

let server: Server;
let port: number;
let hits = 0;
beforeAll(async () => {
  server = createServer(async (req, res) => {
    hits++;
    let body = "";
    for await (const chunk of req) body += chunk;
    if (req.url === "/redirect") return void res.writeHead(302, { location: "http://127.0.0.1/elsewhere" }).end();
    if (req.url === "/hang") return;
    res.writeHead(201, { "content-type": "application/json", "x-echo": String(req.headers["x-test"]) }).end(JSON.stringify({ method: req.method, body }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});
beforeEach(() => {
  hits = 0;
});

/** A resolver that hands out `address` for every name, as a rebinding DNS server would. */
const resolvingTo = (address: string) =>
  ((_host: string, _opts: unknown, cb: (e: null, a: Array<{ address: string; family: number }>) => void) => cb(null, [{ address, family: 4 }])) as never;

describe("publicOnlyFetch", () => {
  it("classifies addresses as ipaddr.js does: only public unicast passes", () => {
    expect(["93.184.216.34", "2606:4700::1111"].map(isPublicAddress)).toEqual([true, true]);
    expect(["127.0.0.1", "10.0.0.1", "169.254.169.254", "::1", "fd00::1", "::ffff:192.168.0.1", "not an ip"].map(isPublicAddress)).toEqual([false, false, false, false, false, false, false]);
  });

  it("never connects to a private address: an IP literal, a name the system resolves, or a rebinding answer", async () => {
    const fetchPublic = publicOnlyFetch();
    await expect(fetchPublic(`http://127.0.0.1:${port}/x`, { method: "POST", body: "{}" })).rejects.toThrow("127.0.0.1 is an address webhooks may not reach");
    await expect(fetchPublic(`http://localhost:${port}/x`, { method: "POST", body: "{}" })).rejects.toThrow(/localhost resolves to (127\.0\.0\.1|::1)/);
    const rebinding = publicOnlyFetch({ lookup: resolvingTo("127.0.0.1") });
    await expect(rebinding(`http://hooks.example.com:${port}/x`, { method: "POST", body: "{}" })).rejects.toThrow("hooks.example.com resolves to 127.0.0.1");
    expect(hits).toBe(0);
  });

  it("sends to allowed addresses and answers like fetch; a redirect comes back unfollowed; an abort cuts it", async () => {
    const anyAddress = publicOnlyFetch({ allowAddress: () => true });
    const res = await anyAddress(`http://127.0.0.1:${port}/x`, { method: "POST", headers: { "x-test": "yes", "content-type": "application/json" }, body: '{"a":1}' });
    expect(res.status).toBe(201);
    expect(res.headers.get("x-echo")).toBe("yes");
    expect(await res.json()).toEqual({ method: "POST", body: '{"a":1}' });
    const redirect = await anyAddress(`http://127.0.0.1:${port}/redirect`, { method: "POST", body: "" });
    expect([redirect.status, redirect.headers.get("location")]).toEqual([302, "http://127.0.0.1/elsewhere"]);
    expect(hits).toBe(2);
    await expect(anyAddress(`http://127.0.0.1:${port}/hang`, { method: "POST", body: "", signal: AbortSignal.timeout(100) })).rejects.toThrow();
  });
});
