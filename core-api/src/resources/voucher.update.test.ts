import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertBusiness } from "../businesses/business-repository.ts";
import { seedCampaign, seedUser, seedVoucher, voucherRow } from "../vouchers/voucher-test-support.ts";
import { errorOf, startResourcesWorld, type ResourcesWorld } from "./resources-test-support.ts";

let w: ResourcesWorld;
let campaign: number;
let user: number;
let shop: number;
let other: { chain: number; campaign: number; user: number; business: number };

beforeAll(async () => {
  w = await startResourcesWorld();
  const db = w.core.db;
  campaign = await seedCampaign(db, w.core.chainId);
  user = await seedUser(db, w.core.chainId);
  shop = (await insertBusiness(db, { chainId: w.core.chainId, name: "Shop" }, w.now())).id;
  const chain = await w.core.createChain("Other");
  other = {
    chain,
    campaign: await seedCampaign(db, chain),
    user: await seedUser(db, chain),
    business: (await insertBusiness(db, { chainId: chain, name: "Other Shop" }, w.now())).id,
  };
});
afterAll(() => w.core.close());

const seed = (values: Record<string, unknown> = {}) => seedVoucher(w.core.db, { chainId: w.core.chainId, campaignId: campaign, userId: user, ...values }, w.now());
const row = (id: number) => voucherRow(w.core.db, id);

