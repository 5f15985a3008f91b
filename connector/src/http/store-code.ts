/**
 * Magento's store code in a REST path: `/rest/<store code>/V1/...` besides `/rest/V1/...`
 * (Magento's Webapi PathProcessor). The code names a store view, and the request works in that
 * store's scope, as Magento's current store:
 *
 * - `all` is Magento's alias for every store (the admin scope): the request works as without a
 *   code.
 * - Any other code must name a store view (`store.code`), else 404 in Magento's words for an
 *   unknown store.
 * - A new customer is created in that store and its website unless the request names a
 *   `website_code` or `store_code` of its own (routes/customer.ts).
 * - With per-website accounts (`customer/account_share/scope` 1, Magento's default) a customer is
 *   looked up in the store's website only (Magento reads a customer by email in the current
 *   website); with global accounts, in every website of the chain.
 */
import { eq } from "drizzle-orm";
import type { RequestHandler, Response } from "express";
import type { ConnectorQueryable } from "../db/client.ts";
import { store, storeWebsite } from "../db/schema.ts";
import { readStoreConfig } from "../customers/store-scope.ts";
import { ConnectorError } from "./errors.ts";
import { noteMountPattern } from "./matched-route.ts";

/** Magento's store-code alias for every store (Magento\Webapi\Controller\PathProcessor::ALL_STORE_CODE). */
export const ALL_STORE_CODE = "all";

/** Magento's message for a store code no store has (StoreRepository::get). */
export const UNKNOWN_STORE_MESSAGE = "The store that was requested wasn't found. Verify the store and try again.";

/** The store view a request's path names, and what its scope narrows. */
export interface PathStore {
  /** the store view's code, as in the path */
  code: string;
  storeId: number;
  websiteId: number;
  websiteCode: string;
  /** whether customers are looked up in this store's website only (per-website accounts) */
  narrowsLookups: boolean;
}

/**
 * Middleware for the routes mounted under `/rest/:storeCode/V1/...`: resolves the code and keeps
 * the store in `res.locals.store` (read it with {@link pathStoreOf}). No code, or `all`: no store.
 * @param mountPattern the pattern the routes are mounted at: the request log and the metrics name
 *   the route by it, never by the code a request sent
 * @throws ConnectorError 404 `The store that was requested wasn't found. Verify the store and try again.`
 *   for a code no store view has
 */
export function storeFromPath(db: ConnectorQueryable, mountPattern: string): RequestHandler {
  return async (req, res, next) => {
    const code = (req.params as Record<string, string | undefined>).storeCode;
    if (code !== undefined) noteMountPattern(req, mountPattern);
    if (code === undefined || code === ALL_STORE_CODE) return next();
    const [row] = await db
      .select({ storeId: store.storeId, websiteId: store.websiteId, websiteCode: storeWebsite.code })
      .from(store)
      .innerJoin(storeWebsite, eq(storeWebsite.websiteId, store.websiteId))
      .where(eq(store.code, code))
      .limit(1);
    // store_id 0 is the admin store: Magento's path processor does not take its code either.
    if (!row || row.storeId === 0) throw new ConnectorError(404, UNKNOWN_STORE_MESSAGE);
    const config = await readStoreConfig(db);
    const found: PathStore = { code, storeId: row.storeId, websiteId: row.websiteId, websiteCode: row.websiteCode, narrowsLookups: config.accountShareScope === 1 };
    res.locals.store = found;
    next();
  };
}

/** The store the request's path named (storeFromPath), or null. */
export function pathStoreOf(res: Response): PathStore | null {
  return (res.locals.store as PathStore | undefined) ?? null;
}
