/**
 * Test world of the authorization tests: chain A (the core's chain) with a super-user admin, a
 * privileged chain-scope token, a read_businesses token and a logged-in shopper; chain B with one
 * object of every kind (business, voucher, content page, IP range, service client, access token,
 * campaign, campaign group, tag), seeded directly so nothing depends on the requests under test.
 */
import { eq } from "drizzle-orm";
import { openSecretBox } from "@service/shared/secret-box";
import { startCore, TEST_SECRET_KEY, type TestAdmin, type TestCore } from "../../../test/helpers/core.ts";
import { enqueue } from "../outbox/enqueue.ts";
import { insertWebhook } from "../webhooks/webhook-repository.ts";
import { insertBusiness } from "../businesses/business-repository.ts";
import { seedClient, seedToken } from "../clients/client-test-support.ts";
import { insertContentPage } from "../content-pages/content-page-repository.ts";
import { createAppHostname, createShopper } from "../db/seed.ts";
import {
  accessTokens,
  allowedIpRanges,
  baskets,
  businesses,
  campaigns,
  chains,
  contentPages,
  memberNumberRanges,
  modelChangeLogs,
  serviceClients,
  userReferrals,
  users,
  vouchers,
} from "../db/schema.ts";
import { insertIpRange } from "../ip-ranges/ip-range-repository.ts";
import { seedCampaign, seedUser, seedVoucher } from "../vouchers/voucher-test-support.ts";
import { createCampaignGroup } from "../campaign-groups/campaign-group-repository.ts";
import { createTag } from "../tags/tag-repository.ts";
import { campaignGroupCampaigns, campaignGroups, outbox, phoneVerifications, tags, webhooks } from "../db/schema.ts";

export const APP_A = "a.shop.example.test";
export const APP_B = "b.shop.example.test";

/** Chain B's objects: ids and the other identifiers. */
export interface ChainBObjects {
  chainId: number;
  businessId: number;
  ownerCode: string;
  voucherId: number;
  voucherKey: string;
  contentPageId: number;
  contentPageName: string;
  ipRangeId: number;
  cidr: string;
  serviceClientId: number;
  accessTokenId: string;
  campaignId: number;
  /** a group holding campaignId */
  campaignGroupId: number;
  tagId: number;
  /** a user (shopper) of chain B */
  userId: number;
  /** a generated member-number range of chain B */
  memberNumberRangeId: number;
  webhookId: number;
  /** an outbox row of chain B (resource event_delivery) and its delivery id */
  eventDeliveryId: number;
  deliveryId: string;
}

export interface TwoChains {
  core: TestCore;
  now: Date;
  chainA: number;
  /** super-user admin of chain A (headers carry X-Service-Chain-ID A) */
  adminA: TestAdmin;
  /** super-user admin of chain B */
  adminB: TestAdmin;
  /** `Authorization` headers */
  tokenA: Record<string, string>;
  readBusinessesA: Record<string, string>;
  tokenAId: string;
  clientAId: number;
  /** shopper of chain A: session headers plus X-Service-App-Hostname of A's app */
  shopperA: Record<string, string>;
  shopperAId: number;
  b: ChainBObjects;
}

/** Bearer headers of a token. */
export const bearer = (id: string, secret: string) => ({ Authorization: `Bearer ${id}:${secret}` });

