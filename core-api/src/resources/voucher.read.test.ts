import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertBusiness } from "../businesses/business-repository.ts";
import { vouchers } from "../db/schema.ts";
import type { VoucherRow } from "../vouchers/voucher-columns.ts";
import { seedCampaign, seedUser, seedVoucher } from "../vouchers/voucher-test-support.ts";
import { errorOf, startResourcesWorld, type ResourcesWorld } from "./resources-test-support.ts";

let w: ResourcesWorld;
let campaign: number;
let user: number;
let shop: number;
let parent: VoucherRow;
let child: VoucherRow;
let theirs: VoucherRow;

beforeAll(async () => {
  w = await startResourcesWorld();
  const db = w.core.db;
  campaign = await seedCampaign(db, w.core.chainId);
  user = await seedUser(db, w.core.chainId);
  shop = (await insertBusiness(db, { chainId: w.core.chainId, name: "Exclusive Shop", ownerCode: "EX-1" }, w.now())).id;
  parent = await seedVoucher(db, { chainId: w.core.chainId, campaignId: campaign, userId: user, amount: 4 }, w.now());
  // The replaced voucher is deleted; its replacement still shows it as its parent.
  await db.update(vouchers).set({ deleted: true }).where(eq(vouchers.id, parent.id));
  child = await seedVoucher(
    db,
    {
      chainId: w.core.chainId,
      campaignId: campaign,
      userId: user,
      creatingUserId: user,
      parentVoucherId: parent.id,
      redemptionExclusiveBusinessId: shop,
      currencyId: 1,
      title: "Child",
      thirdPartyId: 42,
    },
    w.now(),
  );
  const chain = await w.core.createChain("Other");
  theirs = await seedVoucher(db, { chainId: chain, campaignId: await seedCampaign(db, chain), userId: await seedUser(db, chain) }, w.now());
});
afterAll(() => w.core.close());

const get = (path: string, level?: string) => w.call("GET", path, undefined, level ? { "X-Service-Response-Recursion-Level": level } : {});
const LEVEL_1 = ["amount", "campaign", "deleted", "expiry_date", "id", "key", "status", "type", "user"];

describe("GET /resources/voucher", () => {
  it("reads one voucher by id and by ?key=, at the default level 2", async () => {
    const byId = await get(`/resources/voucher/${child.id}`);
    expect(byId.status).toBe(200);
    const byKey = await get(`/resources/voucher?key=${child.key}`);
    expect(byKey.body).toEqual(byId.body);
    const v = byId.body.results;
    expect(Object.keys(v).sort()).toEqual(
      [
        "amount", "amount_redeemed", "basket", "basket_owner_code_exclusive", "campaign", "created_date", "creating_user", "currency",
        "db_redeemed_date", "deleted", "description", "discount_ratio", "expiry_date", "generating_return_transaction", "honour_code", "id",
        "image_url", "key", "last_modified_date", "locked_until", "locking_code", "notes", "parent_voucher", "platform_discount_code",
        "platform_discount_code_id", "platform_price_rule_id", "redeemed_date", "redemption_exclusive_business", "status", "task", "text",
        "third_party_id", "title", "type", "user",
      ].sort(),
    );
    expect(v).toMatchObject({
      id: child.id,
      key: child.key,
      type: "basket",
      status: "generated",
      title: "Child",
      third_party_id: 42,
      campaign: { id: campaign },
      user: { id: user },
      creating_user: { id: user },
      currency: { id: 1 },
      basket: null,
      expiry_date: "2027-01-01T00:00:00Z",
      created_date: "2026-01-01T00:00:00Z",
    });
  });

  it("renders parent_voucher and redemption_exclusive_business one level down with their own declarations", async () => {
    const v = (await get(`/resources/voucher/${child.id}`)).body.results;
    expect(Object.keys(v.parent_voucher).sort()).toEqual(LEVEL_1);
    expect(v.parent_voucher).toMatchObject({ id: parent.id, key: parent.key, amount: 4, deleted: true, campaign: { id: campaign } });
    expect(v.redemption_exclusive_business).toEqual({ id: shop, name: "Exclusive Shop", owner_code: "EX-1", chain: { id: w.core.chainId } });
    const deep = (await get(`/resources/voucher/${child.id}`, "4")).body.results;
    expect(deep.parent_voucher).toMatchObject({ id: parent.id, created_date: "2026-01-01T00:00:00Z", parent_voucher: null });
  });

  it("includes a property when its level <= the requested level: 0 gives the id, 1 the level-1 properties", async () => {
    expect((await get(`/resources/voucher/${child.id}`, "0")).body.results).toEqual({ id: child.id });
    expect(Object.keys((await get(`/resources/voucher/${child.id}`, "1")).body.results).sort()).toEqual(LEVEL_1);
    expect(errorOf(await get(`/resources/voucher/${child.id}`, "5"))).toMatchObject({ code: 419 });
  });

  it("answers 544 for another chain's voucher, a deleted one, or none; 419/441 for a malformed target", async () => {
    for (const path of [
      `/resources/voucher/${theirs.id}`,
      `/resources/voucher?key=${theirs.key}`,
      `/resources/voucher/${parent.id}`,
      `/resources/voucher?key=${parent.key}`,
      "/resources/voucher/999999",
      "/resources/voucher/abc",
      `/resources/voucher?key=${"z".repeat(64)}`,
      "/resources/voucher?key=short",
    ]) {
      expect({ path, ...errorOf(await get(path)) }).toEqual({ path, status: 404, code: 544, name: "resource_not_found" });
    }
    expect(errorOf(await get(`/resources/voucher?key=${child.key}&id=${child.id}`))).toMatchObject({ code: 419 });
    expect(errorOf(await get(`/resources/voucher?status=generated`))).toMatchObject({ code: 419 });
    expect(errorOf(await get("/resources/voucher"))).toEqual({ status: 400, code: 441, name: "parameter_missing" });
  });
});
