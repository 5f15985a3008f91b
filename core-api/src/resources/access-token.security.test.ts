import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allTokens, seedClient, seedToken } from "../clients/client-test-support.ts";
import { errorOf, startResourcesWorld, type ResourcesWorld } from "./resources-test-support.ts";

let w: ResourcesWorld;
let clientId: number;
let tokenId: string;
beforeAll(async () => {
  w = await startResourcesWorld();
  clientId = (await seedClient(w.core.db, w.core.chainId, w.now(), { name: "POS" })).id;
  tokenId = (await seedToken(w.core.db, w.core.chainId, clientId, w.now())).row.id;
});
afterAll(() => w.core.close());

const NOT_FOUND = { status: 404, code: 544, name: "resource_not_found" };
/** Every write on the resource, each of which must leave the database as it was. */
const writes = (): Array<[string, string, unknown]> => [
  ["POST", "/resources/access_token", { service_client: { id: clientId }, scope: `chain:${w.core.chainId}` }],
  ["PATCH", `/resources/access_token/${tokenId}`, { active: false }],
  ["PUT", `/resources/access_token/${tokenId}`, { service_client: { id: clientId }, active: false }],
  ["DELETE", `/resources/access_token/${tokenId}`, undefined],
  ["DELETE", `/resources/access_token?id=${tokenId}`, undefined],
];

describe("AccessToken access", () => {
  it("answers 6 no_valid_session without a session, on every method", async () => {
    const bare = { "X-Service-Chain-ID": String(w.core.chainId) };
    for (const [method, path] of [["GET", `/resources/access_token/${tokenId}`], ["GET", "/resources/access_tokens"], ...writes()] as const) {
      const res = await w.core.json(path, { method, headers: bare });
      expect({ method, path, ...errorOf(res) }).toEqual({ method, path, status: 401, code: 6, name: "no_valid_session" });
    }
  });

  it("an admin with every level but super_user reads, but every write answers 544 and writes nothing", async () => {
    const admin = await w.core.admin({ read: true, write: true, delete: true, assign: true, campaign: true, campaign_enable: true, analytics: true, export: true, segment_query: true });
    expect((await w.call("GET", `/resources/access_token/${tokenId}`, undefined, admin.headers)).status).toBe(200);
    expect((await w.call("GET", "/resources/access_tokens", undefined, admin.headers)).body.results.total_count).toBe(1);
    const before = await allTokens(w.core.db);
    for (const [method, path, body] of writes()) {
      expect({ method, path, ...errorOf(await w.call(method, path, body, admin.headers)) }).toEqual({ method, path, ...NOT_FOUND });
    }
    // not even the scope check is reached: the caller learns nothing about allowed scopes
    expect(errorOf(await w.call("POST", "/resources/access_token", { service_client: { id: clientId }, scope: "chain:999" }, admin.headers))).toEqual(NOT_FOUND);
    expect(await allTokens(w.core.db)).toEqual(before);
  });

  it("reads need the read level", async () => {
    const writer = await w.core.admin({ write: true, delete: true });
    expect(errorOf(await w.call("GET", `/resources/access_token/${tokenId}`, undefined, writer.headers))).toEqual(NOT_FOUND);
    expect(errorOf(await w.call("GET", "/resources/access_tokens", undefined, writer.headers))).toEqual(NOT_FOUND);
  });

  it("a super user of another chain gets 544 for this chain's token, and cannot mint a token for this chain's client", async () => {
    const other = await w.core.createChain("Rival");
    const rival = await w.core.admin({ super_user: true }, other);
    const before = await allTokens(w.core.db);
    for (const [method, path, body] of [["GET", `/resources/access_token/${tokenId}`, undefined], ...writes().filter(([m]) => m !== "POST")] as const) {
      expect({ method, ...errorOf(await w.call(method, path, body, rival.headers)) }).toEqual({ method, ...NOT_FOUND });
    }
    expect((await w.call("GET", "/resources/access_tokens", undefined, rival.headers)).body.results.total_count).toBe(0);
    // through their own chain, this chain's client is unknown; this chain's scope is refused first
    expect(errorOf(await w.call("POST", "/resources/access_token", { service_client: { id: clientId }, scope: `chain:${other}` }, rival.headers)).code).toBe(419);
    expect(errorOf(await w.call("POST", "/resources/access_token", { service_client: { id: clientId }, scope: `chain:${w.core.chainId}` }, rival.headers)).code).toBe(424);
    const spoofed = { ...rival.headers, "X-Service-Chain-ID": String(w.core.chainId) };
    for (const [method, path, body] of [["GET", "/resources/access_tokens", undefined], ...writes()] as const) {
      expect({ method, ...errorOf(await w.call(method, path, body, spoofed)) }).toEqual({ method, ...NOT_FOUND });
    }
    expect(await allTokens(w.core.db)).toEqual(before);
  });
});
