/**
 * The three user info reads (spec, "Webshop connector endpoints"):
 * `GET /rest/V1/service/customer/user_info/:customerId`,
 * `GET .../user_info_by_email/:customerEmail` and `GET .../user_info_by_email/:serviceChainId/:customerEmail`.
 */
import type { UserInfoObject } from "@service/shared/connector";
import type { ConnectorQueryable } from "../db/client.ts";
import { noSuchEntity } from "../http/errors.ts";
import { userInfoObject } from "./mapping.ts";
import { findCustomersByEmail, loadCustomerBundle } from "./repository.ts";
import { assertEmailUnambiguousWithoutChain, readStoreConfig, resolveChainScope, type StoreInPath } from "./store-scope.ts";

/**
 * The user info object of a customer by id (customer ids are unique in the whole shop, so no
 * chain is needed).
 * @throws ConnectorError 404 `No such entity with %fieldName = %fieldValue` (fieldName customerId)
 */
export async function readUserInfoById(db: ConnectorQueryable, customerId: number): Promise<UserInfoObject> {
  const bundle = await loadCustomerBundle(db, customerId);
  if (!bundle) throw noSuchEntity("customerId", customerId);
  return userInfoObject(bundle);
}

/**
 * The user info object of a customer by email within a chain's websites.
 * @param chainId the path's chain id; null for the read without one
 * @param store the store the path names, if any: the customer is looked up in its scope
 * @throws ConnectorError 400 chain not configured, chain id missing with several chains, or
 *   (without chain id) per-website accounts on a shop with several websites;
 *   404 `No such entity with %fieldName = %fieldValue` (fieldName email)
 */
export async function readUserInfoByEmail(
  db: ConnectorQueryable, email: string, chainId: number | null, store: StoreInPath | null = null,
): Promise<UserInfoObject> {
  const scope = await resolveChainScope(db, chainId, store);
  // A store in the path names the website: the email is unambiguous then.
  if (chainId === null && !store?.narrowsLookups) await assertEmailUnambiguousWithoutChain(db, await readStoreConfig(db));
  // Per-website accounts may give one customer per website of the chain: its main (lowest id) website wins.
  const [customer] = await findCustomersByEmail(db, email, scope.websiteIds);
  const bundle = customer ? await loadCustomerBundle(db, customer.entityId) : null;
  if (!bundle) throw noSuchEntity("email", email);
  return userInfoObject(bundle);
}
