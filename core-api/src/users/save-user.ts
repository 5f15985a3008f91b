/**
 * The write of add-user and alter-user: one transaction per attempt, so a refused request writes
 * nothing (no user, no member-number counter step, no referral link).
 *
 * add-user (spec, "Existing-user rule"): the users of the chain with the request's username,
 * member_number or authentication_point_identifier are looked up; several are
 * too_many_duplicate_objects (409); one is user_already_exists (400) unless update_if_exists,
 * which updates it; none: a new user, with the next generated member number when none was given
 * (users/member-numbers.ts), a dummy username when none was given (users/dummy-username.ts), a
 * referral code and its signup channel. Two requests racing for the same username, member number
 * or authentication point identifier meet at the unique index: the loser starts over and then
 * finds the winner's user (so update_if_exists updates it, and without it the answer is
 * user_already_exists). A deadlock between two such requests, like any conflict, is retried by
 * the transaction runner (@service/shared/node).
 * With `unmodifiedSince` (add-user's if_unmodified_since) the user found is updated only when its
 * last_modified_date is not later than that moment; otherwise nothing is written and the stored
 * user is the answer (`preconditionFailed`). Check and write are one: when the user as read is not
 * later, its UPDATE is optimistic, written only while the row still holds every value read
 * (users/user-repository.ts updateUser), so the one statement checks and writes, and what was
 * planned from the row (phone status, referral code) holds for what is written. When that matches
 * nothing (a write committed in between), or the user as read is later already, the row is locked
 * and read again (SELECT ... FOR UPDATE), and checked and written under the lock. Either way, of two
 * conditional writers racing with the same moment one updates and the other sees the first's
 * change. When the user found is gone by the time it is locked (deleted by a transaction that
 * committed in between), the request lost a race and starts over: a fresh lookup then finds the
 * users as they are now (none: a new user, as for any request without a match; the snapshot of
 * the first attempt would still count the vanished user, say as a phone number's other holder).
 * A member number the references left unchecked (resolveUserReferences' memberNumberInWrite) is
 * checked right after the lookup, before its refusals: a number the user found holds reads no
 * range (users/user-references.ts checkMemberNumber).
 *
 * alter-user: the user named by id is changed; a username, member number or authentication point
 * identifier another user of the chain has is user_already_exists.
 *
 * Both: the phone number by version with its status fields (users/phone-number.ts); from 1.6.3
 * `phone_number_duplicate` is whether another active user of the chain has the number; with the
 * chain's require_unique_phone_number a new number another active user has is
 * phone_number_already_exists (555), checked under a lock of that number's index range.
 */
import type { CoreDb } from "../db/client.ts";
import { ServiceError } from "../http/service-error.ts";
import { dummyUsername } from "./dummy-username.ts";
import { takeGeneratedNumber, type CoreTx } from "./member-numbers.ts";
import { newReferralCode } from "./referral-code.ts";
import { completeUserChanges, type UserChanges } from "./user-changes.ts";
import { checkMemberNumber, type UserReferences } from "./user-references.ts";
import {
  findUser,
  insertUser,
  lockUser,
  linkReferral,
  phoneNumberTaken,
  uniqueClash,
  updateUser,
  usersMatching,
  type UserColumns,
  type UserRow,
} from "./user-repository.ts";
import type { UserVersionRules } from "./version-rules.ts";
import { runTransaction } from "@service/shared/node";

/** Attempts of one write before a unique-index clash or a lost race is given up on. */
const ATTEMPTS = 8;

/** The chain settings a user write reads. */
export interface UserChain {
  id: number;
  dummyEmailDomain: string | null;
  requireUniquePhoneNumber: boolean;
}

/** What every user write takes. */
export interface UserWrite {
  chain: UserChain;
  changes: UserChanges;
  refs: UserReferences;
  rules: UserVersionRules;
  now: Date;
  /**
   * runs in the write's transaction once the user is stored (a new user or an update), before
   * the commit: what must happen together with the change or not at all (phone verification's
   * code and SMS delivery: users/phone-verification.ts; the platform -> webshop sync:
   * authentication-points/webshop-sync.ts); a throw rolls the whole write back
   */
  onSaved?: (tx: CoreTx, saved: UserRow, before: UserRow | null) => Promise<void>;
}

/** What add-user's write did. */
export interface AddedUser {
  /** the user as stored now */
  user: UserRow;
  /** false: an existing user was updated, or left alone (preconditionFailed) */
  created: boolean;
  /** the existing user was modified after `unmodifiedSince`: nothing was written */
  preconditionFailed: boolean;
}

/**
 * add-user's write (see the module comment).
 * @param signupChannel stored on a new user only
 * @param unmodifiedSince with updateIfExists: update an existing user only when its
 *   last_modified_date is not later than this (add-user's if_unmodified_since)
 * @returns the user as stored, whether it was created, and whether the condition kept an
 *   existing user as it was
 * @throws ServiceError too_many_duplicate_objects (409), user_already_exists (400),
 *   postalcode_invalid (278), invalid_phone_number (547), phone_number_already_exists (555),
 *   parameter_invalid (419) when the chain's generated ranges are used up or the user updated
 *   would refer themselves
 */
