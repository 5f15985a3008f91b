/**
 * `POST /rest/V1/service/customer/authenticate` (spec, "Webshop connector endpoints"): checks a
 * customer's email and password the way Magento's AccountManagement::authenticate does.
 *
 * Expected outcomes are values (`authenticated: false` with a message, HTTP 200); only a bad
 * request or an unconfigured chain throws. An unknown email, a wrong password and an account
 * locked from the client address get one answer after the same work. Magento's lockout rule
 * counts per customer and client address (customer-throttle.ts), so failures relayed from other
 * addresses never lock the owner out; Magento's per-account columns (failures_num, first_failure,
 * lock_expires) are the shop's own: authenticate neither writes failures into them nor refuses
 * by them, and clears them on a success as Magento's login does. After a success with a hash in
 * an older format, the password is re-hashed in the current one (Magento's
 * UpgradeCustomerPasswordObserver).
 * Every attempt is also counted against the client address (address-throttle.ts): an address
 * that failed too often is refused with 429 before any account is checked; a failed answer
 * counts as a failure there, a success or an error (no answer) does not.
 */
import type { AuthenticateRequest, AuthenticateResponse } from "@service/shared/connector";
import { eq, sql } from "drizzle-orm";
import { mayHaveApplied, runStatement } from "@service/shared/node";
import type { ConnectorDb } from "../db/client.ts";
import type { ChainWebsite } from "../http/auth.ts";
import { customerEntity } from "../db/schema.ts";
import { tooManyAttempts } from "../http/errors.ts";
import { addressAttemptAbandoned, addressAttemptFailed, addressCountAbandoned, addressVerdict, countAddressAttempt } from "./address-throttle.ts";
import {
  beginCustomerAttempt, customerAttemptAbandoned, customerAttemptFailed, customerAttemptSucceeded, pruneAfterSuccess, type CustomerAttempt,
} from "./customer-throttle.ts";
import { needsReset, UNLOCKED, type LockoutState } from "./lockout.ts";
import { hashMagentoPassword, isCurrentHashFormat, verifyMagentoPassword } from "./magento-password.ts";
import { readCounterAndLoginCustomer, type LoginCustomer } from "./login-customer.ts";
import { lockoutPolicyOf, resolveChainScope, type StoreInPath } from "./store-scope.ts";

/**
 * Magento's messages (Customer module). Magento's "The account is locked..." is not used: a locked
 * account is answered like a wrong password, so the answer never tells which accounts exist.
 */
