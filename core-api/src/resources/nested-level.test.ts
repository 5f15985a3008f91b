/**
 * The one rendering rule for nested resources (handbook, "recursion level"): a resource nested in
 * a response at level L is that resource as its own GET answers at level L - 1, all the way down
 * (a bare `{id}` at level 0). Checked for every nesting the engine serves, at every level.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedClient, seedToken } from "../clients/client-test-support.ts";
import { allowedIpRanges, chains } from "../db/schema.ts";
import { createAppHostname } from "../db/seed.ts";
import { seedCampaign, seedUser, seedVoucher } from "../vouchers/voucher-test-support.ts";
import { startResourcesWorld, type ResourcesWorld } from "./resources-test-support.ts";

let w: ResourcesWorld;
/** [label, path of the outer resource, nested property, path of the nested resource itself] */
const nestings: Array<[string, string, string, string]> = [];

beforeAll(async () => {
  w = await startResourcesWorld();
  const db = w.core.db;
  const chainId = w.core.chainId;
  const now = w.now();
  // Something under every chain property a deeper level shows: an app, a currency, a range.
  await createAppHostname(db, chainId, "shop.nested.test");
  await db.update(chains).set({ currencyId: null, ipWhitelistSuperUserExemption: true }).where(eq(chains.id, chainId));
  const [range] = await db.insert(allowedIpRanges).values({ chainId, cidr: "192.0.2.0/24", notes: "office", createdDate: now, lastModifiedDate: now });
  const rangeId = Number(range.insertId);

  const shop = await w.seed({ name: "Nested Shop", ownerCode: "N-1" });
  const client = await seedClient(db, chainId, now, { name: "Till" });
  const token = await seedToken(db, chainId, client.id, now);
  const campaignId = await seedCampaign(db, chainId);
  const userId = await seedUser(db, chainId);
  const v1 = await seedVoucher(db, { chainId, campaignId, userId, redemptionExclusiveBusinessId: shop.id }, now);
  const v2 = await seedVoucher(db, { chainId, campaignId, userId, parentVoucherId: v1.id }, now);
  const v3 = await seedVoucher(db, { chainId, campaignId, userId, parentVoucherId: v2.id, redemptionExclusiveBusinessId: shop.id }, now);

  nestings.push(
    ["business -> chain", `/resources/business/${shop.id}`, "chain", "/resources/chain"],
    ["allowed_ip_range -> chain", `/resources/allowed_ip_range/${rangeId}`, "chain", "/resources/chain"],
    ["service_client -> chain", `/resources/service_client/${client.id}`, "chain", "/resources/chain"],
    ["access_token -> service_client", `/resources/access_token/${token.row.id}`, "service_client", `/resources/service_client/${client.id}`],
    ["voucher -> parent_voucher (two generations)", `/resources/voucher/${v3.id}`, "parent_voucher", `/resources/voucher/${v2.id}`],
    ["voucher -> redemption_exclusive_business", `/resources/voucher/${v3.id}`, "redemption_exclusive_business", `/resources/business/${shop.id}`],
  );
});
afterAll(() => w.core.close());

const get = async (path: string, level: number) => {
  const res = await w.call("GET", path, undefined, { "X-Service-Response-Recursion-Level": String(level) });
  expect({ path, level, status: res.status }).toEqual({ path, level, status: 200 });
  return res.body.results;
};

describe("a nested resource is rendered at level - 1 by its own declaration", () => {
  it("for every nesting and every level 1..4, the nested object equals the resource's own GET one level down", async () => {
    expect(nestings).toHaveLength(6);
    let compared = 0;
    for (const [label, outer, prop, inner] of nestings) {
      for (const level of [1, 2, 3, 4]) {
        const nested = (await get(outer, level))[prop];
        if (level < 2 && nested === undefined) continue; // a level-2 property is not shown at level 1
        expect({ label, level, nested }).toEqual({ label, level, nested: await get(inner, level - 1) });
        compared++;
      }
    }
    // business/range -> chain (L1) at 4 levels, service_client -> chain (L2), token -> client (L2), voucher refs (L2) at 3
    expect(compared).toBe(4 + 4 + 3 + 3 + 3 + 3);
  });

  it("the chain inside a business at level 3 carries the chain's level-2 settings, not a fixed summary", async () => {
    const chain = (await get(`/resources/business?owner_code=N-1`, 3)).chain;
    expect(chain).toMatchObject({ app: { id: expect.any(Number) }, authentication_point: null, currency: null, last_updated_by: null });
    expect(chain).toHaveProperty("dummy_email_domain");
    expect(chain).not.toHaveProperty("allowed_ip_ranges");
    const deeper = (await get(`/resources/business?owner_code=N-1`, 4)).chain;
    expect(deeper.allowed_ip_ranges).toHaveLength(1);
    expect(deeper.allowed_ip_ranges[0].chain).toEqual({ id: w.core.chainId, name: "Test Chain", deleted: false, app: chain.app });
  });
});
