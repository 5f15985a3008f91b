/**
 * `POST /rest/V1/service/customer/update` (spec, "Webshop connector endpoints", update rules):
 * finds the customer a user_info describes, creates it when asked, writes the user_info onto it
 * and returns the webshop customer object. All writes run in one transaction: a failed request
 * changes nothing. Concurrent calls for one customer succeed one after another. A platform
 * user_info older than the platform state the shop already holds for that member (olderThanStored:
 * a delivery that arrives after a later one), or older than an unsynced change made in the shop
 * (keepNewerShopChange: the newer change wins), leaves the customer as it is.
 */
import type { Customer, UpdateCustomerRequest, UserInfoInput } from "@service/shared/connector";
import { userInfoHash } from "@service/shared/node";
import type { ConnectorDb, ConnectorQueryable } from "../db/client.ts";
import type { ChainWebsite } from "../http/auth.ts";
import { badRequest, ConnectorError, requiredField } from "../http/errors.ts";
import { hashMagentoPassword } from "./magento-password.ts";
import { customerObject } from "./customer-object.ts";
import {
  addressPatchFromUserInfo, birthdayToDob, customerPatchFromUserInfo, lastShopChange, parsePlatformDateTime,
  servicePatchFromUserInfo, userIdOf, userInfoObject, type CustomerBundle, type CustomerPatch, type CustomerRow, type ServicePatch,
} from "./mapping.ts";
import {
  emailTaken, findCustomerById, findCustomerIdByServiceKey, findCustomersByEmail, insertCustomer,
  linkedUserId, loadCustomerBundle, lockCustomer, saveDefaultAddress, saveServiceData, saveSubscription, setLastHash,
  syncSubscriberEmail, updateCustomer,
} from "./repository.ts";
import { readStoreConfig, resolveChainScope, resolveNewCustomerTarget, type ChainScope, type StoreInPath } from "./store-scope.ts";
import { runTransaction } from "@service/shared/node";

/** Which user_info key identified the customer. */
export type IdentifiedBy = "user_id" | "member_number" | "username" | "authentication_point_identifier";

/**
 * Finds the customer of a user_info: the first of user_id, member_number, username,
 * authentication_point_identifier that is present, non-empty and finds a customer of the chain.
 */
export async function identifyCustomer(
  db: ConnectorQueryable, scope: ChainScope & { chainId: number }, info: UserInfoInput,
): Promise<{ customer: CustomerRow; by: IdentifiedBy } | null> {
  const inChain = async (id: number | null) => (id === null ? null : findCustomerById(db, id, scope.websiteIds));
  const userId = userIdOf(info);
  if (userId !== null) {
    const customer = await inChain(await findCustomerIdByServiceKey(db, scope.chainId, { userId }));
    if (customer) return { customer, by: "user_id" };
  }
  const member = info.member_number?.trim();
  if (member) {
    const customer = await inChain(await findCustomerIdByServiceKey(db, scope.chainId, { memberNumber: member }));
    if (customer) return { customer, by: "member_number" };
  }
  const email = info.username?.trim();
  if (email) {
    // Per-website accounts may give one per website: the chain's main (lowest id) website wins.
    const [customer] = await findCustomersByEmail(db, email, scope.websiteIds);
    if (customer) return { customer, by: "username" };
  }
  const apid = info.authentication_point_identifier?.trim();
  if (apid && /^[1-9][0-9]{0,9}$/.test(apid)) {
    const customer = await inChain(Number(apid));
    if (customer) return { customer, by: "authentication_point_identifier" };
  }
  return null;
}

/**
 * Runs the update call.
 * @param deps.clock the current time (created_at / updated_at)
 * @param deps.store the store the path names, if any: the customer is looked up in its scope
 *   (store-scope.ts, resolveChainScope)
 * @param deps.chainWebsites the chains' websites read with the request's token (http/auth.ts); read again when absent
 * @returns the customer object after the update
 * @throws ConnectorError 400 (invalid data, chain not configured / missing, unknown website or
 *   store, email or member number already used), 404 `Customer not found`
 */
