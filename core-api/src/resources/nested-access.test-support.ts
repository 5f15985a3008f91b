/**
 * Test world of the nesting matrix (nested-access.matrix.test.ts): one chain with something under
 * every nested reference the Resources API renders, and a caller of every kind:
 * - a super-user admin and an admin with read and write access only (both from an address inside
 *   the chain's allowed IP range, so the range is live and the limited admin still gets in);
 * - a `chain:` token and a `read_businesses:` token;
 * - a shopper logged in through the chain's app, who owns some vouchers and not others.
 * Seeded through the repositories, so nothing depends on the requests under test.
 */
import { eq } from "drizzle-orm";
import { openSecretBox } from "@service/shared/secret-box";
import { startCore, TEST_SECRET_KEY, type TestCore } from "../../../test/helpers/core.ts";
import { setAuthenticationPoint } from "../authentication-points/authentication-point-repository.ts";
import { bearer } from "../auth/two-chains.test-support.ts";
import { insertBusiness } from "../businesses/business-repository.ts";
import { seedClient, seedToken } from "../clients/client-test-support.ts";
import { insertContentPage } from "../content-pages/content-page-repository.ts";
import { chains, memberNumberRanges } from "../db/schema.ts";
import { createAppHostname, createShopper } from "../db/seed.ts";
import { insertIpRange } from "../ip-ranges/ip-range-repository.ts";
import { enqueue } from "../outbox/enqueue.ts";
import { seedCampaign, seedUser, seedVoucher } from "../vouchers/voucher-test-support.ts";
import { insertWebhook } from "../webhooks/webhook-repository.ts";

/** The kinds of caller of the matrix. */
export type Caller = "super_admin" | "limited_admin" | "chain_scope" | "read_businesses" | "shopper";
export const CALLERS: readonly Caller[] = ["super_admin", "limited_admin", "chain_scope", "read_businesses", "shopper"];

const APP = "nesting.shop.example.test";
/** Every request comes from this address, inside the chain's one allowed range. */
const CLIENT_ADDRESS = "192.0.2.10";

export interface NestingWorld {
  core: TestCore;
  chainId: number;
  /** each caller's headers */
  headers: Record<Caller, Record<string, string>>;
  /** the resources to GET by id, per resource name (the chain is GET /resources/chain) */
  ids: Record<string, Array<number | string>>;
  /** every voucher's owner (users.id) */
  voucherOwner: Map<number, number>;
  shopperId: number;
}

/** Builds the world on a fresh core. */
export async function startNestingWorld(): Promise<NestingWorld> {
  const now = new Date("2026-01-01T10:00:00Z");
  const core = await startCore({ clock: () => now, clientAddress: () => CLIENT_ADDRESS });
  const db = core.db;
  const chainId = core.chainId;
  await db.update(chains).set({
    ipWhitelistSuperUserExemption: true, jwtIssuer: "https://issuer.example.test", jwtAudience: "loyalty", jwtJwksUrl: "https://issuer.example.test/jwks.json",
  }).where(eq(chains.id, chainId));
  const range = await insertIpRange(db, { chainId, cidr: "192.0.2.0/24", notes: "office", lastUpdatedBy: null }, now);
  const superAdmin = await core.admin({ super_user: true });
  const limitedAdmin = await core.admin({ read: true, write: true });

  const till = await seedClient(db, chainId, now, { name: "Till" });
  const chainToken = await seedToken(db, chainId, till.id, now);
  const readToken = await seedToken(db, chainId, till.id, now, `read_businesses:${chainId}`);

  await createAppHostname(db, chainId, APP);
  const shopperId = await createShopper(db, { chainId, username: "nesting-shopper@example.com", password: "shop-secret" });
  const login = await core.json("/auth/login", {
    method: "POST",
    headers: { "content-type": "application/json", "X-Service-App-Hostname": APP },
    body: JSON.stringify({ username: "nesting-shopper@example.com", password: "shop-secret" }),
  });
  if (login.status !== 200) throw new Error(`shopper login: ${JSON.stringify(login.body)}`);
  const session = login.body.results.session_info;
  // Set after the shopper's login: from now on the chain's shoppers would log in through the webshop.
  const identity = await seedClient(db, chainId, now, { name: "Identity Source", emailContact: "idp@example.test", isIdentitySource: true });
  const box = await openSecretBox(TEST_SECRET_KEY);
  await setAuthenticationPoint(db, box, { chainId, baseUrl: "https://connector.example.test", integrationToken: "integration-token", actor: null }, now);

  const shop = await insertBusiness(db, { chainId, name: "Nesting Shop", ownerCode: "NEST-1" }, now);
  const campaignId = await seedCampaign(db, chainId);
  const otherUser = await seedUser(db, chainId);
  const mine = { chainId, campaignId, userId: shopperId };
  const v1 = await seedVoucher(db, { ...mine, redemptionExclusiveBusinessId: shop.id }, now);
  const v2 = await seedVoucher(db, { ...mine, parentVoucherId: v1.id }, now);
  const v3 = await seedVoucher(db, { ...mine, parentVoucherId: v2.id, redemptionExclusiveBusinessId: shop.id }, now);
  const theirs = await seedVoucher(db, { chainId, campaignId, userId: otherUser, redemptionExclusiveBusinessId: shop.id }, now);
  // The shopper's voucher replacing another user's: the parent is not theirs to read.
  const mixed = await seedVoucher(db, { ...mine, parentVoucherId: theirs.id }, now);
  const page = await insertContentPage(db, chainId, { name: "nesting-page", displayName: null, order: 0, parentName: null, zones: null, lastUpdatedBy: null }, now);

  const [numbers] = await db.insert(memberNumberRanges).values({ chainId, kind: "generated", first: 7000n, last: 7999n, nextNumber: 7000n });
  const hook = await insertWebhook(db, box, chainId, { campaignId: null, eventType: "phone_number_verification", targetUrl: "https://sms.example.com/hook", active: true }, { signingSecret: "whsec_nesting" }, superAdmin.id, now);
  const delivery = await enqueue(db, { chainId, kind: "webhook", targetId: hook.id, eventType: "phone_number_verification", payload: { user_id: shopperId } }, { secretBox: box, now });

  const chainHeader = { "X-Service-Chain-ID": String(chainId) };
  return {
    core,
    chainId,
    shopperId,
    headers: {
      super_admin: superAdmin.headers,
      limited_admin: limitedAdmin.headers,
      chain_scope: { ...bearer(chainToken.row.id, chainToken.secret), ...chainHeader },
      read_businesses: { ...bearer(readToken.row.id, readToken.secret), ...chainHeader },
      shopper: { "X-Service-Session-User-ID": String(session.session_user_id), "X-Service-Session-Key": session.session_key, "X-Service-App-Hostname": APP },
    },
    ids: {
      business: [shop.id],
      voucher: [v1.id, v2.id, v3.id, theirs.id, mixed.id],
      "content-page": [page.id],
      allowed_ip_range: [range.id],
      chain: [chainId],
      access_token: [chainToken.row.id, readToken.row.id],
      service_client: [identity.id, till.id],
      member_number_range: [Number(numbers.insertId)],
      webhook: [hook.id],
      event_delivery: [delivery.id],
    },
    voucherOwner: new Map([v1, v2, v3, theirs, mixed].map((v) => [v.id, v.userId])),
  };
}
