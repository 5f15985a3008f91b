import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedCampaign, seedUser, seedVoucher, voucherRow } from "../vouchers/voucher-test-support.ts";
import { errorOf, startResourcesWorld, type ResourcesWorld } from "./resources-test-support.ts";

let w: ResourcesWorld;
let campaign: number;
let user: number;

beforeAll(async () => {
  w = await startResourcesWorld();
  campaign = await seedCampaign(w.core.db, w.core.chainId);
  user = await seedUser(w.core.db, w.core.chainId);
});
afterAll(() => w.core.close());

const seed = (values: Record<string, unknown> = {}) => seedVoucher(w.core.db, { chainId: w.core.chainId, campaignId: campaign, userId: user, ...values }, w.now());
const patch = (id: number, body: unknown) => w.call("PATCH", `/resources/voucher/${id}`, body);
const row = (id: number) => voucherRow(w.core.db, id);
const INVALID = { status: 400, code: 419, name: "parameter_invalid" };

describe("voucher status (spec, States and transitions)", () => {
  it("moves generated -> claimed -> redeemed; redeeming sets redeemed_date and db_redeemed_date", async () => {
    const v = await seed();
    w.setNow("2026-01-01T02:00:00Z");
    const claimed = await patch(v.id, { status: "claimed" });
    expect(claimed.body.results).toMatchObject({ status: "claimed", redeemed_date: null, db_redeemed_date: null });
    expect(await row(v.id)).toMatchObject({ status: "claimed", redeemedDate: null, dbRedeemedDate: null });
    w.setNow("2026-01-01T03:00:00Z");
    const redeemed = await patch(v.id, { status: "redeemed", amount_redeemed: 5 });
    expect(redeemed.body.results).toMatchObject({ status: "redeemed", redeemed_date: "2026-01-01T03:00:00Z", db_redeemed_date: "2026-01-01T03:00:00Z" });
    expect(await row(v.id)).toMatchObject({
      status: "redeemed",
      amountRedeemed: 5,
      redeemedDate: new Date("2026-01-01T03:00:00Z"),
      dbRedeemedDate: new Date("2026-01-01T03:00:00Z"),
    });
  });

  it("may redeem a generated voucher without claiming it first", async () => {
    const v = await seed();
    w.setNow("2026-01-01T04:00:00Z");
    expect((await patch(v.id, { status: "redeemed" })).status).toBe(200);
    expect(await row(v.id)).toMatchObject({ status: "redeemed", redeemedDate: new Date("2026-01-01T04:00:00Z") });
  });

  it("never changes a redeemed voucher's status (PATCH or PUT), and writes nothing of the request", async () => {
    const v = await seed({ status: "redeemed", redeemedDate: new Date("2026-01-01T00:30:00Z"), dbRedeemedDate: new Date("2026-01-01T00:30:00Z") });
    const before = await row(v.id);
    w.setNow("2026-01-01T05:00:00Z");
    for (const status of ["claimed", "generated"]) {
      const res = await patch(v.id, { status, title: "changed" });
      expect(errorOf(res)).toEqual(INVALID);
      expect(res.body.error.description).toMatch(/redeemed voucher.s status never changes/);
      const put = await w.call("PUT", `/resources/voucher/${v.id}`, { status, expiry_date: null, amount: 5 });
      expect(errorOf(put)).toEqual(INVALID);
    }
    expect(await row(v.id)).toEqual(before);
  });

  it("sending redeemed again changes nothing: the redeemed dates stay; other fields stay editable", async () => {
    const v = await seed({ status: "redeemed", redeemedDate: new Date("2026-01-01T00:30:00Z"), dbRedeemedDate: new Date("2026-01-01T00:30:00Z") });
    w.setNow("2026-01-01T06:00:00Z");
    expect((await patch(v.id, { status: "redeemed", notes: "audited" })).status).toBe(200);
    const put = await w.call("PUT", `/resources/voucher/${v.id}`, { status: "redeemed", expiry_date: null, amount: 5, notes: "again" });
    expect(put.status).toBe(200);
    expect(await row(v.id)).toMatchObject({
      status: "redeemed",
      notes: "again",
      redeemedDate: new Date("2026-01-01T00:30:00Z"),
      dbRedeemedDate: new Date("2026-01-01T00:30:00Z"),
      lastModifiedDate: new Date("2026-01-01T06:00:00Z"),
    });
  });

  it("does not move back: claimed -> generated is refused", async () => {
    const v = await seed({ status: "claimed" });
    const before = await row(v.id);
    expect(errorOf(await patch(v.id, { status: "generated" }))).toEqual(INVALID);
    expect(await row(v.id)).toEqual(before);
    expect((await patch(v.id, { status: "claimed" })).status).toBe(200);
    expect((await row(v.id))!.status).toBe("claimed");
  });
});
