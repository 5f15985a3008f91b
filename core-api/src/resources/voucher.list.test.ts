import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { vouchers } from "../db/schema.ts";
import type { VoucherRow } from "../vouchers/voucher-columns.ts";
import { seedCampaign, seedUser, seedVoucher } from "../vouchers/voucher-test-support.ts";
import { errorOf, startResourcesWorld, type ResourcesWorld } from "./resources-test-support.ts";

let w: ResourcesWorld;
const v: Record<string, VoucherRow> = {};
let c1: number, c2: number, u1: number, u2: number;

/**
 * Five live vouchers a..e created a minute apart, then modified in another order; campaign, user,
 * status, type and expiry_date each order them differently. Plus a deleted one and one of another
 * chain, which no list shows.
 */
beforeAll(async () => {
  w = await startResourcesWorld();
  const db = w.core.db;
  const chain = w.core.chainId;
  c1 = await seedCampaign(db, chain);
  c2 = await seedCampaign(db, chain);
  u1 = await seedUser(db, chain);
  u2 = await seedUser(db, chain);
  const specs = {
    a: { campaignId: c2, userId: u1, status: "claimed", type: "basket", expiryDate: new Date("2027-03-01T00:00:00Z") },
    b: { campaignId: c1, userId: u2, status: "redeemed", type: "basket_fixed_unit", expiryDate: new Date("2027-01-01T00:00:00Z") },
    c: { campaignId: c2, userId: u2, status: "generated", type: "honour", amount: null, honourCode: "H", expiryDate: new Date("2027-05-01T00:00:00Z") },
    d: { campaignId: c1, userId: u1, status: "generated", type: "basket_pct", amount: null, discountRatio: 0.2, expiryDate: new Date("2027-02-01T00:00:00Z"), creatingUserId: u2 },
    e: { campaignId: c1, userId: u1, status: "claimed", type: "basket", expiryDate: new Date("2027-04-01T00:00:00Z") },
  };
  for (const [i, [name, spec]] of Object.entries(specs).entries()) {
    w.setNow(`2026-01-01T00:0${i}:00Z`);
    v[name] = await seedVoucher(db, { chainId: chain, ...spec }, w.now());
  }
  await db.update(vouchers).set({ parentVoucherId: v.a!.id }).where(eq(vouchers.id, v.e!.id));
  for (const [i, name] of ["c", "e", "a", "d", "b"].entries()) {
    await db.update(vouchers).set({ lastModifiedDate: new Date(`2026-01-01T01:0${i}:00Z`) }).where(eq(vouchers.id, v[name]!.id));
  }
  const gone = await seedVoucher(db, { chainId: chain, campaignId: c1, userId: u1 }, w.now());
  await db.update(vouchers).set({ deleted: true }).where(eq(vouchers.id, gone.id));
  const other = await w.core.createChain("Other");
  await seedVoucher(db, { chainId: other, campaignId: await seedCampaign(db, other), userId: await seedUser(db, other) }, w.now());
});
afterAll(() => w.core.close());

const list = (query = "") => w.call("GET", `/resources/vouchers${query ? `?${query}` : ""}`);
const namesOf = (res: { body: any }) =>
  res.body.results.resources.map((r: any) => Object.keys(v).find((k) => v[k]!.id === r.id) ?? `?${r.id}`);

describe("GET /resources/vouchers", () => {
  it("lists the header chain's live vouchers with the list wrapper, in id order", async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body.results).toMatchObject({ limit: 25, offset: 0, total_count: 5, result_type: "vouchers" });
    expect(namesOf(res)).toEqual(["a", "b", "c", "d", "e"]);
    expect(res.body.results.resources[4]).toMatchObject({ key: v.e!.key, parent_voucher: { id: v.a!.id, key: v.a!.key } });
  });

  it("pages with limit and offset", async () => {
    const page = await list("limit=2&offset=1");
    expect(page.body.results).toMatchObject({ limit: 2, offset: 1, total_count: 5 });
    expect(namesOf(page)).toEqual(["b", "c"]);
    expect(namesOf(await list("limit=2&offset=4"))).toEqual(["e"]);
  });

  it("filters by each F property; references by numeric id or [id]; filters combine", async () => {
    const cases: Array<[string, string[]]> = [
      [`campaign=${c1}`, ["b", "d", "e"]],
      [`campaign[id]=${c2}`, ["a", "c"]],
      [`creating_user=${u2}`, ["d"]],
      [`creating_user[id]=${u1}`, []],
      [`id=${v.c!.id}`, ["c"]],
      [`key=${v.b!.key}`, ["b"]],
      [`parent_voucher=${v.a!.id}`, ["e"]],
      [`parent_voucher[id]=${v.b!.id}`, []],
      ["status=generated", ["c", "d"]],
      ["status=redeemed", ["b"]],
      ["type=basket", ["a", "e"]],
      ["type=basket_pct", ["d"]],
      [`user=${u1}`, ["a", "d", "e"]],
      [`user[id]=${u2}`, ["b", "c"]],
      [`user=${u1}&status=claimed`, ["a", "e"]],
      [`campaign=${c1}&user[id]=${u1}&type=basket`, ["e"]],
    ];
    for (const [query, expected] of cases) {
      const res = await list(query);
      expect({ query, names: namesOf(res), total: res.body.results.total_count }).toEqual({ query, names: expected, total: expected.length });
    }
  });

  it("sorts by each S property in both directions (ties by id)", async () => {
    const cases: Array<[string, string[]]> = [
      ["sort_by=id&sort_order=desc", ["e", "d", "c", "b", "a"]],
      ["sort_by=created_date&sort_order=desc", ["e", "d", "c", "b", "a"]],
      ["sort_by=last_modified_date", ["c", "e", "a", "d", "b"]],
      ["sort_by=last_modified_date&sort_order=desc", ["b", "d", "a", "e", "c"]],
      ["sort_by=expiry_date", ["b", "d", "a", "e", "c"]],
      ["sort_by=expiry_date&sort_order=desc", ["c", "e", "a", "d", "b"]],
      ["sort_by=campaign", ["b", "d", "e", "a", "c"]],
      ["sort_by=campaign&sort_order=desc", ["c", "a", "e", "d", "b"]],
      ["sort_by=user", ["a", "d", "e", "b", "c"]],
      ["sort_by=status", ["a", "e", "c", "d", "b"]],
      ["sort_by=status&sort_order=desc", ["b", "d", "c", "e", "a"]],
      ["sort_order=desc", ["e", "d", "c", "b", "a"]],
    ];
    for (const [query, expected] of cases) {
      expect({ query, names: namesOf(await list(query)) }).toEqual({ query, names: expected });
    }
  });

  it("refuses unknown filters, filter values outside their sets and non-S sort keys with 419", async () => {
    for (const query of [
      "status=used",
      "type=gift",
      "user=abc",
      "campaign[id]=x",
      "amount=5",
      "deleted=true",
      "expiry_date=2027-01-01",
      "sort_by=amount",
      "sort_by=type",
      "sort_order=up",
      "search[*]=x",
      "limit=0",
      "limit=501",
      "status[id]=1",
    ]) {
      expect({ query, ...errorOf(await list(query)) }).toEqual({ query, status: 400, code: 419, name: "parameter_invalid" });
    }
  });

  it("offers only GET on the plural path", async () => {
    for (const method of ["POST", "PATCH", "PUT", "DELETE"]) {
      expect(errorOf(await w.call(method, "/resources/vouchers", {}))).toMatchObject({ code: 544 });
    }
  });
});
