import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses } from "../db/schema.ts";
import { errorOf, startResourcesWorld, type ResourcesWorld } from "./resources-test-support.ts";

let w: ResourcesWorld;
let shopId: number;
beforeAll(async () => {
  w = await startResourcesWorld();
  shopId = (await w.seed({ name: "Guarded Shop", ownerCode: "SEC-1" })).id;
});
afterAll(() => w.core.close());

const NOT_FOUND = { status: 404, code: 544, name: "resource_not_found" };
const rowOf = async (id: number) => (await w.core.db.select().from(businesses).where(eq(businesses.id, id)))[0]!;

describe("Resources API access", () => {
  it("answers 6 no_valid_session without a session, on every method", async () => {
    const bare = { "X-Service-Chain-ID": String(w.core.chainId) };
    for (const [method, path] of [
      ["GET", `/resources/business/${shopId}`],
      ["GET", "/resources/businesses"],
      ["POST", "/resources/business"],
      ["PATCH", `/resources/business/${shopId}`],
      ["DELETE", `/resources/business/${shopId}`],
    ] as const) {
      const res = await w.core.json(path, { method, headers: bare });
      expect({ method, path, ...errorOf(res) }).toEqual({ method, path, status: 401, code: 6, name: "no_valid_session" });
    }
  });

  it("needs X-Service-Chain-ID as an integer with admin auth (419)", async () => {
    const { "X-Service-Chain-ID": _, ...noChain } = w.admin.headers;
    void _;
    for (const headers of [noChain, { ...noChain, "X-Service-Chain-ID": "abc" }, { ...noChain, "X-Service-Chain-ID": "1.5" }]) {
      const res = await w.core.json(`/resources/business/${shopId}`, { headers });
      expect(errorOf(res)).toEqual({ status: 400, code: 419, name: "parameter_invalid" });
    }
  });

  it("a read-only admin reads but every write answers 544 and writes nothing", async () => {
    const reader = await w.core.admin({ read: true });
    const h = reader.headers;
    expect((await w.call("GET", `/resources/business/${shopId}`, undefined, h)).status).toBe(200);
    expect((await w.call("GET", "/resources/businesses", undefined, h)).status).toBe(200);
    const before = await rowOf(shopId);
    const count = (await w.core.db.select().from(businesses)).length;
    expect(errorOf(await w.call("POST", "/resources/business", { name: "New", owner_code: "N" }, h))).toEqual(NOT_FOUND);
    expect(errorOf(await w.call("PATCH", `/resources/business/${shopId}`, { name: "Hacked" }, h))).toEqual(NOT_FOUND);
    expect(errorOf(await w.call("PUT", `/resources/business/${shopId}`, { name: "Hacked", owner_code: "SEC-1" }, h))).toEqual(NOT_FOUND);
    expect(errorOf(await w.call("DELETE", `/resources/business/${shopId}`, undefined, h))).toEqual(NOT_FOUND);
    expect(await rowOf(shopId)).toEqual(before);
    expect((await w.core.db.select().from(businesses)).length).toBe(count);
  });

  it("write access does not include delete; delete access does not include write", async () => {
    const writer = await w.core.admin({ read: true, write: true });
    expect((await w.call("PATCH", `/resources/business/${shopId}`, { region: "W" }, writer.headers)).status).toBe(200);
    expect(errorOf(await w.call("DELETE", `/resources/business/${shopId}`, undefined, writer.headers))).toEqual(NOT_FOUND);
    const deleter = await w.core.admin({ delete: true });
    expect(errorOf(await w.call("PATCH", `/resources/business/${shopId}`, { region: "D" }, deleter.headers))).toEqual(NOT_FOUND);
    expect(errorOf(await w.call("GET", `/resources/business/${shopId}`, undefined, deleter.headers))).toEqual(NOT_FOUND);
    expect((await rowOf(shopId)).deleted).toBe(false);
  });

  it("an admin of another chain gets 544 for this chain, and cannot reach this chain's business through their own", async () => {
    const other = await w.core.createChain("Rival");
    const rival = await w.core.admin({ super_user: true }, other);
    // their chain header names their chain: this chain's business is not there
    for (const method of ["GET", "PATCH", "PUT", "DELETE"]) {
      const body = method === "GET" || method === "DELETE" ? undefined : { name: "Taken", owner_code: "SEC-1" };
      expect({ method, ...errorOf(await w.call(method, `/resources/business/${shopId}`, body, rival.headers)) }).toEqual({ method, ...NOT_FOUND });
    }
    expect((await w.call("GET", "/resources/businesses", undefined, rival.headers)).body.results.total_count).toBe(0);
    // naming this chain in the header: no rights there
    const spoofed = { ...rival.headers, "X-Service-Chain-ID": String(w.core.chainId) };
    expect(errorOf(await w.call("GET", `/resources/business/${shopId}`, undefined, spoofed))).toEqual(NOT_FOUND);
    expect(errorOf(await w.call("GET", "/resources/businesses", undefined, spoofed))).toEqual(NOT_FOUND);
    expect((await rowOf(shopId)).name).toBe("Guarded Shop");
  });

  it("checks access before the body: a bad body from a reader still answers 544", async () => {
    const reader = await w.core.admin({ read: true });
    expect(errorOf(await w.call("POST", "/resources/business", { bogus: 1 }, reader.headers))).toEqual(NOT_FOUND);
  });
});
