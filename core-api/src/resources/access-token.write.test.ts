import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "../crypto/secrets.ts";
import { verifyAccessToken } from "../clients/verify.ts";
import { allTokens, seedClient, seedToken, tokenRow } from "../clients/client-test-support.ts";
import { serviceClients } from "../db/schema.ts";
import { errorOf, startResourcesWorld, type ResourcesWorld } from "./resources-test-support.ts";

let w: ResourcesWorld;
let chain: number;
let client: number;
let spare: number; // a second live client of the chain
let disabled: number;
let deleted: number;
let foreign: number; // a client of another chain
beforeAll(async () => {
  w = await startResourcesWorld();
  chain = w.core.chainId;
  const db = w.core.db;
  client = (await seedClient(db, chain, w.now(), { name: "POS" })).id;
  spare = (await seedClient(db, chain, w.now(), { name: "Spare" })).id;
  disabled = (await seedClient(db, chain, w.now(), { name: "Off" })).id;
  await db.update(serviceClients).set({ enabled: false }).where(eq(serviceClients.id, disabled));
  deleted = (await seedClient(db, chain, w.now(), { name: "Gone" })).id;
  await db.update(serviceClients).set({ deleted: true }).where(eq(serviceClients.id, deleted));
  foreign = (await seedClient(db, await w.core.createChain("Other"), w.now(), { name: "Foreign" })).id;
});
afterAll(() => w.core.close());

