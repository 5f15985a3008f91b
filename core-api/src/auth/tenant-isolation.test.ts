/**
 * Tenant isolation matrix, generated: for EVERY resource in ADAPTERS, the campaign change log and
 * every internal call in CALLS, under each authentication type of chain A (admin, the same admin
 * sending chain B's app hostname, privileged chain-scope token, read_businesses token, shopper),
 * every method against chain B's objects must answer byte for byte as for an id that does not
 * exist, lists must show nothing of chain B, and chain B's rows must be unchanged afterwards. A new resource or call without a target below
 * fails the "covers" tests, so nothing is skipped silently.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CALLS } from "../internal/call-routes.ts";
import { ADAPTERS } from "../resources/resource-routes.ts";
import { APP_B, chainChecksum, startTwoChains, type ChainBObjects, type TwoChains } from "./two-chains.test-support.ts";

const MISSING_INT = 99_999_999;

/** Per resource: chain B's object and an object that does not exist, as {identifier: value}. */
function targets(b: ChainBObjects): Record<string, { other: Record<string, string>; missing: Record<string, string> }> {
  const otherKey = b.voucherKey;
  // Same length and alphabet as a real key, so both reach the lookup.
  const missingKey = (otherKey[0] === "a" ? "b" : "a") + otherKey.slice(1);
  return {
    business: { other: { id: `${b.businessId}`, owner_code: b.ownerCode }, missing: { id: `${MISSING_INT}`, owner_code: "NO-SUCH-OWNER" } },
    voucher: { other: { id: `${b.voucherId}`, key: otherKey }, missing: { id: `${MISSING_INT}`, key: missingKey } },
    access_token: { other: { id: b.accessTokenId }, missing: { id: crypto.randomUUID() } },
    service_client: { other: { id: `${b.serviceClientId}` }, missing: { id: `${MISSING_INT}` } },
    "content-page": { other: { id: `${b.contentPageId}`, name: b.contentPageName }, missing: { id: `${MISSING_INT}`, name: "no-such-page" } },
    allowed_ip_range: { other: { id: `${b.ipRangeId}`, cidr: b.cidr }, missing: { id: `${MISSING_INT}`, cidr: "10.99.0.0/16" } },
    chain: { other: { id: `${b.chainId}` }, missing: { id: `${MISSING_INT}` } },
    member_number_range: { other: { id: `${b.memberNumberRangeId}` }, missing: { id: `${MISSING_INT}` } },
    webhook: { other: { id: `${b.webhookId}` }, missing: { id: `${MISSING_INT}` } },
    event_delivery: { other: { id: `${b.eventDeliveryId}`, delivery_id: b.deliveryId }, missing: { id: `${MISSING_INT}`, delivery_id: crypto.randomUUID() } },
  };
}