export async function saveAddedUser(
  db: CoreDb,
  w: UserWrite & { updateIfExists: boolean; signupChannel: string | null; unmodifiedSince?: Date },
): Promise<AddedUser> {
  const keys = {
    ...(w.changes.username ? { username: w.changes.username } : {}),
    ...(w.changes.memberNumber ? { memberNumber: w.changes.memberNumber } : {}),
    ...(w.changes.columns.authenticationPointIdentifier ? { authenticationPointIdentifier: w.changes.columns.authenticationPointIdentifier } : {}),
  };
  return attempt(async () =>
    runTransaction(db, async (tx) => {
      const found = await usersMatching(tx, w.chain.id, keys);
      const write = await withMemberNumberChecked(tx, w, found);
      if (found.length > 1) throw new ServiceError("too_many_duplicate_objects", `${found.length} users of the chain have this username, member_number or authentication_point_identifier.`);
      const existing = found[0] ?? null;
      if (existing && !w.updateIfExists) throw new ServiceError("user_already_exists");
      if (!existing) return { user: await create(tx, write, w.signupChannel), created: true, preconditionFailed: false };
      if (!w.unmodifiedSince) return { user: (await update(tx, write, existing))!, created: false, preconditionFailed: false };
      return conditionalUpdate(tx, write, existing, w.unmodifiedSince);
    }),
  );
}

/**
 * `w` with its member number checked, when the references left it to the write (module comment).
 * @param found the users the write's lookup found
 * @throws ServiceError parameter_invalid (419) for a number no user holds that lies in no live range
 */
async function withMemberNumberChecked(tx: CoreTx, w: UserWrite, found: readonly UserRow[]): Promise<UserWrite> {
  const number = w.changes.memberNumber;
  if (!w.refs.memberNumberUnchecked || !number) return w;
  // The range's kind is wanted only to name a dummy username (create and update below).
  const needRange = found.length === 1 ? w.changes.username === null : !w.changes.username;
  const range = await checkMemberNumber(tx, w.chain.id, number, { holders: found, needRange });
  const { memberNumberUnchecked: _checked, ...refs } = w.refs;
  return { ...w, refs: range ? { ...refs, memberNumberRange: range } : refs };
}

/**
 * The update of `read` under add-user's if_unmodified_since `since` (module comment): optimistic
 * when `read` is not later than `since`; else, or when the row changed since it was read, under
 * the row's lock.
 * @throws LostRace when the user is gone by the time it is locked; ServiceError as update
 */
async function conditionalUpdate(tx: CoreTx, w: UserWrite, read: UserRow, since: Date): Promise<AddedUser> {
  if (read.lastModifiedDate.getTime() <= since.getTime()) {
    const user = await update(tx, w, read, { optimistic: true });
    if (user) return { user, created: false, preconditionFailed: false };
  }
  // The latest committed row, locked: a racing writer waits here until this one commits.
  const latest = await lockUser(tx, w.chain.id, read.id);
  if (!latest) throw new LostRace();
  if (latest.lastModifiedDate.getTime() > since.getTime()) {
    // Only the write is skipped: bad input is refused as the update would refuse it.
    refuseBadUpdate(w, latest);
    return { user: latest, created: false, preconditionFailed: true };
  }
  return { user: (await update(tx, w, latest))!, created: false, preconditionFailed: false };
}

/** The hooks of one write run in order, in its transaction (undefined ones left out). */
export function allOnSaved(...hooks: Array<UserWrite["onSaved"] | undefined>): UserWrite["onSaved"] {
  const present = hooks.filter((h): h is NonNullable<UserWrite["onSaved"]> => h !== undefined);
  if (present.length === 0) return undefined;
  return async (tx, saved, before) => {
    for (const hook of present) await hook(tx, saved, before);
  };
}

/**
 * alter-user's write: changes user `userId` of the chain.
 * @returns the user as stored, or null when the chain has no such user
 * @throws ServiceError user_already_exists (400) for a username, member number or authentication
 *   point identifier of another user; 278 / 547 / 555 as saveAddedUser
 */
export async function saveAlteredUser(db: CoreDb, w: UserWrite & { userId: number }): Promise<UserRow | null> {
  return attempt(async () =>
    runTransaction(db, async (tx) => {
      const stored = await findUser(tx, w.chain.id, { id: w.userId });
      if (!stored) return null;
      return update(tx, w, stored);
    }),
  { clashIsFinal: true });
}

/** The user a write found was gone when it came to lock it: the write starts over (see the module comment). */
class LostRace extends Error {
  constructor() {
    super("The user found was deleted before it could be locked.");
  }
}

/**
 * Runs `work`, again after a unique-index clash or a lost race (see the module comment); conflicts
 * of the engine (deadlocks and the like) are the transaction runner's to retry.
 */