const post = (body: unknown) => w.call("POST", "/resources/access_token", body);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("POST /resources/access_token", () => {
  it("creates an active token with a UUID, returns the secret once and stores only its SHA-256", async () => {
    w.setNow("2026-01-01T01:00:00Z");
    const { status, body } = await post({ service_client: { id: client }, scope: `chain:${chain}` });
    expect(status).toBe(200);
    const t = body.results;
    expect(t.id).toMatch(UUID);
    expect(t.token_secret).toMatch(/^[0-9a-f]{64}$/);
    expect(t).toEqual({
      active: true,
      created_date: "2026-01-01T01:00:00Z",
      deleted: false,
      id: t.id,
      last_modified_date: "2026-01-01T01:00:00Z",
      last_updated_by: { id: w.admin.id },
      scope: `chain:${chain}`,
      service_client: { deleted: false, enabled: true, id: client, is_identity_source: false, name: "POS" },
      token_secret: t.token_secret,
    });
    const row = (await tokenRow(w.core.db, t.id))!;
    expect(row).toMatchObject({ chainId: chain, serviceClientId: client, scope: `chain:${chain}`, active: true, deleted: false, lastUpdatedBy: w.admin.id });
    expect(row.secretHash).toBe(sha256Hex(t.token_secret));
    expect(JSON.stringify(row)).not.toContain(t.token_secret);
    // the issued credential works
    expect(await verifyAccessToken(w.core.db, t.id, t.token_secret)).toMatchObject({ valid: true, serviceClientId: client, chainId: chain });
    // and every later read leaves the secret out
    for (const res of [
      await w.call("GET", `/resources/access_token/${t.id}`, undefined, { "X-Service-Response-Recursion-Level": "4" }),
      await w.call("GET", `/resources/access_token?id=${t.id}`),
      await w.call("PATCH", `/resources/access_token/${t.id}`, { active: true }),
      await w.call("PUT", `/resources/access_token/${t.id}`, { service_client: { id: client } }),
    ]) {
      expect(res.status).toBe(200);
      expect(res.body.results).not.toHaveProperty("token_secret");
    }
    const list = await w.call("GET", "/resources/access_tokens", undefined, { "X-Service-Response-Recursion-Level": "4" });
    expect(JSON.stringify(list.body)).not.toContain(t.token_secret);
    expect(JSON.stringify(list.body)).not.toContain("token_secret");
  });

  it("carries token_secret in the creation answer at recursion level 0 too, and the secret works", async () => {
    const { status, body } = await w.call("POST", "/resources/access_token", { service_client: { id: client }, scope: `chain:${chain}` }, { "X-Service-Response-Recursion-Level": "0" });
    expect(status).toBe(200);
    expect(Object.keys(body.results).sort()).toEqual(["id", "token_secret"]);
    expect(body.results.token_secret).toMatch(/^[0-9a-f]{64}$/);
    expect(await verifyAccessToken(w.core.db, body.results.id, body.results.token_secret)).toMatchObject({ valid: true });
  });

  it("accepts each allowed scope form and stores it normalised", async () => {
    const cases: Array<[string, string]> = [
      [`chain:${chain}`, `chain:${chain}`],
      [`read_businesses:${chain}`, `read_businesses:${chain}`],
      [`chain:${chain},read_businesses:${chain}`, `chain:${chain},read_businesses:${chain}`],
      [` read_businesses:${chain} , chain:${chain} `, `read_businesses:${chain},chain:${chain}`],
      [`chain:${chain},chain:${chain}`, `chain:${chain}`],
    ];
    for (const [scope, stored] of cases) {
      const res = await post({ service_client: { id: client }, scope });
      expect({ scope, status: res.status }).toEqual({ scope, status: 200 });
      expect(res.body.results.scope).toBe(stored);
      expect((await tokenRow(w.core.db, res.body.results.id))!.scope).toBe(stored);
    }
  });

  it("refuses every other scope with access_denied (424, 403) and creates no token", async () => {
    const other = chain + 1000;
    const before = await allTokens(w.core.db);
    for (const scope of [
      `chain:${other}`,
      `read_businesses:${other}`,
      `chain:${chain},chain:${other}`,
      `chain:${chain},read_businesses:${other}`,
      `read_vouchers:${chain}`,
      `admin:${chain}`,
      `chain:0${chain}`,
      `chain:${chain}:x`,
      `chain ${chain}`,
      "chain",
      `chain:${chain},`,
      "",
      " ",
    ]) {
      const res = await post({ service_client: { id: client }, scope });
      expect({ scope, ...errorOf(res) }).toEqual({ scope, status: 403, code: 424, name: "access_denied" });
    }
    // a refused scope wins over a bad service_client: nothing is looked up for a token that may not exist
    expect(errorOf(await post({ service_client: { id: foreign }, scope: `chain:${other}` })).code).toBe(424);
    expect(await allTokens(w.core.db)).toEqual(before);
  });

  it("refuses a service_client that is not a live client of the header chain with 419 and creates nothing", async () => {
    const before = await allTokens(w.core.db);
    for (const id of [foreign, deleted, 999999]) {
      const res = await post({ service_client: { id }, scope: `chain:${chain}` });
      expect({ id, ...errorOf(res) }).toEqual({ id, status: 400, code: 419, name: "parameter_invalid" });
    }
    expect(await allTokens(w.core.db)).toEqual(before);
    // a disabled client is live: its token is created, and cannot authenticate until it is enabled
    const res = await post({ service_client: { id: disabled }, scope: `chain:${chain}` });
    expect(res.status).toBe(200);
    expect((await verifyAccessToken(w.core.db, res.body.results.id, res.body.results.token_secret)).valid).toBe(false);
  });

  it("refuses bad bodies with the spec's errors and creates nothing", async () => {
    const ok = { service_client: { id: client }, scope: `chain:${chain}` };
    const cases: Array<[unknown, number, string]> = [
      [{ ...ok, colour: "red" }, 419, "parameter_invalid"],
      [{ ...ok, id: crypto.randomUUID() }, 419, "parameter_invalid"],
      [{ ...ok, token_secret: "mine" }, 419, "parameter_invalid"],
      [{ ...ok, active: false }, 419, "parameter_invalid"],
      [{ ...ok, deleted: false }, 419, "parameter_invalid"],
      [{ ...ok, last_updated_by: { id: 1 } }, 419, "parameter_invalid"],
      [{ ...ok, created_date: "2026-01-01T00:00:00Z" }, 419, "parameter_invalid"],
      [{ ...ok, chain: { id: chain } }, 419, "parameter_invalid"],
      [{ ...ok, scope: 5 }, 419, "parameter_invalid"],
      [{ ...ok, scope: null }, 419, "parameter_invalid"],
      [{ ...ok, scope: [`chain:${chain}`] }, 419, "parameter_invalid"],
      [{ ...ok, service_client: client }, 419, "parameter_invalid"],
      [{ ...ok, service_client: { id: "abc" } }, 419, "parameter_invalid"],
      [{ ...ok, service_client: { id: 1.5 } }, 419, "parameter_invalid"],
      [{ ...ok, service_client: {} }, 419, "parameter_invalid"],
      [{ ...ok, service_client: null }, 419, "parameter_invalid"],
      [{ scope: `chain:${chain}` }, 441, "parameter_missing"],
      [{ service_client: { id: client } }, 441, "parameter_missing"],
      [{}, 441, "parameter_missing"],
    ];
    const before = await allTokens(w.core.db);
    for (const [body, code, name] of cases) {
      const res = await post(body);
      expect({ body, ...errorOf(res) }).toEqual({ body, status: 400, code, name });
    }
    expect(errorOf(await w.call("POST", `/resources/access_token?scope=chain:${chain}`, ok)).code).toBe(419);
    expect(errorOf(await w.call("POST", `/resources/access_token/${crypto.randomUUID()}`, ok)).code).toBe(544);
    expect(await allTokens(w.core.db)).toEqual(before);
  });

  it("accepts a form body with service_client[id]", async () => {
    const res = await w.core.json("/resources/access_token", {
      method: "POST",
      headers: { ...w.admin.headers, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ "service_client[id]": String(client), scope: `read_businesses:${chain}` }).toString(),
    });
    expect(res.status).toBe(200);
    expect(await tokenRow(w.core.db, res.body.results.id)).toMatchObject({ serviceClientId: client, scope: `read_businesses:${chain}` });
  });
});