export async function updateCustomerFromUserInfo(
  deps: { db: ConnectorDb; clock: () => Date; store?: StoreInPath | null; chainWebsites?: readonly ChainWebsite[] },
  request: UpdateCustomerRequest,
): Promise<Customer> {
  const { db } = deps;
  const info = request.user_info;
  if (info.birthday && birthdayToDob(info.birthday) === undefined) {
    throw badRequest('Invalid value of "%value" provided for the %fieldName field.', { fieldName: "birthday", value: info.birthday });
  }
  const scope = await resolveChainScope(db, request.service_chain_id, deps.store, deps.chainWebsites);
  if (scope.chainId === null) throw badRequest("No service chain is configured in this shop.");
  const chainScope = { ...scope, chainId: scope.chainId };
  const config = await readStoreConfig(db);
  // Hash before the transaction: argon2 takes ~0.1 s and must not hold row locks meanwhile.
  const passwordHash = info.password ? await hashMagentoPassword(info.password) : undefined;
  const now = deps.clock();

  // "Update or create" under concurrency: two requests that both found no customer both insert; the
  // unique (email, website_id) index refuses the loser, which then runs again and finds the
  // winner's customer. Updates of one customer queue on its row lock (lockCustomer), and READ
  // COMMITTED lets each see what the one before it committed (REPEATABLE READ would keep the
  // snapshot of its first read and add a second address or subscription).
  for (let attempt = 1; ; attempt++) {
    let creating = false;
    try {
      return await runTransaction(db, async (tx) => {
        const found = await identifyCustomer(tx, chainScope, info);
        const patch = customerPatchFromUserInfo(info);
        let customerId: number;
        if (found) {
          customerId = found.customer.entityId;
          const current = (await lockCustomer(tx, customerId))!;
          const platformAt = parsePlatformDateTime(info.last_modified_date);
          if (platformAt) {
            const stored = (await loadCustomerBundle(tx, customerId))!;
            const kept = olderThanStored(stored, info, platformAt)
              ?? (await keepNewerShopChange(tx, stored, chainScope.chainId, info, platformAt, found.by, now));
            if (kept) return kept;
          }
          if (patch.email && patch.email !== current.email) {
            const websiteId = config.accountShareScope === 0 ? null : current.websiteId;
            if (await emailTaken(tx, patch.email, websiteId, customerId)) throw emailInUse();
            await syncSubscriberEmail(tx, customerId, patch.email);
          }
          await updateCustomer(tx, customerId, { ...patch, ...(passwordHash && { passwordHash }), updatedAt: now });
        } else {
          if (!request.create_if_not_exists) throw new ConnectorError(404, "Customer not found");
          creating = true;
          customerId = await createCustomer(tx, chainScope, request, patch, { passwordHash, accountShareScope: config.accountShareScope, now });
        }
        return await saveUserInfoParts(tx, customerId, chainScope.chainId, info, patch, found?.by ?? null, now);
      }, { transactionConfig: { isolationLevel: "read committed" } });
    } catch (err) {
      if (attempt < UPDATE_ATTEMPTS && lostRace(err, creating)) continue;
      throw duplicateToBadRequest(err);
    }
  }
}

/**
 * A stale delivery: a platform user_info whose `last_modified_date` is strictly older than the
 * `platform_modified_at` the shop already stored for the same member (the customer is linked to the
 * user_info's user_id) describes a state the platform has since changed again, so a later one was
 * applied first (a delivery retried, or two sent at once). The customer is left as it is and
 * nothing is written; the caller is answered the customer object (200), as for keepNewerShopChange.
 * Equal times still apply: the platform keeps whole seconds, so two changes within one second carry
 * the same time and the later delivery must win (the core API's outbox sends one member's
 * deliveries in commit order).
 * @param platformAt the user_info's last_modified_date
 * @returns the customer object as it stays, or null when the user_info is to be written
 */
function olderThanStored(stored: CustomerBundle, info: UserInfoInput, platformAt: Date): Customer | null {
  const service = stored.service;
  if (!service?.platformModifiedAt || service.userId === null || service.userId !== userIdOf(info)) return null;
  return platformAt.getTime() < service.platformModifiedAt.getTime() ? customerObject(stored) : null;
}

/**
 * The newer change wins (handbook, "Sync between the webshop and the platform"): a user_info
 * from the platform (it carries the member's `last_modified_date`) that is older than a change
 * made in the shop since the last sync (the customer's hash differs from its last_hash) does not
 * overwrite it; the reconcile sends the shop's version instead (sync/reconcile.ts). Only the
 * identifiers the update rules allow and the member's last_modified_date are stored then.
 * @param stored the customer as stored, locked (lockCustomer)
 * @param platformAt the user_info's last_modified_date
 * @returns the customer object as it stays, or null when the user_info is to be written
 */
async function keepNewerShopChange(
  tx: ConnectorQueryable, stored: CustomerBundle, chainId: number, info: UserInfoInput, platformAt: Date, by: IdentifiedBy, now: Date,
): Promise<Customer | null> {
  const customerId = stored.customer.entityId;
  const lastHash = stored.service?.lastHash;
  if (!lastHash || lastShopChange(stored) <= platformAt) return null;
  if (userInfoHash(userInfoObject(stored)) === lastHash) return null;
  const { userId, memberNumber } = identifierRules(servicePatchFromUserInfo(info), by, stored.service!.userId);
  await saveServiceData(tx, customerId, chainId, {
    ...(userId !== undefined && { userId }), ...(memberNumber !== undefined && { memberNumber }), platformModifiedAt: platformAt,
  }, now);
  return customerObject((await loadCustomerBundle(tx, customerId))!);
}

/**
 * Attempts of one update call: a create that loses to a concurrent create runs again as an
 * update; the spare attempts cover the new customer vanishing in between. Deadlocks and the like
 * are the transaction runner's to retry (@service/shared/node).
 */
const UPDATE_ATTEMPTS = 3;

