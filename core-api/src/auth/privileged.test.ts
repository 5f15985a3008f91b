/**
 * Privileged authentication over HTTP (spec, "Authentication": Privileged, availability table;
 * "States and transitions": token and client revocation): what each scope may do, and that a
 * revocation is seen by the very next request (handbook: revocation immediate).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedClient, seedToken } from "../clients/client-test-support.ts";
import { seedCampaign, seedUser } from "../vouchers/voucher-test-support.ts";
import { bearer, startTwoChains, type TwoChains } from "./two-chains.test-support.ts";

let w: TwoChains;
beforeAll(async () => {
  w = await startTwoChains();
}, 60_000);
afterAll(() => w.core.close());

type Headers = Record<string, string>;
const call = (method: string, path: string, headers: Headers, body?: unknown) =>
  w.core.json(path, {
    method,
    headers: { ...headers, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
const chainA = (h: Headers): Headers => ({ ...h, "X-Service-Chain-ID": String(w.chainA) });
const code = (res: { status: number; body: any }) => [res.status, res.body?.error?.code ?? res.body?.result?.code];

describe("chain scope: admin-equivalent on its chain", () => {
  it("lists and creates businesses; last_updated_by stays null (no admin)", async () => {
    const created = await call("POST", "/resources/business", chainA(w.tokenA), { name: "Token Store", owner_code: "TOKEN-1" });
    expect(code(created)).toEqual([200, 1]);
    expect(created.body.results.last_updated_by).toBeNull();
    const list = await call("GET", "/resources/businesses", chainA(w.tokenA));
    expect(list.body.results.resources.map((r: any) => r.name)).toContain("Token Store");
  });

  it("creates and lists vouchers", async () => {
    const campaign = await seedCampaign(w.core.db, w.chainA);
    const user = await seedUser(w.core.db, w.chainA);
    const body = { type: "basket", status: "generated", amount: 5, campaign: { id: campaign }, user: { id: user }, expiry_date: "2027-01-01T00:00:00Z" };
    const created = await call("POST", "/resources/voucher", chainA(w.tokenA), body);
    expect(code(created)).toEqual([200, 1]);
    const list = await call("GET", `/resources/vouchers?user=${user}`, chainA(w.tokenA));
    expect(list.body.results.total_count).toBe(1);
  });

  it("uses the internal calls of its chain", async () => {
    const add = await w.core.json(`/internal/add-business`, {
      method: "POST",
      headers: { ...w.tokenA, "content-type": "application/x-www-form-urlencoded" },
      body: `chain_id=${w.chainA}&name=Internal+Token+Store`,
    });
    expect(code(add)).toEqual([200, 1]);
    const campaign = await w.core.json("/internal/add-campaign", {
      method: "POST",
      headers: { ...w.tokenA, "content-type": "application/x-www-form-urlencoded" },
      body: `chain_id=${w.chainA}&title=Token+campaign`,
    });
    expect(code(campaign)).toEqual([200, 1]);
    const get = await w.core.json(`/internal/get-campaign?campaign_id=${campaign.body.results.campaign.id}`, { headers: w.tokenA });
    expect(code(get)).toEqual([200, 1]);
  });

  it("reads IP ranges and the chain, but super-user writes and the admin-only resources are 544", async () => {
    expect(code(await call("GET", "/resources/allowed_ip_ranges", chainA(w.tokenA)))).toEqual([200, 1]);
    expect(code(await call("GET", "/resources/chain", chainA(w.tokenA)))).toEqual([200, 1]);
    const refused: Array<[string, string, unknown?]> = [
      ["POST", "/resources/allowed_ip_range", { cidr: "10.1.0.0/16" }],
      ["PATCH", "/resources/chain", { name: "Renamed" }],
      ["GET", "/resources/access_tokens"],
      ["GET", `/resources/access_token/${w.tokenAId}`],
      ["POST", "/resources/access_token", { service_client: { id: w.clientAId }, scope: `chain:${w.chainA}` }],
      ["GET", "/resources/service_clients"],
      ["PATCH", `/resources/service_client/${w.clientAId}`, { enabled: false }],
      ["GET", `/resources/campaign/1/change_log`],
    ];
    for (const [method, path, body] of refused) {
      expect(code(await call(method, path, chainA(w.tokenA), body)), `${method} ${path}`).toEqual([404, 544]);
    }
  });
});

describe("read_businesses scope", () => {
  it("GETs businesses and get-businesses", async () => {
    expect(code(await call("GET", "/resources/businesses", chainA(w.readBusinessesA)))).toEqual([200, 1]);
    const one = await w.core.json(`/internal/get-businesses?chain_id=${w.chainA}`, { headers: w.readBusinessesA });
    expect(code(one)).toEqual([200, 1]);
  });

  it("nothing else: 544 on resources, 68 on internal calls", async () => {
    const refused: Array<[string, string, unknown?]> = [
      ["POST", "/resources/business", { name: "Nope" }],
      ["PATCH", "/resources/business/1", { name: "Nope" }],
      ["DELETE", "/resources/business/1"],
      ["GET", "/resources/vouchers"],
      ["GET", "/resources/content-pages"],
      ["GET", "/resources/chain"],
      ["GET", "/resources/allowed_ip_ranges"],
    ];
    for (const [method, path, body] of refused) {
      expect(code(await call(method, path, chainA(w.readBusinessesA), body)), `${method} ${path}`).toEqual([404, 544]);
    }
    const add = await w.core.json(`/internal/add-business`, {
      method: "POST",
      headers: { ...w.readBusinessesA, "content-type": "application/x-www-form-urlencoded" },
      body: `chain_id=${w.chainA}&name=Nope`,
    });
    expect(code(add)).toEqual([403, 68]);
    const addCampaign = await w.core.json(`/internal/add-campaign`, {
      method: "POST",
      headers: { ...w.readBusinessesA, "content-type": "application/x-www-form-urlencoded" },
      body: `chain_id=${w.chainA}&title=Nope`,
    });
    expect(code(addCampaign)).toEqual([403, 68]);
  });
});

describe("revocation is immediate", () => {
  /** A fresh client and token of chain A; the token works once before the revocation. */
  async function workingToken(): Promise<{ headers: Headers; tokenId: string; clientId: number }> {
    const client = await seedClient(w.core.db, w.chainA, w.now, { name: "Revocable" });
    const token = await seedToken(w.core.db, w.chainA, client.id, w.now);
    const headers = chainA(bearer(token.row.id, token.secret));
    expect(code(await call("GET", "/resources/businesses", headers))).toEqual([200, 1]);
    return { headers, tokenId: token.row.id, clientId: client.id };
  }

  const revocations: Array<[string, (t: { tokenId: string; clientId: number }) => [string, string, unknown?]]> = [
    ["token deactivated", (t) => ["PATCH", `/resources/access_token/${t.tokenId}`, { active: false }]],
    ["token deleted", (t) => ["DELETE", `/resources/access_token/${t.tokenId}`]],
    ["client disabled", (t) => ["PATCH", `/resources/service_client/${t.clientId}`, { enabled: false }]],
    ["client deleted", (t) => ["DELETE", `/resources/service_client/${t.clientId}`]],
  ];

  it.each(revocations)("%s: the very next request is 266 / 401", async (_label, revoke) => {
    const t = await workingToken();
    const [method, path, body] = revoke(t);
    expect(code(await call(method, path, w.adminA.headers, body))).toEqual([200, 1]);
    const next = await call("GET", "/resources/businesses", t.headers);
    expect(next.status).toBe(401);
    expect(next.body.error).toMatchObject({ code: 266, name: "access_token_invalid" });
    // the internal calls see it as well
    const internal = await w.core.json(`/internal/get-businesses?chain_id=${w.chainA}`, { headers: t.headers });
    expect(code(internal)).toEqual([401, 266]);
  });
});