describe("PATCH and PUT /resources/access_token", () => {
  it("PATCH active=false revokes the token at once; active=true restores it; last_updated_by is the admin", async () => {
    const t = await seedToken(w.core.db, chain, client, w.now());
    w.setNow("2026-01-01T02:00:00Z");
    const res = await w.call("PATCH", `/resources/access_token/${t.row.id}`, { active: false });
    expect(res.status).toBe(200);
    expect(res.body.results).toMatchObject({ active: false, last_updated_by: { id: w.admin.id }, last_modified_date: "2026-01-01T02:00:00Z" });
    expect(await tokenRow(w.core.db, t.row.id)).toMatchObject({ active: false, lastUpdatedBy: w.admin.id, scope: t.row.scope, secretHash: t.row.secretHash });
    expect(await verifyAccessToken(w.core.db, t.row.id, t.secret)).toEqual({ valid: false, code: "access_token_invalid" });
    expect((await w.call("PATCH", `/resources/access_token?id=${t.row.id.toUpperCase()}`, { active: true })).status).toBe(200);
    expect((await verifyAccessToken(w.core.db, t.row.id, t.secret)).valid).toBe(true);
  });

  it("moves a token to another live client of the chain (PATCH and PUT); PUT keeps active when left out", async () => {
    const t = await seedToken(w.core.db, chain, client, w.now());
    await w.call("PATCH", `/resources/access_token/${t.row.id}`, { active: false });
    const res = await w.call("PATCH", `/resources/access_token/${t.row.id}`, { service_client: { id: spare, name: "echoed" } });
    expect(res.status).toBe(200);
    expect(res.body.results.service_client).toMatchObject({ id: spare, name: "Spare" });
    expect(await tokenRow(w.core.db, t.row.id)).toMatchObject({ serviceClientId: spare, chainId: chain, active: false });
    expect((await w.call("PUT", `/resources/access_token/${t.row.id}`, { service_client: { id: client } })).status).toBe(200);
    expect(await tokenRow(w.core.db, t.row.id)).toMatchObject({ serviceClientId: client, active: false });
    expect((await w.call("PUT", `/resources/access_token/${t.row.id}`, { service_client: { id: client }, active: true, id: t.row.id })).status).toBe(200);
    expect((await tokenRow(w.core.db, t.row.id))!.active).toBe(true);
  });

  it("refuses bad bodies (immutable scope, read-only, unknown, wrong type, bad client) and changes nothing", async () => {
    const t = await seedToken(w.core.db, chain, client, w.now());
    const cases: Array<[string, unknown, number, string]> = [
      ["PATCH", { scope: `chain:${chain}` }, 419, "parameter_invalid"],
      ["PUT", { service_client: { id: client }, scope: `read_businesses:${chain}` }, 419, "parameter_invalid"],
      ["PATCH", { token_secret: "new" }, 419, "parameter_invalid"],
      ["PATCH", { deleted: true }, 419, "parameter_invalid"],
      ["PATCH", { last_updated_by: null }, 419, "parameter_invalid"],
      ["PATCH", { id: crypto.randomUUID() }, 419, "parameter_invalid"],
      ["PATCH", { colour: "red" }, 419, "parameter_invalid"],
      ["PATCH", { active: "no" }, 419, "parameter_invalid"],
      ["PATCH", { active: null }, 419, "parameter_invalid"],
      ["PATCH", { service_client: { id: foreign } }, 419, "parameter_invalid"],
      ["PATCH", { service_client: { id: deleted } }, 419, "parameter_invalid"],
      ["PATCH", { service_client: { id: 999999 } }, 419, "parameter_invalid"],
      ["PATCH", { service_client: { id: foreign }, active: false }, 419, "parameter_invalid"],
      ["PATCH", { service_client: "POS" }, 419, "parameter_invalid"],
      ["PUT", { active: false }, 441, "parameter_missing"],
    ];
    const before = await allTokens(w.core.db);
    for (const [method, body, code, name] of cases) {
      const res = await w.call(method, `/resources/access_token/${t.row.id}`, body);
      expect({ method, body, ...errorOf(res) }).toEqual({ method, body, status: 400, code, name });
    }
    expect(await allTokens(w.core.db)).toEqual(before);
  });
});