export const AUTH_MESSAGES = {
  invalid: "Invalid login or password.",
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
 * @param deps.verifyPassword checks a password against a stored hash (default verifyMagentoPassword)
 * @param deps.store the store the path names, if any: the customer is looked up in its scope
 * @param clientAddress the client's address (null when unknown): counted in the per-address limit
 *   and in the lockout of the customer from that address
 * @throws ConnectorError 400 for an unconfigured chain or a missing chain id with several chains;
 *   429 with Retry-After while the address is locked after ADDRESS_LIMIT failures
 */
export async function authenticateCustomer(
  deps: AuthenticateDeps,
  request: AuthenticateRequest,
  clientAddress: string | null,
): Promise<AuthenticateResponse> {
  const { db } = deps;
  const scope = await resolveChainScope(db, request.service_chain_id, deps.store, deps.chainWebsites);
  const startedAt = deps.clock();
  // The attempt counted against the address, then its counter read back with the customer (one
  // statement); the customer is looked at only once the address may go on.
  const addressHash = await countAddressAttempt(db, clientAddress, startedAt);
  const { counter, customer } = await readCounterAndLoginCustomer(db, addressHash, request.email, scope.websiteIds).catch(async (err: unknown) => {
    // No answer: the attempt counts as nothing (best effort, as below).
    await addressCountAbandoned(db, addressHash, startedAt).catch(() => undefined);
    throw err;
  });
  const attempt = await addressVerdict(db, addressHash, counter, startedAt);
  if (attempt.refused) throw tooManyAttempts(attempt.retryAfterMs);
  let checked: Checked;
  try {
    checked = await checkCredentials(deps, request, customer, clientAddress);
  } catch (err) {
    // No answer (the database failed under the check): the attempt counts as nothing. Best
    // effort: with the database gone this fails too, and the window clears it.
    await addressAttemptAbandoned(db, attempt).catch(() => undefined);
    throw err;
  }
  if ("refusal" in checked) {
    await addressAttemptFailed(db, attempt, startedAt);
    return checked.refusal;
  }
  const now = deps.clock();
  const abandonBoth = async () => {
    await customerAttemptAbandoned(db, checked.attempt).catch(() => undefined);
    await addressAttemptAbandoned(db, attempt).catch(() => undefined);
  };
  let result: AuthenticateResponse;
  try {
    result = await authenticated(db, request, checked.customer);
  } catch (err) {
    // No answer: neither attempt counts (best effort, as above).
    await abandonBoth();
    throw err;
  }
  try {
    // Both attempts settled by one statement.
    await customerAttemptSucceeded(db, checked.attempt, attempt);
  } catch (err) {
    // Taken back only when the settle surely did not apply: taking back a settled attempt would
    // take back another one's. One that may have applied is left to the counters' windows.
    if (!mayHaveApplied(err)) await abandonBoth();
    throw err;
  }
  // Housekeeping, best effort: a prune that fails (the database gone, the deadline reached) is left
  // to the next one, and the login it follows stands.
  await pruneAfterSuccess(db, checked.attempt, now).catch(() => undefined);
  return result;
}

/** Checks a password against a stored Magento hash (magento-password.ts verifyMagentoPassword; tests count its calls). */
export type PasswordVerifier = (password: string, stored: string | null | undefined) => Promise<boolean>;

/** What authenticate works with. */
export interface AuthenticateDeps {
  db: ConnectorDb;
  clock: () => Date;
  /** default verifyMagentoPassword */
  verifyPassword?: PasswordVerifier;
  /** the store the path names, if any: the customer is looked up in its scope */
  store?: StoreInPath | null;
  /** the chains' websites read with the request's token (http/auth.ts chainWebsitesOf); read again when absent */
  chainWebsites?: readonly ChainWebsite[];
}

// Verified against when there is no account to check (unknown, or locked from this address), so
// that every refusal costs one password check, as a wrong password does.
let dummyHash: Promise<string> | undefined;
const dummy = () => (dummyHash ??= hashMagentoPassword("no account: a password checked for the time it takes"));

/**
 * What checkCredentials found: a refusal to answer with (its attempt on the pair settled), or the
 * customer whose password was right, with the pair's attempt still to settle.
 */
type Checked = { refusal: AuthenticateResponse } | { customer: LoginCustomer; attempt: CustomerAttempt };

/**
 * The customer's email and password checked against the account (`customer`: the one with this
 * email, null when there is none). Unknown, wrong and locked are one
 * refusal (`Invalid login or password.`) after the same work: one password verified, against a
 * dummy hash when there is no account or it is locked from this address. The lock is counted per
 * customer and client address (customer-throttle.ts). The right password on an inactive account
 * is refused with `This account is not active.`, its attempt taken back.
 */
async function checkCredentials(
  deps: AuthenticateDeps,
  request: AuthenticateRequest,
  customer: LoginCustomer | null,
  clientAddress: string | null,
): Promise<Checked> {
  const { db } = deps;
  const verify = deps.verifyPassword ?? verifyMagentoPassword;
  if (!customer) {
    await verify(request.password, await dummy());
    return { refusal: failure(AUTH_MESSAGES.invalid) };
  }
  // The lockout settings came with the customer (login-customer.ts LoginCustomer): no statement of their own.
  const { locked, attempt } = await beginCustomerAttempt(db, customer.entityId, clientAddress, lockoutPolicyOf(customer), deps.clock());
  if (locked) {
    await verify(request.password, await dummy());
    return { refusal: failure(AUTH_MESSAGES.invalid) };
  }
  try {
    if (!(await verify(request.password, customer.passwordHash))) {
      await customerAttemptFailed(db, attempt, deps.clock());
      return { refusal: failure(AUTH_MESSAGES.invalid) };
    }
  } catch (err) {
    await customerAttemptAbandoned(db, attempt).catch(() => undefined);
    throw err;
  }
  // The right password: not a failure, whatever comes next.
  if (customer.isActive === 0) {
    await customerAttemptAbandoned(db, attempt);
    return { refusal: failure(AUTH_MESSAGES.inactive) };
  }
  return { customer, attempt };
}

/**
 * A successful authenticate: Magento's own lockout columns cleared (as a login on the shop clears
 * them) and a hash in an older format re-hashed in the current one.
 */
async function authenticated(db: ConnectorDb, request: AuthenticateRequest, customer: LoginCustomer): Promise<AuthenticateResponse> {
  const changes: Partial<typeof customerEntity.$inferInsert> = needsReset(lockState(customer)) ? { ...UNLOCKED } : {};
  if (!isCurrentHashFormat(customer.passwordHash)) changes.passwordHash = await hashMagentoPassword(request.password);
  if (Object.keys(changes).length > 0) {
    await runStatement(() => db.update(customerEntity).set({ ...changes, ...KEEP_UPDATED_AT }).where(eq(customerEntity.entityId, customer.entityId)));
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
