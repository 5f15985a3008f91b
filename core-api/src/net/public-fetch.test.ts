/**
 * The public-only fetch of webhook deliveries and key sets (net/public-fetch.node.ts): the address is
 * checked where the socket connects, so a private address is never reached, whether given as an
 * IP literal, resolved by the system, or handed out by a resolver that changed its mind after the
 * check (DNS rebinding); allowed addresses get a plain fetch answer, redirects not followed.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { publicOnlyFetch } from "./public-fetch.node.ts";

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
  it("refuses at connect every non-public answer of the resolver (net/public-target.ts's rule); no connection is made", async () => {
    const answers = ["10.0.0.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "::7f00:1", "::a00:1", "::ffff:10.0.0.1", "64:ff9b::a00:1", "2002:a00:1::1", "fd00::1", "fe80::1"];
    const asked: string[] = [];
    for (const address of answers) {
      const lookup = ((host: string, _o: unknown, cb: (e: null, a: Array<{ address: string; family: number }>) => void) => {
        asked.push(host);
        cb(null, [{ address, family: address.includes(":") ? 6 : 4 }]);
      }) as never;
      await expect(publicOnlyFetch({ lookup })(`https://keys.example.com:${port}/jwks`), address).rejects.toThrow(`keys.example.com resolves to ${address}, which is not a public address`);
    }
    expect(asked).toEqual(answers.map(() => "keys.example.com"));
    expect(hits).toBe(0);
  });

  it("refuses IP literals in every special range before any lookup or connection", async () => {
    const fetchPublic = publicOnlyFetch({ lookup: (() => expect.unreachable("no lookup for a literal")) as never });
    for (const host of ["169.254.169.254", "10.0.0.1", "[::127.0.0.1]", "[::7f00:1]", "[::ffff:10.0.0.1]", "[64:ff9b::7f00:1]", "[fd00::1]"]) {
      await expect(fetchPublic(`https://${host}/jwks`), host).rejects.toThrow(/is not a public address/);
    }
  });

  it("never connects to a private address: an IP literal, a name the system resolves, or a rebinding answer", async () => {
    const fetchPublic = publicOnlyFetch();
    await expect(fetchPublic(`http://127.0.0.1:${port}/x`, { method: "POST", body: "{}" })).rejects.toThrow("127.0.0.1 is not a public address");
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
