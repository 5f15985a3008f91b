/**
 * Bad credentials (spec, "Authentication", "Errors"; decisions in auth/privileged.ts and
 * auth/context.ts): malformed bearer headers and tokens of the wrong shape are 266, conflicting
 * credentials 6, header chain ids that are not positive integers 419; nothing tells whether a
 * token or another chain's object exists. Each row is one attack and what it must get back.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, startTwoChains, type TwoChains } from "./two-chains.test-support.ts";

let w: TwoChains;
let tokenSecret: string;
beforeAll(async () => {
  w = await startTwoChains();
  tokenSecret = w.tokenA.Authorization!.split(":")[1]!;
}, 60_000);
afterAll(() => w.core.close());

type Attack = [label: string, headers: () => Record<string, string>, status: number, code: number];

const UUID = "3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b";
const withChain = (h: Record<string, string>) => ({ ...h, "X-Service-Chain-ID": String(w.chainA) });
const auth = (value: string) => () => withChain({ Authorization: value });

const ATTACKS: Attack[] = [
  ["Bearer without a token", auth("Bearer"), 401, 266],
  ["token without a colon", auth("Bearer abcdef0123456789"), 401, 266],
  ["token id not a UUID", auth("Bearer 12345:secret"), 401, 266],
  ["empty secret", () => withChain({ Authorization: `Bearer ${w.tokenAId}:` }), 401, 266],
  ["Basic scheme", auth("Basic dXNlcjpwYXNzd29yZA=="), 401, 266],
  ["two credentials in one header", () => withChain({ Authorization: `${w.tokenA.Authorization}, ${w.readBusinessesA.Authorization}` }), 401, 266],
  ["trailing garbage after the token", () => withChain({ Authorization: `${w.tokenA.Authorization} extra` }), 401, 266],
  ["unknown token id", () => withChain(bearer(UUID, tokenSecret)), 401, 266],
  ["right id, wrong secret", () => withChain(bearer(w.tokenAId, "not-the-secret")), 401, 266],
  ["session headers and a bearer token", () => ({ ...w.adminA.headers, ...w.tokenA }), 401, 6],
  ["privileged token with X-Service-App-Hostname", () => ({ ...withChain(w.tokenA), "X-Service-App-Hostname": "a.shop.example.test" }), 401, 6],
  ["JWT-shaped bearer without an app", auth("Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln"), 401, 6],
  ["no credentials at all", () => ({ "X-Service-Chain-ID": String(w.chainA) }), 401, 6],
  ["token with chain header not an integer", () => ({ ...w.tokenA, "X-Service-Chain-ID": "abc" }), 400, 419],
  ["token with chain header 0", () => ({ ...w.tokenA, "X-Service-Chain-ID": "0" }), 400, 419],
  ["token with chain header -1", () => ({ ...w.tokenA, "X-Service-Chain-ID": "-1" }), 400, 419],
  ["token with chain header 1.5", () => ({ ...w.tokenA, "X-Service-Chain-ID": "1.5" }), 400, 419],
  ["token with chain header over 2^31", () => ({ ...w.tokenA, "X-Service-Chain-ID": "99999999999" }), 400, 419],
  ["token without a chain header", () => w.tokenA, 400, 419],
  ["admin with chain header not an integer", () => ({ ...w.adminA.headers, "X-Service-Chain-ID": "1e3" }), 400, 419],
  ["shopper with chain header not an integer", () => ({ ...w.shopperA, "X-Service-Chain-ID": "x" }), 400, 419],
  ["token of chain A naming chain B", () => ({ ...w.tokenA, "X-Service-Chain-ID": String(w.b.chainId) }), 404, 544],
  ["shopper of chain A naming chain B", () => ({ ...w.shopperA, "X-Service-Chain-ID": String(w.b.chainId) }), 404, 544],
];

describe("attacks on GET /resources/businesses", () => {
  it.each(ATTACKS)("%s", async (_label, headers, status, code) => {
    const res = await w.core.json("/resources/businesses", { headers: headers() });
    expect([res.status, res.body.error?.code]).toEqual([status, code]);
  });
});

describe("the same credentials on an internal call (get-businesses)", () => {
  it.each(ATTACKS.filter(([, , status]) => status === 401))("%s", async (_label, headers, status, code) => {
    const res = await w.core.json(`/internal/get-businesses?chain_id=${w.chainA}`, { headers: headers() });
    expect([res.status, res.body.error?.code]).toEqual([status, code]);
  });
});

describe("nothing tells whether a token exists", () => {
  it("an unknown id and a wrong secret for a real id answer byte for byte alike", async () => {
    const unknown = await w.core.request("/resources/businesses", { headers: withChain(bearer(UUID, tokenSecret)) });
    const wrong = await w.core.request("/resources/businesses", { headers: withChain(bearer(w.tokenAId, "not-the-secret")) });
    expect(await unknown.text()).toBe(await wrong.text());
  });

  it("another token's secret does not open a token", async () => {
    const otherSecret = w.readBusinessesA.Authorization!.split(":")[1]!;
    const res = await w.core.json("/resources/businesses", { headers: withChain(bearer(w.tokenAId, otherSecret)) });
    expect([res.status, res.body.error.code]).toEqual([401, 266]);
  });

  it("a token id in upper case is the same token (UUIDs are case-insensitive)", async () => {
    const res = await w.core.json("/resources/businesses", { headers: withChain(bearer(w.tokenAId.toUpperCase(), tokenSecret)) });
    expect(res.status).toBe(200);
  });
});
