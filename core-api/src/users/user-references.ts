/**
 * What a user write refers to, checked in the chain before anything is written (spec, "Internal
 * call: add-user"; handbook, "The user"): the signup store (store_id, else
 * branch_business_owner_code) and the home store must be live businesses of the chain; a
 * referral_code must be a code of another user of the chain; a given member_number must lie in
 * one of the chain's live ranges, unless a user of the chain already holds it (then it names that
 * user). Each failure is parameter_invalid (419). Also hashes a new
 * password (argon2id), so the write transaction stays short.
 * add-user leaves the member number to its write (users/save-user.ts), which finds the users the
 * request names anyway: a number the user updated already holds is then checked without reading
 * the ranges at all (checkMemberNumber).
 */
import { canonicalReferralCode } from "@service/shared/internal/user-params";
import { hashPassword } from "../crypto/passwords.ts";
import { findBusinessById, findBusinessByOwnerCode } from "../businesses/business-repository.ts";
import type { CoreDb } from "../db/client.ts";
import { ServiceError } from "../http/service-error.ts";
import { liveMemberNumberRanges, type MemberNumberRangeRow } from "./member-number-range-repository.ts";
import { rangeOf, requireInRange, type CoreTx } from "./member-numbers.ts";
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
  /** a member_number was given and left to the write to check (resolveUserReferences' `memberNumberInWrite`) */
  memberNumberUnchecked?: true;
  /** argon2id hash of the new password; null to clear */
  passwordHash?: string | null;
}

/**
 * Resolves and checks the references of `changes` in chain `chainId`.
 * @param selfId the user being changed (a user cannot refer themselves); null for a new user
 * @param opts.memberNumberInWrite a given member number is not checked here but marked
 *   `memberNumberUnchecked`: the caller's write checks it (saveAddedUser, with checkMemberNumber)
 * @throws ServiceError parameter_invalid (419) for a store that is no live business of the chain,
 *   an unknown referral code or the user's own, or a member number in none of the chain's ranges
 */
export async function resolveUserReferences(
  db: CoreDb, chainId: number, changes: UserChanges, selfId: number | null, opts: { memberNumberInWrite?: boolean } = {},
): Promise<UserReferences> {
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
  if (changes.memberNumber && opts.memberNumberInWrite) out.memberNumberUnchecked = true;
  else if (changes.memberNumber) {
    const range = await checkMemberNumber(db, chainId, changes.memberNumber, { holders: [], needRange: true });
    if (range) out.memberNumberRange = range;
  }
  if (changes.password !== undefined) out.passwordHash = changes.password === null ? null : await hashPassword(changes.password);
  return out;
}

/**
 * Checks a given member number: it must lie in one of the chain's live ranges, unless a user of the
 * chain already holds it. Such a number is that user's key (the existing-user rule, or a clash),
 * even when its range has gone since: re-sending it must not fail.
 * @param opts.holders users known to match the request (a write's lookup by its keys): when one
 *   holds the number, exactly as given, the ranges need not be read unless `needRange`
 * @param opts.needRange the range is wanted even for a held number (its kind names a dummy username)
 * @returns the live range the number lies in; undefined for a held number outside every range, or
 *   one of `holders` when the range was not wanted
 * @throws ServiceError parameter_invalid (419) for a number no user holds that lies in no live range
 */
export async function checkMemberNumber(
  db: CoreDb | CoreTx, chainId: number, number: string, opts: { holders: readonly UserRow[]; needRange: boolean },
): Promise<MemberNumberRangeRow | undefined> {
  const heldByHolder = opts.holders.some((u) => u.memberNumber === number);
  if (heldByHolder && !opts.needRange) return undefined;
  const ranges = await liveMemberNumberRanges(db, chainId);
  const range = rangeOf(ranges, number);
  if (range) return range;
  // The column's collation decides what "holds" means (the unique index's), not a byte comparison.
  if (!heldByHolder && !(await findUser(db, chainId, { memberNumber: number }))) requireInRange(ranges, number);
  return undefined;
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
