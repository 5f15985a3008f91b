import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedClient, seedToken } from "../clients/client-test-support.ts";
import { accessTokens, serviceClients } from "../db/schema.ts";
import { errorOf, startResourcesWorld, type ResourcesWorld } from "./resources-test-support.ts";

let w: ResourcesWorld;
let pos: number; // enabled, two live tokens and a deleted one
let web: number; // disabled
let bot: number; // enabled
let tokenIds: string[];
beforeAll(async () => {
  w = await startResourcesWorld();
  const db = w.core.db;
  const chainId = w.core.chainId;
  w.setNow("2026-01-01T01:00:00Z");
  pos = (await seedClient(db, chainId, w.now(), { name: "POS", emailContact: "pos@example.com" })).id;
  w.setNow("2026-01-01T02:00:00Z");
  web = (await seedClient(db, chainId, w.now(), { name: "Webshop" })).id;
  await db.update(serviceClients).set({ enabled: false }).where(eq(serviceClients.id, web));
  w.setNow("2026-01-01T03:00:00Z");
  bot = (await seedClient(db, chainId, w.now(), { name: "Analytics bot" })).id;
  const deletedClient = await seedClient(db, chainId, w.now(), { name: "Gone" });
  await db.update(serviceClients).set({ deleted: true }).where(eq(serviceClients.id, deletedClient.id));
  w.setNow("2026-01-01T04:00:00Z");
  const t1 = await seedToken(db, chainId, pos, w.now());
  w.setNow("2026-01-01T05:00:00Z");
  const t2 = await seedToken(db, chainId, pos, w.now(), `read_businesses:${chainId}`);
  const gone = await seedToken(db, chainId, pos, w.now());
  await db.update(accessTokens).set({ deleted: true }).where(eq(accessTokens.id, gone.row.id));
  tokenIds = [t1.row.id, t2.row.id];
  // another chain's client, never visible here
  await seedClient(db, await w.core.createChain("Elsewhere"), w.now(), { name: "POS" });
});
afterAll(() => w.core.close());

const level = (n: number) => ({ "X-Service-Response-Recursion-Level": String(n) });
const names = (res: { body: any }) => res.body.results.resources.map((r: { name: string }) => r.name);

describe("GET /resources/service_client", () => {
  it("gets one by id at the default level 2, with its chain at level 1 and without its tokens", async () => {
    const { status, body } = await w.call("GET", `/resources/service_client/${pos}`);
    expect(status).toBe(200);
    expect(body.results).toEqual({
      chain: { id: w.core.chainId, name: "Test Chain", deleted: false, app: null },
      created_date: "2026-01-01T01:00:00Z",
      deleted: false,
      deleted_by: null,
      email_contact: "pos@example.com",
      enabled: true,
      id: pos,
      is_identity_source: false,
      last_modified_date: "2026-01-01T01:00:00Z",
      last_updated_by: null,
      name: "POS",
    });
    const byQuery = await w.call("GET", `/resources/service_client?id=${pos}`);
    expect(byQuery.body.results).toEqual(body.results);
  });

  it("renders by level: 0 is the id, 1 adds the L1 properties, 3 adds access_tokens without secrets", async () => {
    expect((await w.call("GET", `/resources/service_client/${pos}`, undefined, level(0))).body.results).toEqual({ id: pos });
    expect((await w.call("GET", `/resources/service_client/${pos}`, undefined, level(1))).body.results).toEqual({
      deleted: false,
      email_contact: "pos@example.com",
      enabled: true,
      id: pos,
      is_identity_source: false,
      name: "POS",
    });
    const l3 = (await w.call("GET", `/resources/service_client/${pos}`, undefined, level(3))).body.results;
    expect(l3.access_tokens.map((t: { id: string }) => t.id)).toEqual(tokenIds);
    expect(l3.access_tokens[1]).toEqual({
      active: true,
      created_date: "2026-01-01T05:00:00Z",
      deleted: false,
      id: tokenIds[1],
      last_modified_date: "2026-01-01T05:00:00Z",
      last_updated_by: null,
      scope: `read_businesses:${w.core.chainId}`,
      service_client: { deleted: false, email_contact: "pos@example.com", enabled: true, id: pos, is_identity_source: false, name: "POS" },
    });
    expect(JSON.stringify(l3)).not.toContain("token_secret");
    expect(JSON.stringify(l3)).not.toContain("secret_hash");
    expect((await w.call("GET", `/resources/service_client/${bot}`, undefined, level(3))).body.results.access_tokens).toEqual([]);
  });

  it("answers 544 for a deleted client, an unknown id and a malformed path id; 419 for a bad ?id=", async () => {
    const deleted = (await w.core.db.select().from(serviceClients).where(eq(serviceClients.name, "Gone")))[0]!;
    for (const path of [`/resources/service_client/${deleted.id}`, "/resources/service_client/999999", "/resources/service_client/x1"]) {
      expect(errorOf(await w.call("GET", path))).toEqual({ status: 404, code: 544, name: "resource_not_found" });
    }
    expect(errorOf(await w.call("GET", "/resources/service_client?id=x1")).code).toBe(419);
    expect(errorOf(await w.call("GET", "/resources/service_client?name=POS")).code).toBe(419);
  });
});