/**
 * Whether a failed attempt only lost a race and is worth running again (its transaction was rolled
 * back): a duplicate key or a used email while creating (a concurrent request
 * created the customer, or linked the user_id / member_number, first; the next attempt finds and
 * updates it, and an email really used elsewhere is refused again). A duplicate key while updating
 * stands: it is an identifier or email that another customer really uses.
 */
function lostRace(err: unknown, creating: boolean): boolean {
  const code = driverErrorCode(err);
  // The email check of a create sees a customer committed after the look-up found none.
  const emailRefused = err instanceof ConnectorError && err.message === EMAIL_IN_USE;
  return creating && (code === "ER_DUP_ENTRY" || emailRefused);
}

/** The mysql2 error code of `err` or of the driver error drizzle wrapped in it. */
function driverErrorCode(err: unknown): string | undefined {
  const e = err as { code?: string; cause?: { code?: string } } | null;
  return e?.code ?? e?.cause?.code;
}

/**
 * Which identifiers an update may write (spec: when identified by username or
 * authentication_point_identifier, user_id and member_number are saved on the customer).
 * A new customer gets both too. Found by user_id: that user's member number is taken over (the
 * user is the stronger key). Found by member_number: a user_id is only filled in when the customer
 * has none, so one user's link is never moved to another.
 */
function identifierRules(patch: ServicePatch, by: IdentifiedBy | null, currentUserId: number | null): ServicePatch {
  if (by === null || by === "username" || by === "authentication_point_identifier") return patch;
  const { userId, ...rest } = patch;
  if (by === "user_id" || currentUserId !== null) return rest;
  return userId === undefined ? rest : { ...rest, userId };
}

const EMAIL_IN_USE = "A customer with the same email address already exists in an associated website.";

function emailInUse(): ConnectorError {
  return badRequest(EMAIL_IN_USE);
}

/** A unique index that fires despite the checks (a concurrent write, a member number in use) is a 400. */
function duplicateToBadRequest(err: unknown): unknown {
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause ?? (err as { code?: string; message?: string });
  if (cause?.code !== "ER_DUP_ENTRY") return err;
  if (cause.message?.includes("service_customer_by_chain_member_number")) {
    return badRequest('The %fieldName is already linked to another customer.', { fieldName: "member_number" });
  }
  if (cause.message?.includes("service_customer_by_chain_user")) {
    return badRequest('The %fieldName is already linked to another customer.', { fieldName: "user_id" });
  }
  return emailInUse();
}

/**
 * Inserts the customer_entity row of a customer `update` creates (create_if_not_exists), on the
 * website and store the request names (store-scope.ts resolveNewCustomerTarget).
 * @returns the new entity_id
 * @throws ConnectorError 400 when user_info has no username, or the email is taken in the account scope
 */
async function createCustomer(
  tx: ConnectorQueryable, chainScope: ChainScope & { chainId: number }, request: UpdateCustomerRequest, patch: CustomerPatch,
  write: { passwordHash: string | undefined; accountShareScope: number; now: Date },
): Promise<number> {
  if (!patch.email) throw requiredField("user_info.username");
  const target = await resolveNewCustomerTarget(tx, chainScope, request.website_code, request.store_code);
  const websiteId = write.accountShareScope === 0 ? null : target.websiteId;
  if (await emailTaken(tx, patch.email, websiteId)) throw emailInUse();
  return insertCustomer(tx, {
    ...patch,
    email: patch.email,
    websiteId: target.websiteId,
    storeId: target.storeId,
    groupId: target.groupId,
    createdIn: target.storeName,
    passwordHash: write.passwordHash ?? null,
    createdAt: write.now,
    updatedAt: write.now,
  });
}

/**
 * Writes the rest of a user_info onto customer `customerId` (its default address, subscription and
 * our data), then its last_hash: the hash of the user info object as the reads now return it
 * (@service/shared/node, user-info-hash.ts).
 * @param by the key that identified an existing customer (null: created now)
 * @returns the customer object after the update
 */
async function saveUserInfoParts(
  tx: ConnectorQueryable, customerId: number, chainId: number, info: UserInfoInput, patch: CustomerPatch, by: IdentifiedBy | null, now: Date,
): Promise<Customer> {
  const customer = (await findCustomerById(tx, customerId, null))!;
  const namesGiven = patch.firstname !== undefined || patch.lastname !== undefined;
  await saveDefaultAddress(tx, customer, (street) => addressPatchFromUserInfo(info, street) ?? (namesGiven ? {} : null), now);
  const servicePatch = identifierRules(servicePatchFromUserInfo(info), by, by ? await linkedUserId(tx, customerId) : null);
  if (servicePatch.mailingListSubscribed !== undefined) {
    await saveSubscription(tx, customer, servicePatch.mailingListSubscribed === true, now);
  }
  await saveServiceData(tx, customerId, chainId, servicePatch, now);
  const bundle = (await loadCustomerBundle(tx, customerId))!;
  const lastHash = userInfoHash(userInfoObject(bundle));
  await setLastHash(tx, customerId, lastHash);
  bundle.service = { ...bundle.service!, lastHash };
  return customerObject(bundle);
}
