/**
 * Which part of the shop a connector request works on: the service chain (spec, "Webshop
 * connector endpoints": `service_chain_id` is required when several chains are configured), the
 * websites configured for it, Magento's account sharing scope and lockout settings
 * (core_config_data), and the website / store a new customer is created in.
 */
import { and, asc, eq, inArray, ne } from "drizzle-orm";
import type { ConnectorQueryable } from "../db/client.ts";
import { preparedFor } from "../db/prepared.ts";
import { coreConfigData, customerGroup, serviceChainWebsite, store, storeGroup, storeWebsite } from "../db/schema.ts";
import type { ChainWebsite } from "../http/auth.ts";
import { badRequest, requiredField } from "../http/errors.ts";

/** Magento config paths the connector reads (scope `default`). */
export const CONFIG_PATHS = {
  accountShareScope: "customer/account_share/scope",
  lockoutFailures: "customer/password/lockout_failures",
  lockoutThreshold: "customer/password/lockout_threshold",
} as const;

export interface StoreConfig {
  /** 0: an email is unique in the whole shop; 1: unique per website (Magento's default) */
  accountShareScope: 0 | 1;
  /** failures that lock an account; 0 disables lockout */
  lockoutFailures: number;
  /** minutes: the failure window and the lock's length; 0 disables lockout */
  lockoutThresholdMinutes: number;
}

/** The chain a request works on and its websites. */
export interface ChainScope {
  chainId: number | null;
  /** website ids of the chain; null = every website (no chain configured at all) */
  websiteIds: number[] | null;
}

/** Reads the store configuration, with Magento's defaults for missing or malformed values. */
export async function readStoreConfig(db: ConnectorQueryable): Promise<StoreConfig> {
  const rows = await db
    .select({ path: coreConfigData.path, value: coreConfigData.value })
    .from(coreConfigData)
    .where(and(eq(coreConfigData.scope, "default"), eq(coreConfigData.scopeId, 0),
      inArray(coreConfigData.path, Object.values(CONFIG_PATHS))));
  const value = (path: string) => rows.find((r) => r.path === path)?.value;
  return {
    accountShareScope: configNumber(value(CONFIG_PATHS.accountShareScope), 1) === 0 ? 0 : 1,
    ...lockoutPolicyOf({ lockoutFailuresValue: value(CONFIG_PATHS.lockoutFailures), lockoutThresholdValue: value(CONFIG_PATHS.lockoutThreshold) }),
  };
}

/** A stored config value as a whole number >= 0, or `fallback` when it is missing or malformed (Magento's default). */
function configNumber(raw: string | null | undefined, fallback: number): number {
  const n = raw == null || raw.trim() === "" ? NaN : Number(raw);
  return Number.isInteger(n) && n >= 0 ? n : fallback;
}

/**
 * Magento's lockout settings from their stored values (`customer/password/lockout_failures` and
 * `lockout_threshold`, as readStoreConfig reads them or as they come with the customer that
 * authenticate reads: login-customer.ts LoginCustomer), with Magento's defaults (10 and 10) for
 * missing or malformed values.
 */
export function lockoutPolicyOf(values: { lockoutFailuresValue?: string | null; lockoutThresholdValue?: string | null }): Pick<StoreConfig, "lockoutFailures" | "lockoutThresholdMinutes"> {
  return {
    lockoutFailures: configNumber(values.lockoutFailuresValue, 10),
    lockoutThresholdMinutes: configNumber(values.lockoutThresholdValue, 10),
  };
}

/** The store a request's path names (`/rest/<store code>/V1/...`, http/store-code.ts), as far as the chain scope needs it. */
export interface StoreInPath {
  websiteId: number;
  /** per-website accounts: customers are looked up in this store's website only */
  narrowsLookups: boolean;
}

/**
 * Resolves the chain of a request.
 * @param requested `service_chain_id` of the request, if any
 * @param store the store the path names, if any: with per-website accounts the chain's websites
 *   narrow to its website (none when the chain does not have it), as Magento reads a customer in
 *   the current store's website
 * @param chainWebsites the chains' websites as the request's token check read them (http/auth.ts
 *   chainWebsitesOf), ordered by website id; read here when not given
 * @throws ConnectorError 400 when the chain is not configured, or when none is given while
 *   several chains are configured
 */
export async function resolveChainScope(
  db: ConnectorQueryable, requested: number | null | undefined, store?: StoreInPath | null, chainWebsites?: readonly ChainWebsite[],
): Promise<ChainScope> {
  const scope = chainScopeOf(chainWebsites ?? await readChainWebsites(db), requested);
  if (!store?.narrowsLookups) return scope;
  return { chainId: scope.chainId, websiteIds: (scope.websiteIds ?? [store.websiteId]).filter((id) => id === store.websiteId) };
}

