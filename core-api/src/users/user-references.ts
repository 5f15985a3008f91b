/**
 * What a user write refers to, checked in the chain before anything is written (spec, "Internal
 * call: add-user"; handbook, "The user"): the signup store (store_id, else
 * branch_business_owner_code) and the home store must be live businesses of the chain; a
 * referral_code must be a code of another user of the chain; a given member_number must lie in
 * one of the chain's live ranges, unless a user of the chain already holds it (then it names that
 * user). Each failure is parameter_invalid (419). Also hashes a new
 * password (argon2id), so the write transaction stays short.
 */
import { canonicalReferralCode } from "@service/shared/internal/user-params";
import { hashPassword } from "../crypto/passwords.ts";
import { findBusinessById, findBusinessByOwnerCode } from "../businesses/business-repository.ts";
import type { CoreDb } from "../db/client.ts";
import { ServiceError } from "../http/service-error.ts";
import { liveMemberNumberRanges, type MemberNumberRangeRow } from "./member-number-range-repository.ts";
import { rangeOf, requireInRange } from "./member-numbers.ts";
import type { UserChanges } from "./user-changes.ts";
import { findUser, findUserByReferralCode, type UserRow } from "./user-repository.ts";

/** The request's references, resolved. A key is present exactly when the request gave it. */
export interface UserReferences {
  /** businesses.id of the signup store; null to clear */
  signupStoreId?: number | null;
  homeStoreId?: number | null;
  /** the owner of referral_code; null when sent empty */
  referrer?: UserRow | null;
  /** the range a given member_number lies in (absent for a number held outside every range) */
  memberNumberRange?: MemberNumberRangeRow;
  /** argon2id hash of the new password; null to clear */
  passwordHash?: string | null;
}

/**
 * Resolves and checks the references of `changes` in chain `chainId`.
 * @param selfId the user being changed (a user cannot refer themselves); null for a new user
 * @throws ServiceError parameter_invalid (419) for a store that is no live business of the chain,
 *   an unknown referral code or the user's own, or a member number in none of the chain's ranges
 */
export async function resolveUserReferences(db: CoreDb, chainId: number, changes: UserChanges, selfId: number | null): Promise<UserReferences> {
  const out: UserReferences = {};
  if (changes.signupStore) {
    out.signupStoreId = "storeId" in changes.signupStore
      ? await storeId(db, chainId, "store_id", changes.signupStore.storeId)
      : await storeByOwnerCode(db, chainId, changes.signupStore.ownerCode);
  }
  if (changes.homeStoreId !== undefined) out.homeStoreId = await storeId(db, chainId, "home_store_id", changes.homeStoreId);
  if (changes.referralCode !== undefined) {
    const referrer = changes.referralCode === null ? null : await findReferrer(db, chainId, changes.referralCode);
    if (changes.referralCode !== null && (!referrer || referrer.id === selfId)) {
      throw new ServiceError("parameter_invalid", "referral_code is no referral code of another user of the chain.");
    }
    out.referrer = referrer;
  }
  if (changes.memberNumber) {
    const ranges = await liveMemberNumberRanges(db, chainId);
    // A number a user of the chain already holds is that user's key (the existing-user rule, or
    // a clash), even when its range has gone since: re-sending it must not fail.
    const range = rangeOf(ranges, changes.memberNumber);
    if (range) out.memberNumberRange = range;
    else if (!(await findUser(db, chainId, { memberNumber: changes.memberNumber }))) requireInRange(ranges, changes.memberNumber);
  }
  if (changes.password !== undefined) out.passwordHash = changes.password === null ? null : await hashPassword(changes.password);
  return out;
}

async function storeId(db: CoreDb, chainId: number, name: string, id: number | null): Promise<number | null> {
  if (id === null) return null;
  if (!(await findBusinessById(db, chainId, id))) throw new ServiceError("parameter_invalid", `${name} ${id} is no live business of the chain.`);
  return id;
}

async function storeByOwnerCode(db: CoreDb, chainId: number, ownerCode: string | null): Promise<number | null> {
  if (ownerCode === null) return null;
  const business = await findBusinessByOwnerCode(db, chainId, ownerCode);
  if (!business) throw new ServiceError("parameter_invalid", `branch_business_owner_code ${ownerCode} names no live business of the chain.`);
  return business.id;
}

/**
 * The user of chain `chainId` a referral code names: today's form as a person types it (any case,
 * Crockford's reading of I, L, O, hyphens; canonicalReferralCode), else the code as given (codes
 * imported from older systems keep their own shape). Null when no user has it.
 */
export async function findReferrer(db: CoreDb, chainId: number, given: string): Promise<UserRow | null> {
  const canonical = canonicalReferralCode(given);
  const found = canonical === null ? null : await findUserByReferralCode(db, chainId, canonical);
  if (found || canonical === given) return found;
  return findUserByReferralCode(db, chainId, given);
}
