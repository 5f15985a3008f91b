/**
 * Seeds the connector's customer store: the Magento skeleton a fresh shop has (website `base`,
 * its store group, store view `default`, customer group `General`), the chain -> website mapping,
 * an accepted integration token and, when given, the chain's link to the platform
 * (sync/platform-link.ts). Idempotent: run it on every start.
 */
import { asc, eq } from "drizzle-orm";
import type { SecretBox } from "@service/shared/secret-box";
import { hashIntegrationToken } from "../http/auth.ts";
import { linkPlatformIfUnlinked } from "../sync/platform-link.ts";
import type { ConnectorDb, ConnectorQueryable } from "./client.ts";
import {
  customerGroup, serviceChainWebsite, serviceIntegrationToken, store, storeGroup, storeWebsite,
} from "./schema.ts";
import { runTransaction } from "@service/shared/node";

export interface SeedConnectorOptions {
  /**
   * the service chain this shop serves (the demo chain: the id core-api's seed was handed);
   * undefined: no chain is mapped and no platform link made (the skeleton and token only)
   */
  chainId: number | undefined;
  /**
   * A bearer token to accept; only its SHA-256 is stored. A function is called only when the
   * store has no active token yet (for a token generated on first start and printed once).
   */
  integrationToken?: string | (() => string);
  /** clock for created_at (default: now) */
  now?: Date;
  /**
   * The chain's link to the platform (sync/platform-link.ts): made when the chain has none; an
   * existing link is never changed here (only `npm run admin -- link-platform` changes one).
   */
  platform?: { box: SecretBox; coreApiUrl: string; accessToken: string; appHostname: string };
}

export interface SeedConnectorResult {
  /** the website the chain is mapped to; undefined when no chain was given */
  websiteId: number | undefined;
  /** whether the Magento skeleton (website, store group, store view, customer group) was created */
  createdStore: boolean;
  /** whether the chain -> website mapping was created */
  mappedChain: boolean;
  /** whether the integration token was stored (false: none given, or already known) */
  storedToken: boolean;
  /** whether the platform link was made or replaced (false: none given, or already so) */
  linkedPlatform: boolean;
}

/** Creates website `base`, store group, store view `default` and group `General` in an empty store. */
async function seedStoreSkeleton(tx: ConnectorQueryable): Promise<boolean> {
  const existing = await tx.select({ id: storeWebsite.websiteId }).from(storeWebsite).limit(1);
  if (existing.length > 0) return false;
  const [website] = await tx.insert(storeWebsite)
    .values({ code: "base", name: "Main Website", sortOrder: 0, isDefault: 1 }).$returningId();
  const websiteId = website!.websiteId;
  const [group] = await tx.insert(storeGroup)
    .values({ websiteId, name: "Main Website Store", code: "main_website_store", rootCategoryId: 2 }).$returningId();
  const [view] = await tx.insert(store)
    .values({ code: "default", websiteId, groupId: group!.groupId, name: "Default Store View", isActive: 1 }).$returningId();
  await tx.update(storeGroup).set({ defaultStoreId: view!.storeId }).where(eq(storeGroup.groupId, group!.groupId));
  await tx.update(storeWebsite).set({ defaultGroupId: group!.groupId }).where(eq(storeWebsite.websiteId, websiteId));
  const groups = await tx.select({ id: customerGroup.customerGroupId }).from(customerGroup).limit(1);
  if (groups.length === 0) await tx.insert(customerGroup).values({ customerGroupId: 1, customerGroupCode: "General", taxClassId: 3 });
  return true;
}

/**
 * Seeds the store (see the module comment).
 * The chain (when given) is mapped to the default website unless it already has a website. A token that is
 * already stored is left as it is (a revoked token stays revoked).
 * @returns what was written, or null when the call wrote nothing (everything was already there)
 * @throws Error when the default website already serves another chain; PlatformLinkError when
 *   `platform` is malformed (sync/platform-link.ts)
 */
export async function seedConnector(db: ConnectorDb, options: SeedConnectorOptions): Promise<SeedConnectorResult | null> {
  const now = options.now ?? new Date();
  const seeded = await runTransaction(db, async (tx) => {
    const createdStore = await seedStoreSkeleton(tx);
    const mapped = options.chainId === undefined ? undefined : await mapChain(tx, options.chainId);
    let storedToken = false;
    const token = typeof options.integrationToken === "function"
      ? ((await tx.select({ id: serviceIntegrationToken.id }).from(serviceIntegrationToken)
        .where(eq(serviceIntegrationToken.isActive, true)).limit(1)).length === 0 ? options.integrationToken() : undefined)
      : options.integrationToken;
    if (token) {
      const tokenHash = hashIntegrationToken(token);
      const [known] = await tx.select({ id: serviceIntegrationToken.id }).from(serviceIntegrationToken)
        .where(eq(serviceIntegrationToken.tokenHash, tokenHash));
      if (!known) {
        await tx.insert(serviceIntegrationToken).values({ tokenHash, name: options.chainId === undefined ? "seed" : `chain ${options.chainId} (seed)`, createdAt: now });
        storedToken = true;
      }
    }
    return { websiteId: mapped?.websiteId, createdStore, mappedChain: mapped?.created ?? false, storedToken };
  });
  const linkedPlatform = options.platform && options.chainId !== undefined ? await seedPlatformLink(db, options.chainId, options.platform, now) : false;
  if (!seeded.createdStore && !seeded.mappedChain && !seeded.storedToken && !linkedPlatform) return null;
  return { ...seeded, linkedPlatform };
}

/**
 * Maps chain `chainId` to the default website unless it already has a website.
 * @returns the chain's website, and whether the mapping was made now
 * @throws Error when the default website already serves another chain
 */
async function mapChain(tx: ConnectorQueryable, chainId: number): Promise<{ websiteId: number; created: boolean }> {
  const [mapping] = await tx.select().from(serviceChainWebsite)
    .where(eq(serviceChainWebsite.serviceChainId, chainId)).orderBy(asc(serviceChainWebsite.websiteId)).limit(1);
  if (mapping) return { websiteId: mapping.websiteId, created: false };
  const websites = await tx.select().from(storeWebsite).orderBy(asc(storeWebsite.websiteId));
  const website = websites.find((w) => w.isDefault === 1 && w.code !== "admin") ?? websites.find((w) => w.code !== "admin");
  if (!website) throw new Error("seedConnector: the store has no website");
  const [taken] = await tx.select().from(serviceChainWebsite).where(eq(serviceChainWebsite.websiteId, website.websiteId));
  if (taken) {
    throw new Error(`seedConnector: website ${website.code} already serves chain ${taken.serviceChainId}`);
  }
  await tx.insert(serviceChainWebsite).values({ serviceChainId: chainId, websiteId: website.websiteId });
  return { websiteId: website.websiteId, created: true };
}

/** Links the chain as `platform` says when it has no link yet (an existing one is never changed); returns whether it wrote. */
async function seedPlatformLink(
  db: ConnectorDb, chainId: number, platform: NonNullable<SeedConnectorOptions["platform"]>, now: Date,
): Promise<boolean> {
  const { box, ...wanted } = platform;
  return linkPlatformIfUnlinked(db, box, { chainId, ...wanted }, now);
}