/** Per internal call: its parameters naming chain B's object, and naming one that does not exist. */
function callParams(b: ChainBObjects): Record<string, { other: Record<string, string>; missing: Record<string, string> }> {
  const chain = (extra: Record<string, string>) => ({ other: { chain_id: `${b.chainId}`, ...extra }, missing: { chain_id: `${MISSING_INT}`, ...extra } });
  return {
    "/internal/add-business": chain({ name: "Intruder" }),
    "/internal/get-businesses": chain({}),
    "/internal/add-campaign": chain({ title: "Intruder" }),
    "/internal/alter-business": { other: { business_id: `${b.businessId}`, name: "Intruder" }, missing: { business_id: `${MISSING_INT}`, name: "Intruder" } },
    "/internal/alter-campaign": { other: { campaign_id: `${b.campaignId}`, title: "Intruder" }, missing: { campaign_id: `${MISSING_INT}`, title: "Intruder" } },
    "/internal/get-campaign": { other: { campaign_id: `${b.campaignId}` }, missing: { campaign_id: `${MISSING_INT}` } },
    "/internal/delete-campaign": { other: { campaign_id: `${b.campaignId}` }, missing: { campaign_id: `${MISSING_INT}` } },
    "/internal/add-campaign-group": chain({ name: "Intruder" }),
    "/internal/get-campaign-groups": chain({}),
    "/internal/delete-campaign-group": { other: { id: `${b.campaignGroupId}` }, missing: { id: `${MISSING_INT}` } },
    "/auth/add-tag": chain({ value: "Intruder" }),
    "/auth/get-tags": chain({}),
    "/auth/delete-tag": { other: { id: `${b.tagId}` }, missing: { id: `${MISSING_INT}` } },
    "/internal/add-user": chain({ username: "intruder@example.com", update_if_exists: "true", member_number: "5000" }),
    "/internal/get-user": { other: { chain_id: `${b.chainId}`, user_id: `${b.userId}` }, missing: { chain_id: `${MISSING_INT}`, user_id: `${MISSING_INT}` } },
    "/internal/alter-user": { other: { user_id: `${b.userId}`, first_name: "Intruder" }, missing: { user_id: `${MISSING_INT}`, first_name: "Intruder" } },
    "/internal/add-basket": chain({ user_id: `${b.userId}`, basket_total_price: "10" }),
    "/internal/get-basket-price": chain({ user_id: `${b.userId}`, basket_total_price: "10" }),
    "/internal/apply-referral-code": chain({ user_id: `${b.userId}`, referral_code: "ABCD2345" }),
    "/internal/alter-chain": chain({ name: "Intruder" }),
    "/internal/verify-phone-number": { other: { user_id: `${b.userId}`, code: "123456" }, missing: { user_id: `${MISSING_INT}`, code: "123456" } },
  };
}

let w: TwoChains;
let before: string;
beforeAll(async () => {
  w = await startTwoChains();
  before = await chainChecksum(w.core, w.b.chainId);
}, 60_000);
afterAll(() => w.core.close());

/** The authentication types of chain A: headers for the Resources API (chain header included). */
const CALLERS: Array<[string, (w: TwoChains) => Record<string, string>]> = [
  ["admin of chain A", (w) => w.adminA.headers],
  // the stored session decides who is calling: chain B's app hostname opens nothing of chain B
  ["admin of chain A sending chain B's app hostname", (w) => ({ ...w.adminA.headers, "X-Service-App-Hostname": APP_B })],
  ["chain-scope token of chain A", (w) => ({ ...w.tokenA, "X-Service-Chain-ID": String(w.chainA) })],
  ["read_businesses token of chain A", (w) => ({ ...w.readBusinessesA, "X-Service-Chain-ID": String(w.chainA) })],
  ["shopper of chain A", (w) => w.shopperA],
];

interface Answer {
  status: number;
  text: string;
}

