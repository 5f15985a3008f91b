/**
 * The packed chain head the authentication query reads (chain-columns.ts packedChainHeadSelection,
 * chainHeadOf) is the head chainHeadSelection reads, for every combination of its yes / no
 * columns, with and without an app, and for each sale setting alone; a chain not joined is null
 * either way.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestCore } from "../../../test/helpers/core.ts";
import { compileSelect, qb } from "../db/compiled-select.ts";
import { apps, chains } from "../db/schema.ts";
import { chainHeadOf, chainHeadSelection, packedChainHeadSelection, type PackedChainHead } from "./chain-columns.ts";

const SALE_SETTINGS = [
  "basketVoucherAlwaysRedeemFullValueInStore", "basketVoucherAlwaysRedeemFullValueOnline", "calculateBasketOnTotalValueInStore", "calculateBasketOnTotalValueOnline",
  "redeemBasketVoucherOnNegativeValueBasket", "allowsDoubleDiscounting", "excludeRewardsOnBasketCampaignDiscountedItems", "regenerateVouchersOnPartialRedemption",
  "expiredVouchersRegenerateOnReturn", "regeneratedRewardsRedeemImmediately",
] as const;
const FLAGS = ["deleted", "ipWhitelistSuperUserExemption", "restrictCampaignEnable", "requireUniquePhoneNumber", "firstTransactionSetsHomeAndSignupStore", "verifyPhoneNumbers"] as const;

let core: TestCore;
beforeAll(async () => {
  core = await startCore();
}, 60_000);
afterAll(() => core.close());

const full = compileSelect(qb.select({ chain: chainHeadSelection }).from(chains).where(eq(chains.id, sql.placeholder("id"))), ["id"]);
const packed = compileSelect(qb.select({ chain: packedChainHeadSelection }).from(chains).where(eq(chains.id, sql.placeholder("id"))), ["id"]);

describe("the packed chain head", () => {
  it("reads as the head for all 64 combinations of its flags, with and without an app and a dummy e-mail domain", async () => {
    const id = await core.createChain("Packed Head");
    for (let bits = 0; bits < 1 << FLAGS.length; bits++) {
      const values = Object.fromEntries(FLAGS.map((key, i) => [key, (bits & (1 << i)) !== 0]));
      await core.db.update(chains).set({ ...values, dummyEmailDomain: bits % 3 === 0 ? null : `d${bits}.example` }).where(eq(chains.id, id));
      if (bits === 32) await core.db.insert(apps).values({ chainId: id, hostname: `packed-${id}.example`, name: "Packed" });
      const [want] = await full.run(core.db, { id });
      const [got] = await packed.run(core.db, { id });
      expect(chainHeadOf(got!.chain as unknown as PackedChainHead)).toEqual(want!.chain);
    }
  });

  it("reads each sale setting (pricing's, partial redemption, the return settings) alone as the head does", async () => {
    const id = await core.createChain("Packed Sale Settings");
    for (const key of SALE_SETTINGS) {
      await core.db.update(chains).set({ ...Object.fromEntries(SALE_SETTINGS.map((k) => [k, k === key])) }).where(eq(chains.id, id));
      const [want] = await full.run(core.db, { id });
      const [got] = await packed.run(core.db, { id });
      const head = chainHeadOf(got!.chain as unknown as PackedChainHead);
      expect(head, key).toEqual(want!.chain);
      expect(SALE_SETTINGS.filter((k) => head[k]), key).toEqual([key]);
    }
  });

  it("is null for a chain not joined, like the head", async () => {
    const leftJoined = (selection: object) =>
      compileSelect(qb.select({ one: sql<number>`1`, chain: selection as typeof chainHeadSelection }).from(sql`(SELECT 1) AS x`).leftJoin(chains, eq(chains.id, sql.placeholder("id"))), ["id"]);
    const [want] = await leftJoined(chainHeadSelection).run(core.db, { id: -1 });
    const [got] = await leftJoined(packedChainHeadSelection).run(core.db, { id: -1 });
    expect(want!.chain).toBeNull();
    expect(got!.chain).toBeNull();
  });
});
