/**
 * Two PATCHes racing on one voucher both get a correct answer (resources/voucher.ts,
 * vouchers/voucher-repository.ts updateVoucher): each is checked against the state the other left, the
 * stored row holds both writes, and no answer shows a state that was never stored.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedCampaign, seedUser, seedVoucher, voucherRow } from "../vouchers/voucher-test-support.ts";
import { startResourcesWorld, type ResourcesWorld } from "./resources-test-support.ts";

let w: ResourcesWorld;
let mine: { chainId: number; campaignId: number; userId: number };
beforeAll(async () => {
  w = await startResourcesWorld();
  mine = { chainId: w.core.chainId, campaignId: await seedCampaign(w.core.db, w.core.chainId), userId: await seedUser(w.core.db, w.core.chainId) };
});
afterAll(() => w.core.close());

const ROUNDS = 8;

describe("concurrent PATCHes of one voucher", () => {
  it("of different fields: both succeed, the row keeps both, the later answer shows both", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const v = await seedVoucher(w.core.db, mine, w.now());
      const [a, b] = await Promise.all([
        w.call("PATCH", `/resources/voucher/${v.id}`, { title: `title ${round}` }),
        w.call("PATCH", `/resources/voucher/${v.id}`, { notes: `notes ${round}` }),
      ]);
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(a.body.results.title).toBe(`title ${round}`);
      expect(b.body.results.notes).toBe(`notes ${round}`);
      expect(await voucherRow(w.core.db, v.id)).toMatchObject({ title: `title ${round}`, notes: `notes ${round}` });
      // One of them wrote second, over the other's write: its answer is the stored row.
      const both = [a, b].filter((r) => r.body.results.title === `title ${round}` && r.body.results.notes === `notes ${round}`);
      expect(both.length).toBeGreaterThanOrEqual(1);
    }
  });

  it("of the status: redeemed is final whichever comes first", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const v = await seedVoucher(w.core.db, mine, w.now());
      const [redeem, claim] = await Promise.all([
        w.call("PATCH", `/resources/voucher/${v.id}`, { status: "redeemed" }),
        w.call("PATCH", `/resources/voucher/${v.id}`, { status: "claimed" }),
      ]);
      // generated -> redeemed and claimed -> redeemed are both allowed: the redeem always succeeds.
      expect(redeem.status).toBe(200);
      expect(redeem.body.results.status).toBe("redeemed");
      const stored = await voucherRow(w.core.db, v.id);
      expect(stored!.status).toBe("redeemed");
      // The claim either came first (and the redeem followed it), or found the voucher redeemed.
      if (claim.status === 200) expect(claim.body.results.status).toBe("claimed");
      else expect([claim.status, claim.body.error.code]).toEqual([400, 419]);
    }
  });
});