async function send(method: string, path: string, headers: Record<string, string>, form?: Record<string, string>): Promise<Answer> {
  const withBody = form !== undefined && method !== "GET";
  const query = form !== undefined && method === "GET" ? `?${new URLSearchParams(form)}` : "";
  const res = await w.core.request(path + query, {
    method,
    headers: { ...headers, ...(withBody ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
    ...(withBody ? { body: new URLSearchParams(form).toString() } : {}),
  });
  return { status: res.status, text: await res.text() };
}

/** The requests of the matrix for one resource, naming the object `ids` (identifier -> value). */
function requests(path: string, pluralPath: string, ids: Record<string, string>): Array<[string, string, string?]> {
  const out: Array<[string, string, string?]> = [
    ["GET", `${path}/${encodeURIComponent(ids.id!)}`],
    ["PUT", `${path}/${encodeURIComponent(ids.id!)}`, "{}"],
    ["PATCH", `${path}/${encodeURIComponent(ids.id!)}`, "{}"],
    ["DELETE", `${path}/${encodeURIComponent(ids.id!)}`],
  ];
  for (const [prop, value] of Object.entries(ids)) {
    const q = `?${prop}=${encodeURIComponent(value)}`;
    out.push(["GET", path + q], ["PATCH", path + q, "{}"], ["DELETE", path + q], ["GET", pluralPath + q]);
  }
  return out;
}

describe("the matrix covers", () => {
  it("every resource in ADAPTERS and every internal call in CALLS", () => {
    const t = targets({ voucherKey: "x" } as ChainBObjects);
    for (const a of ADAPTERS) expect(t[a.declaration.name], a.declaration.name).toBeDefined();
    for (const a of ADAPTERS) expect(Object.keys(t[a.declaration.name]!.other).sort()).toEqual([...a.declaration.identifiers].sort());
    const p = callParams({} as ChainBObjects);
    for (const [path] of CALLS) expect(p[path], path).toBeDefined();
  });
});

describe.each(CALLERS)("%s against chain B", (caller, headersOf) => {
  it.each(ADAPTERS.map((a) => [a.declaration.name, a] as const))("%s: every method answers as for a missing id", async (name, adapter) => {
    const { path, pluralPath } = adapter.declaration;
    const t = targets(w.b)[name]!;
    const headers = headersOf(w);
    const other = requests(path, pluralPath, t.other);
    const missing = requests(path, pluralPath, t.missing);
    for (const [i, [method, url, body]] of other.entries()) {
      const h = { ...headers, ...(body !== undefined ? { "content-type": "application/json" } : {}) };
      const a = await w.core.request(url, { method, headers: h, ...(body !== undefined ? { body } : {}) });
      const [, missingUrl] = missing[i]!;
      const m = await w.core.request(missingUrl, { method, headers: h, ...(body !== undefined ? { body } : {}) });
      const [aText, mText] = [await a.text(), await m.text()];
      expect({ status: a.status, text: aText }, `${method} ${url}`).toEqual({ status: m.status, text: mText });
      if (a.status === 200) {
        // only a list can succeed here, and it must be empty
        expect(JSON.parse(aText).results, `${method} ${url}`).toMatchObject({ resources: [], total_count: 0 });
      } else {
        expect([a.status, JSON.parse(aText).error.code], `${method} ${url}`).toEqual([404, 544]);
      }
    }
    expect(await chainChecksum(w.core, w.b.chainId)).toBe(before);
  });

  it.each(ADAPTERS.map((a) => [a.declaration.name, a] as const))("%s: unfiltered lists hold nothing of chain B", async (name, adapter) => {
    const res = await send("GET", `${adapter.declaration.pluralPath}?limit=500`, headersOf(w));
    if (res.status !== 200) return expect(JSON.parse(res.text).error.code).toBe(544);
    const ids = (JSON.parse(res.text).results.resources as Array<{ id: unknown }>).map((r) => String(r.id));
    expect(ids).not.toContain(targets(w.b)[name]!.other.id);
  });

  it.each(ADAPTERS.map((a) => [a.declaration.name, a] as const))("%s: X-Service-Chain-ID of chain B is 544, as a missing chain", async (name, adapter) => {
    const { path, pluralPath } = adapter.declaration;
    const id = targets(w.b)[name]!.other.id!;
    for (const url of [`${path}/${encodeURIComponent(id)}`, pluralPath, `${path}?id=${encodeURIComponent(id)}`]) {
      const other = await send("GET", url, { ...headersOf(w), "X-Service-Chain-ID": String(w.b.chainId) });
      const missing = await send("GET", url, { ...headersOf(w), "X-Service-Chain-ID": String(MISSING_INT) });
      expect(other, url).toEqual(missing);
      expect([other.status, JSON.parse(other.text).error.code], url).toEqual([404, 544]);
    }
    expect(await chainChecksum(w.core, w.b.chainId)).toBe(before);
  });

  it("the campaign change log of chain B's campaign answers as for a missing one", async () => {
    const other = await send("GET", `/resources/campaign/${w.b.campaignId}/change_log`, headersOf(w));
    const missing = await send("GET", `/resources/campaign/${MISSING_INT}/change_log`, headersOf(w));
    expect(other).toEqual(missing);
    expect([other.status, JSON.parse(other.text).error.code]).toEqual([404, 544]);
  });

  it.each(CALLS.map(([path, method]) => [path, method] as const))("internal call %s with chain B's ids", async (path, method) => {
    const p = callParams(w.b)[path]!;
    const { "X-Service-Chain-ID": _ignored, ...headers } = headersOf(w);
    const other = await send(method, path, headers, p.other);
    const missing = await send(method, path, headers, p.missing);
    expect(other).toEqual(missing);
    // 68 for chains and businesses; the campaign calls answer 246 for an unknown or foreign
    // campaign (internal/campaign-access.ts), equally without revealing which.
    // add-user refuses the app hostname with an admin session (419) before it looks at any id.
    const hostnameRefused = path === "/internal/add-user" && caller === "admin of chain A sending chain B's app hostname";
    const expected = hostnameRefused ? [400, 419] : path.includes("campaign") && "campaign_id" in p.other ? [404, 246] : [403, 68];
    expect([other.status, JSON.parse(other.text).error.code]).toEqual(expected);
    expect(await chainChecksum(w.core, w.b.chainId)).toBe(before);
  });
});

describe("positive control: the matrix targets are real", () => {
  it.each(ADAPTERS.map((a) => [a.declaration.name, a] as const))("%s: chain B's own admin reads the target", async (name, adapter) => {
    const res = await send("GET", `${adapter.declaration.path}/${encodeURIComponent(targets(w.b)[name]!.other.id!)}`, w.adminB.headers);
    expect(res.status).toBe(200);
  });

  it("chain B's admin reads chain B's user through get-user", async () => {
    const { "X-Service-Chain-ID": _ignored, ...headers } = w.adminB.headers;
    expect((await send("GET", "/internal/get-user", headers, { chain_id: `${w.b.chainId}`, user_id: `${w.b.userId}` })).status).toBe(200);
  });

  it("chain B's admin reads the campaign through get-campaign", async () => {
    const { "X-Service-Chain-ID": _ignored, ...headers } = w.adminB.headers;
    expect((await send("GET", "/internal/get-campaign", headers, { campaign_id: `${w.b.campaignId}` })).status).toBe(200);
  });
});

describe("chain A's own objects against chain B's (campaign groups, tags)", () => {
  it("a group of chain A cannot take chain B's campaign: 246, as for a missing campaign", async () => {
    const { "X-Service-Chain-ID": _ignored, ...headers } = w.adminA.headers;
    const other = await send("POST", "/internal/add-campaign-group", headers, { chain_id: `${w.chainA}`, name: "Mixed", campaign_ids: `${w.b.campaignId}` });
    const missing = await send("POST", "/internal/add-campaign-group", headers, { chain_id: `${w.chainA}`, name: "Mixed", campaign_ids: `${MISSING_INT}` });
    expect(other.status).toBe(404);
    // the descriptions name the id sent; everything else is alike
    expect(JSON.parse(other.text).error).toMatchObject({ code: 246, name: "campaign_id_not_found" });
    expect(JSON.parse(missing.text).error).toMatchObject({ code: 246, name: "campaign_id_not_found" });
    expect(await chainChecksum(w.core, w.b.chainId)).toBe(before);
  });
});

describe("positive control: chain B's group and tag are real", () => {
  it("chain B's admin lists them", async () => {
    const { "X-Service-Chain-ID": _ignored, ...headers } = w.adminB.headers;
    const groups = JSON.parse((await send("GET", "/internal/get-campaign-groups", headers, { chain_id: `${w.b.chainId}` })).text);
    expect(groups.results.campaign_groups.map((g: { id: number; campaign_ids: number[] }) => [g.id, g.campaign_ids])).toEqual([[w.b.campaignGroupId, [w.b.campaignId]]]);
    const tagList = JSON.parse((await send("GET", "/auth/get-tags", headers, { chain_id: `${w.b.chainId}` })).text);
    expect(tagList.results.tags.map((t: { id: number }) => t.id)).toEqual([w.b.tagId]);
  });
});