async function attempt<T>(work: () => Promise<T>, opts: { clashIsFinal?: boolean } = {}): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await work();
    } catch (err) {
      const clash = uniqueClash(err);
      const retry = i < ATTEMPTS && (err instanceof LostRace || clash === "referralCode" || (clash !== null && !opts.clashIsFinal));
      if (retry) continue;
      if (clash !== null && clash !== "referralCode") throw new ServiceError("user_already_exists", `Another user of the chain has this ${clash === "username" ? "username" : clash === "memberNumber" ? "member_number" : "authentication_point_identifier"}.`);
      throw err;
    }
  }
}

async function create(tx: CoreTx, w: UserWrite, signupChannel: string | null): Promise<UserRow> {
  const columns = await columnsOf(tx, w, null);
  const customNumber = w.refs.memberNumberRange?.kind === "custom" ? (w.changes.memberNumber ?? null) : null;
  const username = w.changes.username || dummyUsername(w.chain.dummyEmailDomain, customNumber);
  // Taken last, so the range's row lock is held only for the insert.
  const memberNumber = w.changes.memberNumber || (await takeGeneratedNumber(tx, w.chain.id, w.now));
  const id = await insertUser(tx, w.chain.id, { ...columns, username, memberNumber, referralCode: newReferralCode(), signupChannel }, w.now);
  if (w.refs.referrer) await linkReferral(tx, w.chain.id, id, w.refs.referrer.id, w.now);
  const saved = (await findUser(tx, w.chain.id, { id }))!;
  await w.onSaved?.(tx, saved, null);
  return saved;
}

/**
 * The refusals of an update that need the stored user but not the database: the user's own
 * referral code (419), a postal code of another form than its country's (278), a phone number that
 * is none (547, by version).
 * @throws ServiceError parameter_invalid, postalcode_invalid, invalid_phone_number
 */
function refuseBadUpdate(w: UserWrite, stored: UserRow): void {
  // add-user learns which user it updates only here: its own referral code refers nobody.
  if (w.refs.referrer?.id === stored.id) throw new ServiceError("parameter_invalid", "referral_code is the user's own.");
  completeUserChanges(w.changes, stored, w.rules);
}

/**
 * Writes `w` over `stored` (the row as this transaction read it).
 * @param opts.optimistic written only while the row still holds `stored` (updateUser)
 * @returns the user as stored now; null when `optimistic` and the row changed (nothing written)
 */
async function update(tx: CoreTx, w: UserWrite, stored: UserRow, opts: { optimistic?: boolean } = {}): Promise<UserRow | null> {
  refuseBadUpdate(w, stored);
  const columns = await columnsOf(tx, w, stored);
  if (w.changes.username === null) {
    const customNumber = w.refs.memberNumberRange?.kind === "custom" ? (w.changes.memberNumber ?? null) : null;
    columns.username = dummyUsername(w.chain.dummyEmailDomain, customNumber);
  }
  if (stored.referralCode === null) columns.referralCode = newReferralCode();
  const written = await updateUser(tx, w.chain.id, stored.id, columns, w.now, opts.optimistic ? stored : undefined);
  if (!written && opts.optimistic) return null;
  if (w.refs.referrer) await linkReferral(tx, w.chain.id, stored.id, w.refs.referrer.id, w.now);
  const saved = (await findUser(tx, w.chain.id, { id: stored.id }))!;
  await w.onSaved?.(tx, saved, stored);
  return saved;
}

/** The columns a write sets besides username, member number (on creation) and referral code. */
async function columnsOf(tx: CoreTx, w: UserWrite, stored: UserRow | null): Promise<UserColumns> {
  const { changes, refs } = w;
  const { phone } = completeUserChanges(changes, stored, w.rules);
  const columns: UserColumns = { ...changes.columns };
  if (changes.username) columns.username = changes.username;
  if (stored && changes.memberNumber !== undefined) columns.memberNumber = changes.memberNumber;
  if (refs.passwordHash !== undefined) columns.passwordHash = refs.passwordHash;
  if (refs.signupStoreId !== undefined) columns.signupStoreId = refs.signupStoreId;
  if (refs.homeStoreId !== undefined) columns.homeStoreId = refs.homeStoreId;
  if (phone) {
    let duplicate = phone.duplicate;
    const changed = phone.number !== (stored?.phoneNumber ?? null);
    if (phone.number !== null && (duplicate === "check" || (changed && w.chain.requireUniquePhoneNumber))) {
      const taken = await phoneNumberTaken(tx, w.chain.id, phone.number, stored?.id ?? null, w.chain.requireUniquePhoneNumber);
      if (taken && changed && w.chain.requireUniquePhoneNumber) {
        throw new ServiceError("phone_number_already_exists", `Another account of the chain has phone number ${phone.number}.`);
      }
      if (duplicate === "check") duplicate = taken;
    }
    Object.assign(columns, { phoneNumber: phone.number, phoneNumberStatus: phone.status, phoneNumberDuplicate: duplicate === "check" ? false : duplicate });
  }
  return columns;
}