/** Every chain's websites, ordered by website id. */
const readChainWebsites = (db: ConnectorQueryable): Promise<ChainWebsite[]> =>
  preparedFor(db, "chain-websites", () => db.select().from(serviceChainWebsite).orderBy(asc(serviceChainWebsite.websiteId)).prepare()).execute();

function chainScopeOf(rows: readonly ChainWebsite[], requested: number | null | undefined): ChainScope {
  const chains = [...new Set(rows.map((r) => r.serviceChainId))];
  let chainId: number | null;
  if (requested != null) {
    if (!chains.includes(requested)) {
      throw badRequest("Service chain %chainId is not configured in this shop.", { chainId: requested });
    }
    chainId = requested;
  } else if (chains.length > 1) {
    throw requiredField("service_chain_id");
  } else {
    chainId = chains[0] ?? null;
  }
  if (chainId === null) return { chainId: null, websiteIds: null };
  return { chainId, websiteIds: rows.filter((r) => r.serviceChainId === chainId).map((r) => r.websiteId) };
}

/**
 * Reads by email without a chain id cannot tell customers apart when each website has its own
 * customers and the shop has several websites (spec, "Errors", webshop connector errors).
 * @throws ConnectorError 400 in that case
 */
export async function assertEmailUnambiguousWithoutChain(db: ConnectorQueryable, config: StoreConfig): Promise<void> {
  if (config.accountShareScope === 0) return;
  const websites = await db.select({ id: storeWebsite.websiteId }).from(storeWebsite).where(ne(storeWebsite.code, "admin"));
  if (websites.length > 1) {
    throw badRequest(
      "Customers are shared per website and this shop has several websites: give %fieldName to read a customer by email.",
      { fieldName: "service_chain_id" },
    );
  }
}

/** Where a new customer goes. */
export interface NewCustomerTarget {
  websiteId: number;
  storeId: number;
  /** store view name, written to customer_entity.created_in */
  storeName: string;
  groupId: number;
}

/**
 * Picks the website and store of a new customer (spec: website_code and store_code apply only to
 * newly created customers; with a chain the website must be configured for it).
 * Without website_code: the chain's first website (the default website when no chain is set up).
 * Without store_code: the website's default store view.
 * @throws ConnectorError 400 for an unknown website / store, a website of another chain, or a
 *   store outside the website
 */
export async function resolveNewCustomerTarget(
  db: ConnectorQueryable,
  scope: ChainScope,
  websiteCode: string | null | undefined,
  storeCode: string | null | undefined,
): Promise<NewCustomerTarget> {
  let website: typeof storeWebsite.$inferSelect | undefined;
  if (websiteCode) {
    [website] = await db.select().from(storeWebsite).where(eq(storeWebsite.code, websiteCode));
    if (!website) throw badRequest('The website with code "%websiteCode" does not exist.', { websiteCode });
    if (scope.websiteIds && !scope.websiteIds.includes(website.websiteId)) {
      throw badRequest('Website "%websiteCode" is not configured for service chain %chainId.',
        { websiteCode, chainId: scope.chainId ?? 0 });
    }
  } else {
    const candidates = scope.websiteIds
      ? await db.select().from(storeWebsite).where(inArray(storeWebsite.websiteId, scope.websiteIds))
      : await db.select().from(storeWebsite).where(ne(storeWebsite.code, "admin"));
    website = candidates.sort((a, b) => (b.isDefault ?? 0) - (a.isDefault ?? 0) || a.websiteId - b.websiteId)[0];
    if (!website) throw badRequest("No website is configured for this shop.");
  }

  let view: typeof store.$inferSelect | undefined;
  if (storeCode) {
    [view] = await db.select().from(store).where(eq(store.code, storeCode));
    if (!view) throw badRequest('The store with code "%storeCode" does not exist.', { storeCode });
    if (view.websiteId !== website.websiteId) {
      throw badRequest('Store "%storeCode" does not belong to website "%websiteCode".',
        { storeCode, websiteCode: website.code });
    }
  } else {
    const [group] = await db.select().from(storeGroup).where(eq(storeGroup.groupId, website.defaultGroupId));
    if (group) [view] = await db.select().from(store).where(eq(store.storeId, group.defaultStoreId));
    view ??= (await db.select().from(store).where(eq(store.websiteId, website.websiteId)).orderBy(asc(store.storeId)))[0];
    if (!view) throw badRequest('Website "%websiteCode" has no store view.', { websiteCode: website.code });
  }

  const [general] = await db.select().from(customerGroup).where(eq(customerGroup.customerGroupCode, "General"));
  return { websiteId: website.websiteId, storeId: view.storeId, storeName: view.name, groupId: general?.customerGroupId ?? 1 };
}
