/**
 * Round trips per request: authentication, the caller's access to the request's chain and the
 * chain's IP allowlist in one query; a GET by id in at most 3 statements (that query, the row, at
 * most one for nested records), a business's in 2 (that query, then the row, for every caller); a
 * one-field voucher PATCH in at most 5, begin / commit included; a list in at most 3 plus its count query; a one-word prefix search in at most 4,
 * counted total included; get-businesses counts no total; add-business in 8 (the caller's check,
 * then its transaction, each statement a round trip of its own: business-repository.ts). Counted
 * on the wire (test/helpers/statements.ts), so a change that adds a query fails here with the
 * statements sent.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTwoChains, type TwoChains } from "../auth/two-chains.test-support.ts";
import { insertBusiness } from "../businesses/business-repository.ts";
import { insertContentPage } from "../content-pages/content-page-repository.ts";
import { seedClient, seedToken } from "../clients/client-test-support.ts";
import { accessTokens, adminUsers, chains, serviceClients } from "../db/schema.ts";
import { insertIpRange } from "../ip-ranges/ip-range-repository.ts";
import { seedCampaign, seedVoucher } from "../vouchers/voucher-test-support.ts";

let w: TwoChains;
const ids = { business: 0, parent: 0, nested: 0, plain: 0, page: 0, range: 0 };

beforeAll(async () => {
  w = await startTwoChains();
  const db = w.core.db;
  const chainId = w.chainA;
  // A live range on the admin's chain, so the allowlist really is part of every admin request
  // (the super-user admin is exempt, as app.request() has no client address).
  await db.update(chains).set({ ipWhitelistSuperUserExemption: true }).where(eq(chains.id, chainId));
  ids.range = (await insertIpRange(db, { chainId, cidr: "10.1.0.0/16", notes: null, lastUpdatedBy: null }, w.now)).id;
  ids.business = (await insertBusiness(db, { chainId, name: "A Store", ownerCode: "A-1" }, w.now)).id;
  const page = { displayName: null, order: 0, parentName: null, zones: null, lastUpdatedBy: null };
  ids.page = (await insertContentPage(db, chainId, { ...page, name: "a-page" }, w.now)).id;
  const mine = { chainId, campaignId: await seedCampaign(db, chainId), userId: w.shopperAId };
  ids.plain = (await seedVoucher(db, mine, w.now)).id;
  ids.parent = (await seedVoucher(db, mine, w.now)).id;
  ids.nested = (await seedVoucher(db, { ...mine, parentVoucherId: ids.parent, redemptionExclusiveBusinessId: ids.business }, w.now)).id;
}, 60_000);
afterAll(() => w.core.close());

/**
 * Sends one request and returns its status and the statements it sent.
 * @param headers the caller's headers (default: chain A's super-user admin)
 */