describe("GET /resources/service_clients", () => {
  it("lists the chain's live clients in id order with paging and total_count", async () => {
    const res = await w.call("GET", "/resources/service_clients");
    expect(res.status).toBe(200);
    expect(res.body.results).toMatchObject({ limit: 25, offset: 0, total_count: 3, result_type: "service_clients" });
    expect(names(res)).toEqual(["POS", "Webshop", "Analytics bot"]);
    const page = await w.call("GET", "/resources/service_clients?limit=1&offset=1");
    expect(names(page)).toEqual(["Webshop"]);
    expect(page.body.results.total_count).toBe(3);
  });

  it("filters by enabled, id and name (combined)", async () => {
    expect(names(await w.call("GET", "/resources/service_clients?enabled=false"))).toEqual(["Webshop"]);
    expect(names(await w.call("GET", "/resources/service_clients?enabled=true"))).toEqual(["POS", "Analytics bot"]);
    expect(names(await w.call("GET", `/resources/service_clients?id=${bot}`))).toEqual(["Analytics bot"]);
    expect(names(await w.call("GET", "/resources/service_clients?name=POS"))).toEqual(["POS"]);
    expect(names(await w.call("GET", "/resources/service_clients?name=POS&enabled=false"))).toEqual([]);
    expect(names(await w.call("GET", "/resources/service_clients?name=Gone"))).toEqual([]);
  });

  it("sorts by name, created_date and last_modified_date", async () => {
    expect(names(await w.call("GET", "/resources/service_clients?sort_by=name"))).toEqual(["Analytics bot", "POS", "Webshop"]);
    expect(names(await w.call("GET", "/resources/service_clients?sort_by=name&sort_order=desc"))).toEqual(["Webshop", "POS", "Analytics bot"]);
    expect(names(await w.call("GET", "/resources/service_clients?sort_by=created_date&sort_order=desc"))).toEqual(["Analytics bot", "Webshop", "POS"]);
    expect(names(await w.call("GET", "/resources/service_clients?sort_by=last_modified_date"))).toEqual(["POS", "Webshop", "Analytics bot"]);
    expect(names(await w.call("GET", "/resources/service_clients?sort_order=desc"))).toEqual(["Analytics bot", "Webshop", "POS"]);
  });

  it("lists with access_tokens at level 3", async () => {
    const res = await w.call("GET", "/resources/service_clients?sort_by=name", undefined, level(3));
    const byName = Object.fromEntries(res.body.results.resources.map((r: any) => [r.name, r.access_tokens.length]));
    expect(byName).toEqual({ "Analytics bot": 0, POS: 2, Webshop: 0 });
  });

  it("refuses filters and sorts the spec does not list with 419", async () => {
    for (const q of ["email_contact=pos@example.com", "is_identity_source=false", "chain=1", "sort_by=email_contact", "sort_by=id", "enabled=maybe", "id=x", "search[name]=POS", "colour=red"]) {
      expect({ q, ...errorOf(await w.call("GET", `/resources/service_clients?${q}`)) }).toEqual({ q, status: 400, code: 419, name: "parameter_invalid" });
    }
  });
});
