import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedClient, seedToken } from "../clients/client-test-support.ts";
import { accessTokens } from "../db/schema.ts";
import { errorOf, startResourcesWorld, type ResourcesWorld } from "./resources-test-support.ts";

let w: ResourcesWorld;
let chain: number;
let pos: number;
let web: number;
/** a: chain scope of pos (01:00); b: read_businesses of web (02:00, inactive, modified 05:00); c: chain scope of web (03:00) */
let a: string, b: string, c: string;
let gone: string;
let foreignToken: string;
beforeAll(async () => {
  w = await startResourcesWorld();
  const db = w.core.db;
  chain = w.core.chainId;
  pos = (await seedClient(db, chain, w.now(), { name: "POS", emailContact: "pos@example.com" })).id;
  web = (await seedClient(db, chain, w.now(), { name: "Webshop" })).id;
  w.setNow("2026-01-01T01:00:00Z");
  a = (await seedToken(db, chain, pos, w.now())).row.id;
  w.setNow("2026-01-01T02:00:00Z");
  b = (await seedToken(db, chain, web, w.now(), `read_businesses:${chain}`)).row.id;
  w.setNow("2026-01-01T03:00:00Z");
  c = (await seedToken(db, chain, web, w.now())).row.id;
  gone = (await seedToken(db, chain, pos, w.now())).row.id;
  await db.update(accessTokens).set({ deleted: true, active: false }).where(eq(accessTokens.id, gone));
  await db.update(accessTokens).set({ active: false, lastModifiedDate: new Date("2026-01-01T05:00:00Z") }).where(eq(accessTokens.id, b));
  const other = await w.core.createChain("Other");
  foreignToken = (await seedToken(db, other, (await seedClient(db, other, w.now())).id, w.now(), `chain:${other}`)).row.id;
});
afterAll(() => w.core.close());

const level = (n: number) => ({ "X-Service-Response-Recursion-Level": String(n) });
const ids = (res: { body: any }) => res.body.results.resources.map((r: { id: string }) => r.id);
const NOT_FOUND = { status: 404, code: 544, name: "resource_not_found" };

describe("GET /resources/access_token", () => {
  it("gets one by uuid at the default level 2, with its client at level 1 and no secret", async () => {
    const { status, body } = await w.call("GET", `/resources/access_token/${a}`);
    expect(status).toBe(200);
    expect(body.results).toEqual({
      active: true,
      created_date: "2026-01-01T01:00:00Z",
      deleted: false,
      id: a,
      last_modified_date: "2026-01-01T01:00:00Z",
      last_updated_by: null,
      scope: `chain:${chain}`,
      service_client: { deleted: false, email_contact: "pos@example.com", enabled: true, id: pos, is_identity_source: false, name: "POS" },
    });
    expect((await w.call("GET", `/resources/access_token?id=${a}`)).body.results).toEqual(body.results);
    expect((await w.call("GET", `/resources/access_token/${a.toUpperCase()}`)).body.results.id).toBe(a);
  });

  it("renders by level: 0 is the id, 1 leaves out the client and dates, 3 nests the client at level 2", async () => {
    expect((await w.call("GET", `/resources/access_token/${a}`, undefined, level(0))).body.results).toEqual({ id: a });
    expect((await w.call("GET", `/resources/access_token/${a}`, undefined, level(1))).body.results).toEqual({
      active: true,
      deleted: false,
      id: a,
      scope: `chain:${chain}`,
    });
    const l3 = (await w.call("GET", `/resources/access_token/${a}`, undefined, level(3))).body.results;
    expect(l3.service_client).toMatchObject({ id: pos, name: "POS", chain: { id: chain }, created_date: expect.any(String) });
    expect(l3.service_client).not.toHaveProperty("access_tokens");
  });

  it("answers 544 for a deleted token, another chain's token, an unknown uuid and a malformed path id", async () => {
    for (const id of [gone, foreignToken, crypto.randomUUID(), "12", "not-a-uuid", `${a}x`]) {
      expect({ id, ...errorOf(await w.call("GET", `/resources/access_token/${id}`)) }).toEqual({ id, ...NOT_FOUND });
    }
    expect(errorOf(await w.call("GET", "/resources/access_token?id=12"))).toEqual({ status: 400, code: 419, name: "parameter_invalid" });
    expect(errorOf(await w.call("GET", `/resources/access_token?scope=chain:${chain}`)).code).toBe(419);
    expect(errorOf(await w.call("GET", "/resources/access_token")).code).toBe(441);
  });
});

describe("GET /resources/access_tokens", () => {
  it("lists the chain's live tokens in creation order with paging and total_count", async () => {
    const res = await w.call("GET", "/resources/access_tokens");
    expect(res.status).toBe(200);
    expect(res.body.results).toMatchObject({ limit: 25, offset: 0, total_count: 3, result_type: "access_tokens" });
    expect(ids(res)).toEqual([a, b, c]);
    const page = await w.call("GET", "/resources/access_tokens?limit=2&offset=2");
    expect(ids(page)).toEqual([c]);
    expect(page.body.results.total_count).toBe(3);
    expect(ids(await w.call("GET", "/resources/access_tokens?sort_order=desc"))).toEqual([c, b, a]);
  });

  it("filters by active, id, scope and service_client (by numeric id), combined", async () => {
    expect(ids(await w.call("GET", "/resources/access_tokens?active=false"))).toEqual([b]);
    expect(ids(await w.call("GET", "/resources/access_tokens?active=true"))).toEqual([a, c]);
    expect(ids(await w.call("GET", `/resources/access_tokens?id=${c}`))).toEqual([c]);
    expect(ids(await w.call("GET", `/resources/access_tokens?id=${c.toUpperCase()}`))).toEqual([c]);
    expect(ids(await w.call("GET", "/resources/access_tokens?id=not-a-uuid"))).toEqual([]);
    expect(ids(await w.call("GET", `/resources/access_tokens?scope=read_businesses:${chain}`))).toEqual([b]);
    expect(ids(await w.call("GET", `/resources/access_tokens?service_client=${web}`))).toEqual([b, c]);
    expect(ids(await w.call("GET", `/resources/access_tokens?service_client[id]=${pos}`))).toEqual([a]);
    expect(ids(await w.call("GET", `/resources/access_tokens?service_client=${web}&active=true`))).toEqual([c]);
    expect(ids(await w.call("GET", `/resources/access_tokens?id=${gone}`))).toEqual([]);
    expect(ids(await w.call("GET", `/resources/access_tokens?id=${foreignToken}`))).toEqual([]);
  });

  it("sorts by created_date and last_modified_date", async () => {
    expect(ids(await w.call("GET", "/resources/access_tokens?sort_by=created_date&sort_order=desc"))).toEqual([c, b, a]);
    expect(ids(await w.call("GET", "/resources/access_tokens?sort_by=last_modified_date&sort_order=desc"))).toEqual([b, c, a]);
    expect(ids(await w.call("GET", "/resources/access_tokens?sort_by=last_modified_date"))).toEqual([a, c, b]);
  });

  it("refuses filters and sorts the spec does not list with 419", async () => {
    for (const q of ["token_secret=x", "deleted=true", "created_date=2026-01-01", "sort_by=scope", "sort_by=id", "active=maybe", "service_client=abc", "service_client[name]=POS", "search[scope]=chain", "chain=1"]) {
      expect({ q, ...errorOf(await w.call("GET", `/resources/access_tokens?${q}`)) }).toEqual({ q, status: 400, code: 419, name: "parameter_invalid" });
    }
  });
});
