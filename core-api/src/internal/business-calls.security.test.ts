import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestAdmin, type TestCore } from "../../../test/helpers/core.ts";
import { businessRow, countBusinesses, encode } from "../../../test/helpers/internal-calls.ts";
import { deleteBusiness, insertBusiness, type BusinessRow } from "../businesses/business-repository.ts";

let core: TestCore;
let otherChain: number;
let writer: TestAdmin;
let reader: TestAdmin;
let analyst: TestAdmin;
let otherWriter: TestAdmin;
let own: BusinessRow;
let foreign: BusinessRow;

beforeAll(async () => {
  core = await startCore();
  otherChain = await core.createChain();
  writer = await core.admin({ write: true });
  reader = await core.admin({ read: true });
  analyst = await core.admin({ analytics: true });
  otherWriter = await core.admin({ super_user: true }, otherChain);
  const now = new Date("2026-11-21T10:00:00Z");
  own = await insertBusiness(core.db, { chainId: core.chainId, name: "Own shop", ownerCode: "OWN-1" }, now);
  foreign = await insertBusiness(core.db, { chainId: otherChain, name: "Foreign shop", ownerCode: "FOR-1" }, now);
});
afterAll(() => core.close());

const expectError = (res: { status: number; body: any }, status: number, code: number, name: string) => {
  expect(res.body.error).toMatchObject({ code, name });
  expect(res.status).toBe(status);
};

describe("add-business: access", () => {
  const add = (headers: Record<string, string>, params: Record<string, unknown> = {}) =>
    core.json("/internal/add-business", encode("json", "POST", headers, { chain_id: core.chainId, name: "Intruder", ...params } as never));

  it("without a session: 6 no_valid_session (401), before any parameter check; nothing written", async () => {
    const before = await countBusinesses(core);
    expectError(await add({}), 401, 6, "no_valid_session");
    expectError(await add({}, { chain_id: "x", name: "" }), 401, 6, "no_valid_session");
    expectError(await add({ "X-Service-Session-User-ID": String(writer.id), "X-Service-Session-Key": "f".repeat(64) }), 401, 6, "no_valid_session");
    expect(await countBusinesses(core)).toBe(before);
  });

  it("read access only, no access, another chain's admin, or an unknown chain: 68 (403); nothing written", async () => {
    const before = await countBusinesses(core);
    for (const admin of [reader, analyst, otherWriter]) expectError(await add(admin.headers), 403, 68, "permission_denied_or_non_existent");
    expectError(await add(writer.headers, { chain_id: 999999 }), 403, 68, "permission_denied_or_non_existent");
    expect(await countBusinesses(core)).toBe(before);
  });

  it("a chain admin cannot update another chain's business through update_if_exists", async () => {
    const res = await add(writer.headers, { business_id: foreign.id, owner_code: "FOR-1", update_if_exists: true });
    expect(res.status).toBe(200);
    expect(res.body.results.business.id).not.toBe(foreign.id);
    expect(await businessRow(core, foreign.id)).toEqual(foreign);
  });
});

describe("alter-business: access", () => {
  const alter = (headers: Record<string, string>, params: Record<string, unknown>) =>
    core.json("/internal/alter-business", encode("form", "PUT", headers, params as never));

  it("without a session: 6 (401)", async () => {
    expectError(await alter({}, { business_id: own.id, name: "x" }), 401, 6, "no_valid_session");
    expect(await businessRow(core, own.id)).toEqual(own);
  });

  it("read access only: 68 and unchanged", async () => {
    expectError(await alter(reader.headers, { business_id: own.id, name: "x" }), 403, 68, "permission_denied_or_non_existent");
    expect(await businessRow(core, own.id)).toEqual(own);
  });

  it("another chain's business answers exactly like an unknown or deleted one: 68", async () => {
    const gone = await insertBusiness(core.db, { chainId: core.chainId, name: "Gone" }, new Date());
    await deleteBusiness(core.db, core.chainId, gone.id, null, new Date());
    const answers = [];
    for (const id of [foreign.id, 987654, gone.id]) {
      const res = await alter(writer.headers, { business_id: id, name: "Taken over" });
      expectError(res, 403, 68, "permission_denied_or_non_existent");
      answers.push(res.body);
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    expect(await businessRow(core, foreign.id)).toEqual(foreign);
  });

  it("the check is on the business's own chain: that chain's admin may alter it", async () => {
    // a business of its own: `foreign` must stay as seeded for the tests that check it is untouched
    const theirs = await insertBusiness(core.db, { chainId: otherChain, name: "Foreign shop 2", ownerCode: "FOR-2" }, new Date("2026-11-21T10:00:00Z"));
    const res = await alter(otherWriter.headers, { business_id: theirs.id, towncity: "Gent" });
    expect(res.status).toBe(200);
    expect(res.body.results.business).toMatchObject({ id: theirs.id, towncity: "Gent", chain_id: otherChain });
  });
});

describe("get-businesses: access", () => {
  const get = (headers: Record<string, string>, chainId = core.chainId) =>
    core.json(`/internal/get-businesses?chain_id=${chainId}`, { headers });

  it("without a session: 6 (401)", async () => {
    expectError(await get({}), 401, 6, "no_valid_session");
  });

  it("read access suffices, and lists only the chain's own businesses", async () => {
    const res = await get(reader.headers);
    expect(res.status).toBe(200);
    const names = res.body.results.businesses.map((b: { name: string }) => b.name);
    expect(names).toContain("Own shop");
    expect(names).not.toContain("Foreign shop");
  });

  it("no read access, or another chain: 68 (403)", async () => {
    expectError(await get(analyst.headers), 403, 68, "permission_denied_or_non_existent");
    expectError(await get(reader.headers, otherChain), 403, 68, "permission_denied_or_non_existent");
    expectError(await get(otherWriter.headers), 403, 68, "permission_denied_or_non_existent");
  });
});
