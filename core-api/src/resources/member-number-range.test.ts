/**
 * The member_number_range resource (handbook, "The user": member numbers): super users only;
 * first <= last, no overlap among the chain's live ranges (419, nothing written); numbers sort
 * numerically; a changed or deleted range changes what add-user hands out and admits.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { TestAdmin } from "../../../test/helpers/core.ts";
import { memberNumberRanges } from "../db/schema.ts";
import { errorOf, startResourcesWorld, type ResourcesWorld } from "./resources-test-support.ts";

let w: ResourcesWorld;
let assignAdmin: TestAdmin;
let otherChain: number;
beforeAll(async () => {
  w = await startResourcesWorld();
  assignAdmin = await w.core.admin({ read: true, write: true, delete: true, assign: true });
  otherChain = await w.core.createChain("Other");
});
afterAll(() => w.core.close());
// Each test starts from no ranges in any chain and makes the ones it needs (seedRanges).
beforeEach(async () => {
  await w.core.db.delete(memberNumberRanges);
});

const allRows = async () => JSON.stringify(await w.core.db.select().from(memberNumberRanges).orderBy(memberNumberRanges.id), (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v));
const post = (body: unknown, headers?: Record<string, string>) => w.call("POST", "/resources/member_number_range", body, headers);
const addUser = (params: Record<string, unknown>) => {
  const { "X-Service-Chain-ID": _c, ...headers } = w.admin.headers;
  return w.core.json("/internal/add-user", { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify({ chain_id: w.core.chainId, ...params }) });
};
/** Gives the header chain a generated range 900-999 and a custom range 10000-19999, created in that order. */
const seedRanges = async () => {
  for (const body of [{ kind: "generated", first: "900", last: "999" }, { kind: "custom", first: "10000", last: "19999" }]) {
    const res = await post(body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
};

describe("member_number_range", () => {
  it("creates a range of the header chain and answers it at level 2", async () => {
    const { status, body } = await post({ kind: "generated", first: "900", last: "999" });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.results).toEqual({
      chain: { id: w.core.chainId, name: "Test Chain", deleted: false, app: null },
      created_date: "2026-01-01T00:00:00Z",
      deleted: false,
      first: "900",
      id: expect.any(Number),
      kind: "generated",
      last: "999",
      last_modified_date: "2026-01-01T00:00:00Z",
      last_updated_by: { id: w.admin.id },
    });
    const [row] = await w.core.db.select().from(memberNumberRanges).where(eq(memberNumberRanges.id, body.results.id));
    expect(row).toMatchObject({ chainId: w.core.chainId, kind: "generated", first: 900n, last: 999n, nextNumber: 900n });
    expect((await addUser({ username: "first@example.com" })).body.results.user.member_number).toBe("900");
  });

  it("refuses first > last, overlaps, bad bounds and kinds (419); nothing written", async () => {
    await seedRanges();
    const before = await allRows();
    const cases = [
      { kind: "custom", first: "5", last: "4" },
      { kind: "custom", first: "950", last: "1000" },
      { kind: "generated", first: "15000", last: "15001" },
      { kind: "custom", first: "1", last: "100000" },
      { kind: "custom", first: "0100", last: "200" },
      { kind: "custom", first: "1", last: "1234567890123456789" },
      { kind: "custom", first: "-1", last: "5" },
      { kind: "other", first: "1", last: "5" },
      { kind: "custom", first: 1, last: 5 },
      { kind: "custom", first: "1" },
    ];
    expect(cases).toHaveLength(10);
    for (const body of cases) expect(errorOf(await post(body)).code, JSON.stringify(body)).toBe(body.last === undefined ? 441 : 419);
    expect(await allRows()).toBe(before);
  });

  it("sorts bounds as numbers", async () => {
    await seedRanges();
    const res = await w.call("GET", "/resources/member_number_ranges?sort_by=first&sort_order=asc");
    expect(res.body.results.resources.map((r: { first: string }) => r.first)).toEqual(["900", "10000"]);
  });

  it("PATCH moves bounds (kind is immutable); the next generated number moves up to a raised first", async () => {
    await seedRanges();
    const { body } = await w.call("GET", "/resources/member_number_ranges?kind=generated");
    const id = body.results.resources[0].id;
    const patched = await w.call("PATCH", `/resources/member_number_range/${id}`, { first: "950" });
    expect(patched.body.results).toMatchObject({ first: "950", last: "999" });
    expect((await addUser({ username: "second@example.com" })).body.results.user.member_number).toBe("950");
    expect(errorOf(await w.call("PATCH", `/resources/member_number_range/${id}`, { kind: "custom" })).code).toBe(419);
    expect(errorOf(await w.call("PATCH", `/resources/member_number_range/${id}`, { last: "10000" })).code).toBe(419);
  });

  it("a deleted range no longer admits or hands out numbers; its bounds are free again", async () => {
    await seedRanges();
    const { body } = await w.call("GET", "/resources/member_number_ranges?kind=custom");
    const id = body.results.resources[0].id;
    expect((await addUser({ username: "custom@example.com", member_number: "10001" })).status).toBe(200);
    const deleted = await w.call("DELETE", `/resources/member_number_range/${id}`);
    expect(deleted.body.results).toMatchObject({ id, deleted: true });
    expect(errorOf(await addUser({ username: "custom2@example.com", member_number: "10002" })).code).toBe(419);
    expect((await post({ kind: "custom", first: "10000", last: "10999" })).status).toBe(200);
  });

  it("is for super users only, reads included (544 otherwise); other chains' ranges do not exist", async () => {
    await seedRanges();
    const { body } = await w.call("GET", "/resources/member_number_ranges");
    const id = body.results.resources[0].id;
    for (const [method, path, payload] of [["GET", `/resources/member_number_range/${id}`], ["GET", "/resources/member_number_ranges"], ["POST", "/resources/member_number_range", { kind: "custom", first: "1", last: "2" }], ["DELETE", `/resources/member_number_range/${id}`]] as const) {
      expect(errorOf(await w.core.json(path, { method, headers: { ...assignAdmin.headers, "content-type": "application/json" }, ...(payload ? { body: JSON.stringify(payload) } : {}) })).code, `${method} ${path}`).toBe(544);
    }
    const otherSuper = await w.core.admin({ super_user: true }, otherChain);
    expect(errorOf(await w.core.json(`/resources/member_number_range/${id}`, { headers: otherSuper.headers })).code).toBe(544);
    const theirs = await w.core.json("/resources/member_number_ranges", { headers: otherSuper.headers });
    expect(theirs.body.results.resources).toEqual([]);
    // the same bounds in another chain do not overlap
    const same = await w.core.json("/resources/member_number_range", { method: "POST", headers: { ...otherSuper.headers, "content-type": "application/json" }, body: JSON.stringify({ kind: "generated", first: "900", last: "999" }) });
    expect(same.status).toBe(200);
  });
});