/** Builds the world on a fresh core (clock fixed at 2026-01-01T10:00:00Z). */
export async function startTwoChains(): Promise<TwoChains> {
  const now = new Date("2026-01-01T10:00:00Z");
  const core = await startCore({ clock: () => now });
  const chainA = core.chainId;
  const chainB = await core.createChain("Chain B");
  const adminA = await core.admin({ super_user: true });
  const adminB = await core.admin({ super_user: true }, chainB);

  const clientA = await seedClient(core.db, chainA, now, { name: "Client A" });
  const tokenA = await seedToken(core.db, chainA, clientA.id, now);
  const readA = await seedToken(core.db, chainA, clientA.id, now, `read_businesses:${chainA}`);

  await createAppHostname(core.db, chainA, APP_A);
  await createAppHostname(core.db, chainB, APP_B);
  const shopperAId = await createShopper(core.db, { chainId: chainA, username: "shopper-a@example.com", password: "shop-secret" });
  const login = await core.json("/auth/login", {
    method: "POST",
    headers: { "content-type": "application/json", "X-Service-App-Hostname": APP_A },
    body: JSON.stringify({ username: "shopper-a@example.com", password: "shop-secret" }),
  });
  if (login.status !== 200) throw new Error(`shopper login: ${JSON.stringify(login.body)}`);
  const info = login.body.results.session_info;

  const business = await insertBusiness(core.db, { chainId: chainB, name: "B Store", ownerCode: "B-OWNER-1" }, now);
  const campaignId = await seedCampaign(core.db, chainB, { title: "B campaign" });
  const userB = await seedUser(core.db, chainB);
  const voucher = await seedVoucher(core.db, { chainId: chainB, campaignId, userId: userB }, now);
  const page = await insertContentPage(
    core.db,
    chainB,
    { name: "b-page", displayName: null, order: 0, parentName: null, zones: null, lastUpdatedBy: null },
    now,
  );
  // B's super-user admin stays usable (positive controls) although app.request() has no address.
  await core.db.update(chains).set({ ipWhitelistSuperUserExemption: true }).where(eq(chains.id, chainB));
  const range = await insertIpRange(core.db, { chainId: chainB, cidr: "10.9.0.0/16", notes: null, lastUpdatedBy: null }, now);
  const clientB = await seedClient(core.db, chainB, now, { name: "Client B" });
  const tokenB = await seedToken(core.db, chainB, clientB.id, now);
  const groupB = await createCampaignGroup(
    core.db,
    { chainId: chainB, name: "B group", activeDateFrom: null, activeDateUntil: null, campaignIds: [campaignId], lastUpdatedBy: adminB.id },
    now,
  );
  const tagB = await createTag(core.db, { chainId: chainB, modelClass: "user", value: "b-tag", lastUpdatedBy: adminB.id }, now);
  const [numbers] = await core.db.insert(memberNumberRanges).values({ chainId: chainB, kind: "generated", first: 5000n, last: 5999n, nextNumber: 5000n });
  const box = await openSecretBox(TEST_SECRET_KEY);
  const hookB = await insertWebhook(core.db, box, chainB, { campaignId: null, eventType: "phone_number_verification", targetUrl: "https://sms.b.example.com/hook", active: true }, { signingSecret: "whsec_chain_b_secret" }, adminB.id, now);
  const deliveryB = await enqueue(core.db, { chainId: chainB, kind: "webhook", targetId: hookB.id, eventType: "phone_number_verification", payload: { user_id: userB } }, { secretBox: box, now });

  return {
    core,
    now,
    chainA,
    adminA,
    adminB,
    tokenA: bearer(tokenA.row.id, tokenA.secret),
    readBusinessesA: bearer(readA.row.id, readA.secret),
    tokenAId: tokenA.row.id,
    clientAId: clientA.id,
    shopperA: {
      "X-Service-Session-User-ID": String(info.session_user_id),
      "X-Service-Session-Key": info.session_key,
      "X-Service-App-Hostname": APP_A,
    },
    shopperAId,
    b: {
      chainId: chainB,
      businessId: business.id,
      ownerCode: "B-OWNER-1",
      voucherId: voucher.id,
      voucherKey: voucher.key,
      contentPageId: page.id,
      contentPageName: "b-page",
      ipRangeId: range.id,
      cidr: "10.9.0.0/16",
      serviceClientId: clientB.id,
      accessTokenId: tokenB.row.id,
      campaignId,
      campaignGroupId: groupB.group.id,
      tagId: tagB.tag.id,
      userId: userB,
      memberNumberRangeId: Number(numbers.insertId),
      webhookId: hookB.id,
      eventDeliveryId: deliveryB.id,
      deliveryId: deliveryB.deliveryId,
    },
  };
}

/**
 * Every stored row of chain `chainId` (the chain itself, its businesses, vouchers, content pages,
 * IP ranges, clients, tokens, campaigns, change logs, users, referral links, member-number ranges,
 * baskets, campaign groups with their campaigns, tags, webhooks, outbox deliveries and phone
 * verification codes) as one JSON string: equal before
 * and after a test means nothing of the chain was written.
 */
export async function chainChecksum(core: TestCore, chainId: number): Promise<string> {
  const db = core.db;
  const parts = await Promise.all([
    db.select().from(chains).where(eq(chains.id, chainId)),
    db.select().from(businesses).where(eq(businesses.chainId, chainId)).orderBy(businesses.id),
    db.select().from(vouchers).where(eq(vouchers.chainId, chainId)).orderBy(vouchers.id),
    db.select().from(contentPages).where(eq(contentPages.chainId, chainId)).orderBy(contentPages.id),
    db.select().from(allowedIpRanges).where(eq(allowedIpRanges.chainId, chainId)).orderBy(allowedIpRanges.id),
    db.select().from(serviceClients).where(eq(serviceClients.chainId, chainId)).orderBy(serviceClients.id),
    db.select().from(accessTokens).where(eq(accessTokens.chainId, chainId)).orderBy(accessTokens.id),
    db.select().from(campaigns).where(eq(campaigns.chainId, chainId)).orderBy(campaigns.id),
    db.select().from(modelChangeLogs).where(eq(modelChangeLogs.chainId, chainId)).orderBy(modelChangeLogs.id),
    db.select().from(users).where(eq(users.chainId, chainId)).orderBy(users.id),
    db.select().from(campaignGroups).where(eq(campaignGroups.chainId, chainId)).orderBy(campaignGroups.id),
    db.select().from(campaignGroupCampaigns).where(eq(campaignGroupCampaigns.chainId, chainId)).orderBy(campaignGroupCampaigns.campaignGroupId, campaignGroupCampaigns.campaignId),
    db.select().from(tags).where(eq(tags.chainId, chainId)).orderBy(tags.id),
    db.select().from(userReferrals).where(eq(userReferrals.chainId, chainId)).orderBy(userReferrals.id),
    db.select().from(memberNumberRanges).where(eq(memberNumberRanges.chainId, chainId)).orderBy(memberNumberRanges.id),
    db.select().from(baskets).where(eq(baskets.chainId, chainId)).orderBy(baskets.id),
    db.select().from(webhooks).where(eq(webhooks.chainId, chainId)).orderBy(webhooks.id),
    db.select().from(outbox).where(eq(outbox.chainId, chainId)).orderBy(outbox.id),
    db.select().from(phoneVerifications).where(eq(phoneVerifications.chainId, chainId)).orderBy(phoneVerifications.userId),
  ]);
  // member-number range bounds are BIGINT (bigint in JS), which JSON.stringify cannot write itself
  return JSON.stringify(parts, (_key, value: unknown) => (typeof value === "bigint" ? String(value) : value));
}
