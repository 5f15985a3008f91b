/**
 * `POST /rest/V1/service/customer/authenticate` (spec, "Webshop connector endpoints"): checks a
 * customer's email and password the way Magento's AccountManagement::authenticate does.
 *
 * Expected outcomes are values (`authenticated: false` with a message, HTTP 200); only a bad
 * request or an unconfigured chain throws. A locked account fails even with the right password
 * and without counting another failure. After a success with a hash in an older format, the
 * password is re-hashed in the current one (Magento's UpgradeCustomerPasswordObserver).
 * Every attempt is also counted against the client address (address-throttle.ts): an address
 * that failed too often is refused with 429 before any account is looked at; a failed answer
 * counts as a failure there, a success or an error (no answer) does not.
 */
import type { AuthenticateRequest, AuthenticateResponse } from "@service/shared/connector";
import { eq, sql } from "drizzle-orm";
import type { ConnectorDb } from "../db/client.ts";
import { customerEntity } from "../db/schema.ts";
import { tooManyAttempts } from "../http/errors.ts";
import { addressAttemptAbandoned, addressAttemptFailed, addressAttemptSucceeded, beginAddressAttempt } from "./address-throttle.ts";
import { isLocked, needsReset, registerFailure, UNLOCKED, type LockoutState } from "./lockout.ts";
import { hashMagentoPassword, isCurrentHashFormat, verifyMagentoPassword } from "./magento-password.ts";
import { findLoginCustomer, type LoginCustomer } from "./repository.ts";
import { readStoreConfig, resolveChainScope, type StoreInPath } from "./store-scope.ts";

/** Magento's messages (Customer module). */
export const AUTH_MESSAGES = {
  invalid: "Invalid login or password.",
  locked: "The account is locked. Please wait and try again later.",
  inactive: "This account is not active.",
} as const;

const failure = (message: string): AuthenticateResponse =>
  ({ authenticated: false, customer_id: null, message, website_code: null, store_code: null });

/**
 * Lockout counters and a rehashed password are no profile change: `updated_at` keeps its value
 * (it would follow the row otherwise, ON UPDATE CURRENT_TIMESTAMP), so the sync's "newer change
 * wins" (sync/reconcile.ts) does not count a failed login as an edit.
 */
const KEEP_UPDATED_AT = { updatedAt: sql`${customerEntity.updatedAt}` } as const;

/**
 * Authenticates a customer of the request's chain.
 * When per-website accounts give several customers with this email in the chain's websites, the
 * one of the lowest website id is used (the chain's main website).
 * @param deps.clock the current time (lockout windows, the address counter)
 * @param deps.store the store the path names, if any: the customer is looked up in its scope
 * @param clientAddress the client's address (null when unknown): counted in the per-address limit
 * @throws ConnectorError 400 for an unconfigured chain or a missing chain id with several chains;
 *   429 with Retry-After while the address is locked after ADDRESS_LIMIT failures
 */
export async function authenticateCustomer(
  deps: { db: ConnectorDb; clock: () => Date; store?: StoreInPath | null },
  request: AuthenticateRequest,
  clientAddress: string | null,
): Promise<AuthenticateResponse> {
  const { db } = deps;
  const scope = await resolveChainScope(db, request.service_chain_id, deps.store);
  const startedAt = deps.clock();
  const attempt = await beginAddressAttempt(db, clientAddress, startedAt);
  if (attempt.refused) throw tooManyAttempts(attempt.retryAfterMs);
  let result: AuthenticateResponse;
  try {
    result = await checkCredentials(deps, request, scope.websiteIds);
  } catch (err) {
    // No answer (the database failed under the check): the attempt counts as nothing. Best
    // effort: with the database gone this fails too, and the window clears it.
    await addressAttemptAbandoned(db, attempt).catch(() => undefined);
    throw err;
  }
  if (result.authenticated) await addressAttemptSucceeded(db, attempt, startedAt);
  else await addressAttemptFailed(db, attempt, startedAt);
  return result;
}

/** The customer's email and password checked against the account (Magento's rules, lockout included). */
async function checkCredentials(
  deps: { db: ConnectorDb; clock: () => Date },
  request: AuthenticateRequest,
  websiteIds: number[] | null,
): Promise<AuthenticateResponse> {
  const { db } = deps;
  const customer = await findLoginCustomer(db, request.email, websiteIds);
  if (!customer) {
    // Hash anyway so that unknown emails take as long as known ones (no account enumeration).
    await hashMagentoPassword(request.password);
    return failure(AUTH_MESSAGES.invalid);
  }
  if (isLocked(lockState(customer), deps.clock())) return failure(AUTH_MESSAGES.locked);

  const valid = await verifyMagentoPassword(request.password, customer.passwordHash);
  if (!valid) {
    const policy = await readStoreConfig(db);
    const now = deps.clock();
    const after = await db.transaction(async (tx) => {
      // Lock the row: concurrent failures must each count.
      const [row] = await tx.select().from(customerEntity).where(eq(customerEntity.entityId, customer.entityId)).for("update");
      const next = registerFailure(lockState(row ?? customer), now, policy);
      await tx.update(customerEntity).set({ ...next, ...KEEP_UPDATED_AT }).where(eq(customerEntity.entityId, customer.entityId));
      return next;
    });
    return failure(isLocked(after, now) ? AUTH_MESSAGES.locked : AUTH_MESSAGES.invalid);
  }
  if (customer.isActive === 0) return failure(AUTH_MESSAGES.inactive);

  const changes: Partial<typeof customerEntity.$inferInsert> = needsReset(lockState(customer)) ? { ...UNLOCKED } : {};
  if (!isCurrentHashFormat(customer.passwordHash)) changes.passwordHash = await hashMagentoPassword(request.password);
  if (Object.keys(changes).length > 0) {
    await db.update(customerEntity).set({ ...changes, ...KEEP_UPDATED_AT }).where(eq(customerEntity.entityId, customer.entityId));
  }
  return {
    authenticated: true,
    customer_id: customer.entityId,
    message: null,
    website_code: customer.websiteCode,
    store_code: customer.storeCode,
  };
}

function lockState(row: Pick<LoginCustomer, "failuresNum" | "firstFailure" | "lockExpires">): LockoutState {
  return { failuresNum: row.failuresNum, firstFailure: row.firstFailure, lockExpires: row.lockExpires };
}
