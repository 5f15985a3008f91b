import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allClients, allTokens, seedClient, seedToken } from "../clients/client-test-support.ts";
import { errorOf, startResourcesWorld, type ResourcesWorld } from "./resources-test-support.ts";

let w: ResourcesWorld;
let clientId: number;
beforeAll(async () => {
  w = await startResourcesWorld();
  clientId = (await seedClient(w.core.db, w.core.chainId, w.now(), { name: "Guarded" })).id;
  await seedToken(w.core.db, w.core.chainId, clientId, w.now());
});
afterAll(() => w.core.close());

const NOT_FOUND = { status: 404, code: 544, name: "resource_not_found" };
/** Every write on the resource, each of which must leave the database as it was. */
const writes = (): Array<[string, string, unknown]> => [
  ["POST", "/resources/service_client", { name: "New" }],
  ["PATCH", `/resources/service_client/${clientId}`, { enabled: false }],
  ["PUT", `/resources/service_client/${clientId}`, { name: "Hacked", enabled: false }],
  ["DELETE", `/resources/service_client/${clientId}`, undefined],
  ["DELETE", `/resources/service_client?id=${clientId}`, undefined],
];
const snapshot = async () => ({ clients: await allClients(w.core.db), tokens: await allTokens(w.core.db) });

describe("ServiceClient access", () => {
  it("answers 6 no_valid_session without a session, on every method", async () => {
    const bare = { "X-Service-Chain-ID": String(w.core.chainId) };
    for (const [method, path] of [["GET", `/resources/service_client/${clientId}`], ["GET", "/resources/service_clients"], ...writes()] as const) {
      const res = await w.core.json(path, { method, headers: bare });
      expect({ method, path, ...errorOf(res) }).toEqual({ method, path, status: 401, code: 6, name: "no_valid_session" });
    }
  });

  it("an admin with every level but super_user reads, but every write answers 544 and writes nothing (tokens stay active)", async () => {
    const admin = await w.core.admin({ read: true, write: true, delete: true, assign: true, campaign: true, campaign_enable: true, analytics: true, export: true, segment_query: true });
    expect((await w.call("GET", `/resources/service_client/${clientId}`, undefined, admin.headers)).status).toBe(200);
    expect((await w.call("GET", "/resources/service_clients", undefined, admin.headers)).body.results.total_count).toBe(1);
    const before = await snapshot();
    for (const [method, path, body] of writes()) {
      expect({ method, path, ...errorOf(await w.call(method, path, body, admin.headers)) }).toEqual({ method, path, ...NOT_FOUND });
    }
    // a bad body does not tell a non-super-user anything either
    expect(errorOf(await w.call("POST", "/resources/service_client", { colour: "red" }, admin.headers))).toEqual(NOT_FOUND);
    expect(await snapshot()).toEqual(before);
  });

  it("reads need the read level", async () => {
    const writer = await w.core.admin({ write: true });
    expect(errorOf(await w.call("GET", `/resources/service_client/${clientId}`, undefined, writer.headers))).toEqual(NOT_FOUND);
    expect(errorOf(await w.call("GET", "/resources/service_clients", undefined, writer.headers))).toEqual(NOT_FOUND);
  });

  it("a super user of another chain gets 544 for this chain's client, through their chain or this one", async () => {
    const other = await w.core.createChain("Rival");
    const rival = await w.core.admin({ super_user: true }, other);
    const before = await snapshot();
    for (const [method, path, body] of [["GET", `/resources/service_client/${clientId}`, undefined], ...writes().filter(([m]) => m !== "POST")] as const) {
      expect({ method, ...errorOf(await w.call(method, path, body, rival.headers)) }).toEqual({ method, ...NOT_FOUND });
    }
    expect((await w.call("GET", "/resources/service_clients", undefined, rival.headers)).body.results.total_count).toBe(0);
    const spoofed = { ...rival.headers, "X-Service-Chain-ID": String(w.core.chainId) };
    for (const [method, path, body] of [["GET", "/resources/service_clients", undefined], ...writes()] as const) {
      expect({ method, ...errorOf(await w.call(method, path, body, spoofed)) }).toEqual({ method, ...NOT_FOUND });
    }
    expect(await snapshot()).toEqual(before);
  });
});