describe("PATCH /resources/voucher", () => {
  it("changes only the given properties, by id and by ?key=", async () => {
    const v = await seed({ title: "Old", notes: "keep" });
    w.setNow("2026-01-01T02:00:00Z");
    const res = await w.call("PATCH", `/resources/voucher/${v.id}`, { title: "New", amount: 7.5, id: v.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.results).toMatchObject({ id: v.id, title: "New", amount: 7.5, notes: "keep", last_modified_date: "2026-01-01T02:00:00Z" });
    expect(await row(v.id)).toMatchObject({ title: "New", amount: 7.5, notes: "keep", campaignId: campaign, key: v.key, lastUpdatedBy: w.admin.id });
    const byKey = await w.call("PATCH", `/resources/voucher?key=${v.key}`, {
      expiry_date: "2028-01-01 12:00:00",
      redemption_exclusive_business: { id: shop },
      platform_price_rule_id: 9007199254740991,
    });
    expect(byKey.status, JSON.stringify(byKey.body)).toBe(200);
    expect(await row(v.id)).toMatchObject({
      expiryDate: new Date("2028-01-01T12:00:00Z"),
      redemptionExclusiveBusinessId: shop,
      platformPriceRuleId: 9007199254740991,
    });
  });

  it("checks the type's fields against the stored voucher merged with the write", async () => {
    const pct = await seed({ type: "basket_pct", amount: null, discountRatio: 0.1 });
    expect((await w.call("PATCH", `/resources/voucher/${pct.id}`, { discount_ratio: 0.3, amount_redeemed: 4 })).status).toBe(200);
    expect(await row(pct.id)).toMatchObject({ discountRatio: 0.3, amountRedeemed: 4 });
    const honour = await seed({ type: "honour", amount: null, honourCode: "H1" });
    expect((await w.call("PATCH", `/resources/voucher/${honour.id}`, { honour_code: "H2" })).status).toBe(200);
    expect((await row(honour.id))!.honourCode).toBe("H2");
  });

  it("refuses immutable, read-only, unknown and badly typed properties, and writes nothing", async () => {
    const v = await seed({ amount: 10, title: "Guarded" });
    const pct = await seed({ type: "basket_pct", amount: null, discountRatio: 0.1 });
    const cases: Array<[string, number, unknown, number]> = [
      ["PATCH", v.id, { campaign: { id: campaign } }, 419],
      ["PATCH", v.id, { user: { id: user } }, 419],
      ["PATCH", v.id, { type: "basket" }, 419],
      ["PATCH", v.id, { currency: { id: 1 } }, 419],
      ["PATCH", v.id, { basket: null }, 419],
      ["PATCH", v.id, { task: null }, 419],
      ["PATCH", v.id, { locked_until: "2026-05-01T00:00:00Z" }, 419],
      ["PATCH", v.id, { key: v.key }, 419],
      ["PATCH", v.id, { created_date: "2026-01-01T00:00:00Z" }, 419],
      ["PATCH", v.id, { redeemed_date: "2026-01-01T00:00:00Z" }, 419],
      ["PATCH", v.id, { creating_user: { id: user } }, 419],
      ["PATCH", v.id, { parent_voucher: { id: pct.id } }, 419],
      ["PATCH", v.id, { deleted: true }, 419],
      ["PATCH", v.id, { id: v.id + 1 }, 419],
      ["PATCH", v.id, { nickname: "x" }, 419],
      ["PATCH", v.id, { amount: "lots" }, 419],
      ["PATCH", v.id, { expiry_date: "31-12-2027" }, 419],
      ["PATCH", v.id, { discount_ratio: 0.5 }, 419],
      ["PATCH", v.id, { amount: -5 }, 419],
      ["PATCH", v.id, { amount_redeemed: 10.5 }, 419],
      ["PATCH", v.id, { amount: null }, 441],
      ["PATCH", pct.id, { amount: 3 }, 419],
      ["PATCH", pct.id, { discount_ratio: null }, 441],
      ["PATCH", v.id, { redemption_exclusive_business: { id: other.business } }, 419],
      ["PATCH", v.id, { redemption_exclusive_business: { id: 999999 } }, 419],
      ["PATCH", v.id, { status: "sold" }, 419],
      ["PATCH", v.id, { title: "t".repeat(256) }, 482],
      ["PATCH", v.id, { notes: "n".repeat(4097) }, 482],
      ["PUT", v.id, { status: "generated", expiry_date: null, amount: 1, campaign: { id: campaign } }, 419],
      ["PUT", v.id, { expiry_date: null, amount: 1 }, 441],
      ["PUT", v.id, { status: "generated", amount: 1 }, 441],
      ["PUT", v.id, { status: "generated", expiry_date: null }, 441],
    ];
    const before = [await row(v.id), await row(pct.id)];
    for (const [method, id, body, code] of cases) {
      const res = await w.call(method, `/resources/voucher/${id}`, body);
      expect({ method, body, code: errorOf(res).code, status: res.status }).toEqual({ method, body, code, status: 400 });
    }
    expect([await row(v.id), await row(pct.id)]).toEqual(before);
  });

  it("answers 544 for a voucher of another chain or none, and changes nothing", async () => {
    const theirs = await seedVoucher(w.core.db, { chainId: other.chain, campaignId: other.campaign, userId: other.user, title: "Theirs" }, w.now());
    for (const [method, path] of [
      ["PATCH", `/resources/voucher/${theirs.id}`],
      ["PATCH", `/resources/voucher?key=${theirs.key}`],
      ["PUT", `/resources/voucher/${theirs.id}`],
      ["PATCH", "/resources/voucher/999999"],
      ["PATCH", `/resources/voucher?key=${"x".repeat(64)}`],
    ] as const) {
      const res = await w.call(method, path, { title: "Mine now", status: "generated", expiry_date: null, amount: 1 });
      expect({ method, path, ...errorOf(res) }).toEqual({ method, path, status: 404, code: 544, name: "resource_not_found" });
    }
    expect(await row(theirs.id)).toEqual(theirs);
  });
});

describe("PUT /resources/voucher", () => {
  it("replaces: omitted writable properties become null, immutable ones stay", async () => {
    const v = await seed({ amount: 10, title: "T", notes: "N", text: "X", redemptionExclusiveBusinessId: shop, amountRedeemed: 2 });
    w.setNow("2026-01-01T03:00:00Z");
    const res = await w.call("PUT", `/resources/voucher/${v.id}`, { status: "claimed", expiry_date: "2027-03-01T00:00:00Z", amount: 20, title: "T2" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await row(v.id)).toMatchObject({
      status: "claimed",
      amount: 20,
      title: "T2",
      notes: null,
      text: null,
      amountRedeemed: null,
      redemptionExclusiveBusinessId: null,
      expiryDate: new Date("2027-03-01T00:00:00Z"),
      type: "basket",
      campaignId: campaign,
      userId: user,
      key: v.key,
      createdDate: v.createdDate,
      lastModifiedDate: new Date("2026-01-01T03:00:00Z"),
    });
  });
});

describe("DELETE /resources/voucher", () => {
  it("soft-deletes by id and answers with the deleted voucher; it is 544 afterwards", async () => {
    const v = await seed();
    w.setNow("2026-01-01T05:00:00Z");
    const res = await w.call("DELETE", `/resources/voucher/${v.id}`);
    expect(res.status).toBe(200);
    expect(res.body.results).toMatchObject({ id: v.id, key: v.key, deleted: true, last_modified_date: "2026-01-01T05:00:00Z" });
    expect(await row(v.id)).toMatchObject({ deleted: true, lastUpdatedBy: w.admin.id, status: "generated" });
    for (const [method, path] of [
      ["GET", `/resources/voucher/${v.id}`],
      ["GET", `/resources/voucher?key=${v.key}`],
      ["PATCH", `/resources/voucher/${v.id}`],
      ["DELETE", `/resources/voucher/${v.id}`],
    ] as const) {
      expect({ method, path, ...errorOf(await w.call(method, path, method === "PATCH" ? { title: "back" } : undefined)) }).toEqual({
        method,
        path,
        status: 404,
        code: 544,
        name: "resource_not_found",
      });
    }
    const list = await w.call("GET", `/resources/vouchers?id=${v.id}`);
    expect(list.body.results).toMatchObject({ resources: [], total_count: 0 });
  });

  it("deletes by ?key= and cannot be undone: deleted is writable by no method", async () => {
    const v = await seed();
    expect((await w.call("DELETE", `/resources/voucher?key=${v.key}`)).status).toBe(200);
    const undelete = await w.call("PATCH", `/resources/voucher/${v.id}`, { deleted: false });
    expect(errorOf(undelete)).toEqual({ status: 404, code: 544, name: "resource_not_found" });
    expect((await row(v.id))!.deleted).toBe(true);
    const live = await seed();
    const before = await row(live.id);
    expect(errorOf(await w.call("PATCH", `/resources/voucher/${live.id}`, { deleted: true }))).toEqual({ status: 400, code: 419, name: "parameter_invalid" });
    expect(errorOf(await w.call("PATCH", `/resources/voucher/${live.id}`, { deleted: false }))).toEqual({ status: 400, code: 419, name: "parameter_invalid" });
    expect(await row(live.id)).toEqual(before);
  });

  it("a redeemed voucher can be deleted too", async () => {
    const v = await seed({ status: "redeemed", redeemedDate: w.now(), dbRedeemedDate: w.now() });
    expect((await w.call("DELETE", `/resources/voucher/${v.id}`)).status).toBe(200);
    expect(await row(v.id)).toMatchObject({ deleted: true, status: "redeemed" });
  });

  it("answers 544 for another chain's voucher and leaves it alone", async () => {
    const theirs = await seedVoucher(w.core.db, { chainId: other.chain, campaignId: other.campaign, userId: other.user }, w.now());
    expect(errorOf(await w.call("DELETE", `/resources/voucher/${theirs.id}`))).toEqual({ status: 404, code: 544, name: "resource_not_found" });
    expect(errorOf(await w.call("DELETE", `/resources/voucher?key=${theirs.key}`)).code).toBe(544);
    expect(await row(theirs.id)).toEqual(theirs);
  });
});