describe("DELETE /resources/access_token", () => {
  it("soft-deletes: kept for audit, deleted and inactive, last_updated_by the admin; it then cannot authenticate", async () => {
    const t = await seedToken(w.core.db, chain, client, w.now());
    w.setNow("2026-01-01T03:00:00Z");
    const res = await w.call("DELETE", `/resources/access_token/${t.row.id}`);
    expect(res.status).toBe(200);
    expect(res.body.results).toMatchObject({ id: t.row.id, deleted: true, active: false, last_updated_by: { id: w.admin.id } });
    expect(res.body.results).not.toHaveProperty("token_secret");
    expect(await tokenRow(w.core.db, t.row.id)).toMatchObject({
      deleted: true,
      active: false,
      lastUpdatedBy: w.admin.id,
      lastModifiedDate: new Date("2026-01-01T03:00:00Z"),
      secretHash: t.row.secretHash,
    });
    expect(await verifyAccessToken(w.core.db, t.row.id, t.secret)).toEqual({ valid: false, code: "access_token_invalid" });
    for (const [method, body] of [["GET", undefined], ["DELETE", undefined], ["PATCH", { active: true }]] as const) {
      expect({ method, ...errorOf(await w.call(method, `/resources/access_token/${t.row.id}`, body)) }).toEqual({ method, status: 404, code: 544, name: "resource_not_found" });
    }
    expect(await tokenRow(w.core.db, t.row.id)).toMatchObject({ deleted: true, active: false });
  });

  it("deletes by ?id=; a malformed or unknown uuid is 544 by path and 419 by query", async () => {
    const t = await seedToken(w.core.db, chain, client, w.now());
    expect((await w.call("DELETE", `/resources/access_token?id=${t.row.id}`)).status).toBe(200);
    expect((await tokenRow(w.core.db, t.row.id))!.deleted).toBe(true);
    expect(errorOf(await w.call("DELETE", "/resources/access_token/12")).code).toBe(544);
    expect(errorOf(await w.call("DELETE", `/resources/access_token/${crypto.randomUUID()}`)).code).toBe(544);
    expect(errorOf(await w.call("DELETE", "/resources/access_token?id=12")).code).toBe(419);
    expect(errorOf(await w.call("DELETE", "/resources/access_token")).code).toBe(441);
  });
});