async function counted(method: string, path: string, body?: unknown, headers: Record<string, string> = w.adminA.headers) {
  w.core.statements.reset();
  const res = await w.core.json(path, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const statements = w.core.statements.statements;
  return { status: res.status, body: res.body, statements };
}

/** Asserts a 200 in at most `max` statements; the failure message lists the statements sent. */
function expectAtMost(res: { status: number; body: any; statements: readonly string[] }, max: number): void {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const listing = res.statements.map((s, i) => `${i + 1}. ${s}`).join("\n");
  expect(res.statements.length, `${res.statements.length} statements (at most ${max}):\n${listing}`).toBeLessThanOrEqual(max);
}

/** Asserts a 200 in exactly `count` statements; the failure message lists the statements sent. */
function expectExactly(res: { status: number; body: any; statements: readonly string[] }, count: number): void {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const listing = res.statements.map((s, i) => `${i + 1}. ${s}`).join("\n");
  expect(res.statements.length, `${res.statements.length} statements (exactly ${count}):\n${listing}`).toBe(count);
}

describe("GET by id: at most 3 statements", () => {
  const cases = (): Array<[string, string]> => [
    ["business", `/resources/business/${ids.business}`],
    ["voucher without nested records", `/resources/voucher/${ids.plain}`],
    ["voucher with a parent voucher and an exclusive business", `/resources/voucher/${ids.nested}`],
    ["content-page", `/resources/content-page/${ids.page}`],
    ["allowed_ip_range", `/resources/allowed_ip_range/${ids.range}`],
    ["chain", `/resources/chain/${w.chainA}`],
    ["access_token", `/resources/access_token/${w.tokenAId}`],
    ["service_client", `/resources/service_client/${w.clientAId}`],
  ];

  it("for every resource with a GET by id, as a super-user admin", async () => {
    const all = cases();
    expect(all).toHaveLength(8);
    for (const [name, path] of all) {
      const res = await counted("GET", path);
      expect(res.body?.results?.id, name).toBeDefined();
      expectAtMost(res, 3);
    }
  });

  it("for a business: 2 for every caller (the caller's check, then the row)", async () => {
    // [caller, whether it may GET the chain]
    const callers: Array<[Record<string, string>, boolean]> = [[w.adminA.headers, true], [w.tokenA, true], [w.readBusinessesA, false], [w.shopperA, false]];
    for (const [headers, readsChain] of callers) {
      for (const path of [`/resources/business/${ids.business}`, `/resources/business?owner_code=A-1`]) {
        const res = await counted("GET", path, undefined, { ...headers, "X-Service-Chain-ID": String(w.chainA) });
        expectExactly(res, 2);
        expect(res.statements[1], path).toMatch(/from `businesses`/i);
        expect(res.body.results.id).toBe(ids.business);
        // the nested chain came with the caller's check; one who may not GET it sees its id alone
        if (readsChain) expect(res.body.results.chain.name).toBeDefined();
        else expect(res.body.results.chain).toEqual({ id: w.chainA });
      }
    }
  });

  it("for a business that is not there: 2 for an admin (the check, then the lookup), 544", async () => {
    for (const path of [`/resources/business/999999999`, `/resources/business?owner_code=none`]) {
      const res = await counted("GET", path);
      expect(res.statements, `${path}: ${res.statements.join("\n")}`).toHaveLength(2);
      expect([res.status, res.body.error.code], path).toEqual([404, 544]);
    }
  });
});

describe("a nested resource the caller may not GET is not read", () => {
  it("a read_businesses token's and a shopper's business at levels 3 and 4: the chain, shown as {id}, costs no statement", async () => {
    const callers: Array<[Record<string, string>, number]> = [[w.readBusinessesA, 2], [w.shopperA, 2]];
    for (const [headers, max] of callers) {
      for (const level of ["3", "4"]) {
        const res = await counted("GET", `/resources/business/${ids.business}`, undefined, { ...headers, "X-Service-Chain-ID": String(w.chainA), "X-Service-Response-Recursion-Level": level });
        expectAtMost(res, max);
        expect(res.body.results.chain).toEqual({ id: w.chainA });
      }
    }
  });
});

describe("PATCH of one voucher field: at most 5 statements, begin and commit included", () => {
  it("without nested records", async () => {
    const res = await counted("PATCH", `/resources/voucher/${ids.plain}`, { description: "one field" });
    expectAtMost(res, 5);
    expect(res.body.results.description).toBe("one field");
  });

  it("with a parent voucher and an exclusive business nested", async () => {
    const res = await counted("PATCH", `/resources/voucher/${ids.nested}`, { description: "nested" });
    expectAtMost(res, 5);
    expect(res.body.results.parent_voucher.id).toBe(ids.parent);
    expect(res.body.results.redemption_exclusive_business.name).toBe("A Store");
  });
});

describe("lists: at most 3 statements plus the count query", () => {
  it("for every resource with a list", async () => {
    const plurals = ["businesses", "vouchers", "content-pages", "allowed_ip_ranges", "access_tokens", "service_clients"];
    for (const plural of plurals) {
      const res = await counted("GET", `/resources/${plural}`);
      expect(res.body.results.resources.length, plural).toBeGreaterThan(0);
      expectAtMost(res, 4);
    }
  });
});

describe("business searches and writes", () => {
  const PREFIX_WORDS = ["Bakkerij", "Bakker", "Bakery", "Baker", "Bakhuis", "Bakkie", "Bakken", "Bakstenen", "Bakboord", "Bakkerswinkel"];
  beforeAll(async () => {
    for (const [i, word] of PREFIX_WORDS.entries()) await insertBusiness(w.core.db, { chainId: w.chainA, name: `${word} ${i}`, ownerCode: `PX-${i}`, latitude: 52.37 + i / 1000, longitude: 4.9 }, w.now);
  });

  it("a one-word prefix over many distinct words: at most 4 (the caller, the word counts, the page, its rows), on both APIs", async () => {
    for (const path of [`/resources/businesses?search[name]=bak`, `/internal/get-businesses?chain_id=${w.chainA}&name=bak`]) {
      const res = await counted("GET", path);
      expectAtMost(res, 4);
      const found = res.body.results.resources ?? res.body.results.businesses;
      expect(found.length, path).toBe(PREFIX_WORDS.length);
    }
  });

  it("get-businesses counts no total (it answers none)", async () => {
    for (const query of [`name=bak`, `search_lat=52.37&search_long=4.9&radius=25`]) {
      const res = await counted("GET", `/internal/get-businesses?chain_id=${w.chainA}&${query}`);
      expect(res.status).toBe(200);
      expect(res.statements.filter((s) => /COUNT\(|SUM\(|business_geo_cell_counts/i.test(s)), query).toEqual([]);
    }
  });

  it("add-business: 8 (the caller; begin, the business, its words, the cell and word counts, the marker, commit)", async () => {
    const res = await counted("POST", "/internal/add-business", { chain_id: w.chainA, name: "Round Trip Store", owner_code: "RT-1", latitude: 52.1, longitude: 4.5 });
    expectAtMost(res, 8);
    expect(res.body.results.business.name).toBe("Round Trip Store");
    expect(res.statements.filter((t) => t.includes(";"))).toEqual([]); // no multi-statement text
  });
});

describe("the caller's check caches nothing", () => {
  it("a deactivated admin, a logged-out session, a deactivated token and a disabled client fail their very next GET by id", async () => {
    const path = `/resources/business/${ids.business}`;
    const get = (headers: Record<string, string>) => w.core.json(path, { headers: { ...headers, "X-Service-Chain-ID": String(w.chainA) } });

    // super users: chain A allows no address but exempts them (app.request has none)
    const admin = await w.core.admin({ super_user: true }, w.chainA);
    expect((await get(admin.headers)).status).toBe(200);
    await w.core.db.update(adminUsers).set({ active: false }).where(eq(adminUsers.id, admin.id));
    expect((await get(admin.headers)).body.error.code).toBe(6);

    const other = await w.core.admin({ super_user: true }, w.chainA);
    expect((await get(other.headers)).status).toBe(200);
    expect((await w.core.json("/auth/logout", { method: "DELETE", headers: other.headers })).status).toBe(200);
    expect((await get(other.headers)).body.error.code).toBe(6);

    const client = await seedClient(w.core.db, w.chainA, w.now);
    for (const revoke of [
      (id: string) => w.core.db.update(accessTokens).set({ active: false }).where(eq(accessTokens.id, id)),
      () => w.core.db.update(serviceClients).set({ enabled: false }).where(eq(serviceClients.id, client.id)),
    ]) {
      await w.core.db.update(serviceClients).set({ enabled: true }).where(eq(serviceClients.id, client.id));
      const token = await seedToken(w.core.db, w.chainA, client.id, w.now);
      const headers = { Authorization: `Bearer ${token.row.id}:${token.secret}` };
      expect((await get(headers)).status).toBe(200);
      await revoke(token.row.id);
      expect((await get(headers)).body.error.code).toBe(266);
    }
  });
});

