/**
 * Operator task on the webshop store behind `npm run admin -- map-website`: serve a chain from a
 * Magento website. A website that does not exist yet is created the way Magento's admin creates
 * one (website, its store group, a store view), so a second tenant's shop needs no SQL. A website
 * serves at most one chain (handbook, "The Magento-compatible customer store"); a refusal is a
 * value with nothing written.
 */
import { eq } from "drizzle-orm";
import type { ConnectorDb } from "../../connector/src/db/client.ts";
import { serviceChainWebsite, store, storeGroup, storeWebsite } from "../../connector/src/db/schema.ts";
import { runTransaction } from "@service/shared/node";

/**
 * Magento's rule for website codes (letter first; letters, digits, underscore), kept to 26
 * characters so the store group code `<code>_store` fits Magento's 32.
 */
const WEBSITE_CODE = /^[a-z][a-z0-9_]{0,25}$/;

export interface WebsiteMapping {
  websiteId: number;
  /** whether the website (with its store group and store view) was created now */
  createdWebsite: boolean;
  /** false: the website already served this chain (nothing changed) */
  mapped: boolean;
}

/**
 * Maps website `websiteCode` to chain `chainId`, creating the website (named `websiteName`, default
 * the code) with store group `<code>_store` and store view `<code>` when it does not exist.
 * @returns what was done, or a refusal (malformed code, website serving another chain) with nothing written
 */
export async function mapWebsiteToChain(
  db: ConnectorDb,
  input: { chainId: number; websiteCode: string; websiteName?: string },
): Promise<{ ok: true; mapping: WebsiteMapping } | { ok: false; reason: string }> {
  const code = input.websiteCode.trim();
  if (!WEBSITE_CODE.test(code)) {
    return { ok: false, reason: `"${code}" is not a website code (a lowercase letter, then letters, digits or _, at most 26)` };
  }
  return runTransaction(db, async (tx) => {
    let [website] = await tx.select({ id: storeWebsite.websiteId }).from(storeWebsite).where(eq(storeWebsite.code, code)).for("update");
    let createdWebsite = false;
    if (!website) {
      const [viewTaken] = await tx.select({ id: store.storeId }).from(store).where(eq(store.code, code));
      const [groupTaken] = await tx.select({ id: storeGroup.groupId }).from(storeGroup).where(eq(storeGroup.code, `${code}_store`));
      if (viewTaken || groupTaken) {
        return { ok: false as const, reason: `a store ${viewTaken ? `view ${code}` : `group ${code}_store`} exists already: choose another website code` };
      }
      const name = input.websiteName?.trim() || code;
      const [created] = await tx.insert(storeWebsite).values({ code, name: name.slice(0, 64), sortOrder: 0, isDefault: 0 }).$returningId();
      const websiteId = created!.websiteId;
      const [group] = await tx.insert(storeGroup)
        .values({ websiteId, name: `${name} Store`.slice(0, 255), code: `${code}_store`, rootCategoryId: 2 }).$returningId();
      const [view] = await tx.insert(store)
        .values({ code, websiteId, groupId: group!.groupId, name: `${name} Store View`.slice(0, 255), isActive: 1 }).$returningId();
      await tx.update(storeGroup).set({ defaultStoreId: view!.storeId }).where(eq(storeGroup.groupId, group!.groupId));
      await tx.update(storeWebsite).set({ defaultGroupId: group!.groupId }).where(eq(storeWebsite.websiteId, websiteId));
      website = { id: websiteId };
      createdWebsite = true;
    }
    const [serving] = await tx.select().from(serviceChainWebsite).where(eq(serviceChainWebsite.websiteId, website.id));
    if (serving && serving.serviceChainId !== input.chainId) {
      return { ok: false as const, reason: `website ${code} already serves chain ${serving.serviceChainId}` };
    }
    if (!serving) await tx.insert(serviceChainWebsite).values({ serviceChainId: input.chainId, websiteId: website.id });
    return { ok: true as const, mapping: { websiteId: website.id, createdWebsite, mapped: !serving } };
  });
}
