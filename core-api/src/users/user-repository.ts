/**
 * Storage of the users of a chain (spec, "Internal call: add-user"; handbook, "The user"). Every
 * query filters on the chain first. Uniqueness within a chain (username, member number,
 * authentication point identifier, referral code) is enforced by unique indexes, so two
 * concurrent writes cannot both pass; `uniqueClash` names the index a write ran into.
 */
import { and, eq, ne, or, sql, type SQL } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { isDuplicateKey } from "../db/duplicate-key.ts";
import { rowUnchanged } from "../db/row-unchanged.ts";
import { userReferrals, users } from "../db/schema.ts";
import type { CoreTx } from "./member-numbers.ts";

export type UserRow = typeof users.$inferSelect;
/** Column values of a user write (a key left out stays as it is). */
export type UserColumns = Partial<Omit<typeof users.$inferInsert, "id" | "chainId" | "createdDate" | "lastModifiedDate">>;

/** The unique indexes of users, by what they keep unique in a chain. */
export const USER_UNIQUE_INDEXES = {
  username: "users_unique_username_per_chain",
  memberNumber: "users_unique_member_number_per_chain",
  authenticationPointIdentifier: "users_unique_authentication_point_per_chain",
  referralCode: "users_unique_referral_code_per_chain",
} as const;

/**
 * The unique index of users a failed write ran into.
 * @returns which value clashed, or null when `err` is no duplicate-key error of users
 */
export function uniqueClash(err: unknown): keyof typeof USER_UNIQUE_INDEXES | null {
  for (const [what, index] of Object.entries(USER_UNIQUE_INDEXES)) if (isDuplicateKey(err, index)) return what as keyof typeof USER_UNIQUE_INDEXES;
  return null;
}

/** What identifies a user in a chain (spec: username, member_number, authentication_point_identifier). */
export interface UserKeys {
  username?: string;
  memberNumber?: string;
  authenticationPointIdentifier?: string;
}

/**
 * The users of chain `chainId` that any of `keys` names (add-user's existing-user rule).
 * @returns the distinct users, by id; empty when `keys` names nothing
 */
export async function usersMatching(db: CoreDb | CoreTx, chainId: number, keys: UserKeys): Promise<UserRow[]> {
  const match: SQL[] = [];
  if (keys.username) match.push(eq(users.username, keys.username));
  if (keys.memberNumber) match.push(eq(users.memberNumber, keys.memberNumber));
  if (keys.authenticationPointIdentifier) match.push(eq(users.authenticationPointIdentifier, keys.authenticationPointIdentifier));
  if (match.length === 0) return [];
  return db.select().from(users).where(and(eq(users.chainId, chainId), or(...match))).orderBy(users.id);
}

/**
 * One user of chain `chainId` by one key.
 * @returns the user, or null when none has it
 */
export async function findUser(db: CoreDb | CoreTx, chainId: number, by: { id: number } | Required<Pick<UserKeys, "username">> | Required<Pick<UserKeys, "memberNumber">> | Required<Pick<UserKeys, "authenticationPointIdentifier">>): Promise<UserRow | null> {
  const key = "id" in by ? eq(users.id, by.id)
    : "username" in by ? eq(users.username, by.username)
    : "memberNumber" in by ? eq(users.memberNumber, by.memberNumber)
    : eq(users.authenticationPointIdentifier, by.authenticationPointIdentifier);
  const [row] = await db.select().from(users).where(and(eq(users.chainId, chainId), key)).limit(1);
  return row ?? null;
}

/**
 * User `id` of chain `chainId`, read with a lock (SELECT ... FOR UPDATE by primary key): the
 * latest committed row, which no other write can change until the transaction ends (a
 * conditional update checks and writes under it: add-user's if_unmodified_since).
 * @returns the user, or null when the chain has no such user
 */
export async function lockUser(tx: CoreTx, chainId: number, id: number): Promise<UserRow | null> {
  const [row] = await tx.select().from(users).where(and(eq(users.id, id), eq(users.chainId, chainId))).limit(1).for("update");
  return row ?? null;
}

/**
 * The user `id` of any chain (the caller then checks the caller's access to its chain).
 * @returns the user, or null when no user has this id
 */
export async function findUserById(db: CoreDb, id: number): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

/**
 * The user of chain `chainId` whose referral code is `code` (canonical form).
 * @returns the user, or null when no user of the chain has it
 */
export async function findUserByReferralCode(db: CoreDb, chainId: number, code: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(and(eq(users.chainId, chainId), eq(users.referralCode, code))).limit(1);
  return row ?? null;
}

/**
 * Whether another active user of chain `chainId` has phone number `number`.
 * @param lock read with a lock (FOR UPDATE): the index range stays locked until the transaction
 *   ends, so a concurrent write of the same number waits (require_unique_phone_number)
 */
export async function phoneNumberTaken(tx: CoreTx, chainId: number, number: string, exceptUserId: number | null, lock: boolean): Promise<boolean> {
  const query = tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.chainId, chainId), eq(users.phoneNumber, number), eq(users.active, true), exceptUserId === null ? sql`true` : ne(users.id, exceptUserId)))
    .limit(1);
  const [row] = lock ? await query.for("update") : await query;
  return row !== undefined;
}

/** Inserts a user; returns its id. */
export async function insertUser(tx: CoreTx, chainId: number, values: UserColumns & { username: string }, now: Date): Promise<number> {
  const [res] = await tx.insert(users).values({ ...values, chainId, createdDate: now, lastModifiedDate: now });
  return Number(res.insertId);
}

/**
 * Updates user `id` of chain `chainId` with `changes` (and last_modified_date).
 * @param read with it, an optimistic update: only while the stored row still holds every value of
 *   `read` (db/row-unchanged.ts), so the one statement both checks and writes
 * @returns whether the row was written (false: no such user, or with `read` a row that changed since)
 */
export async function updateUser(tx: CoreTx, chainId: number, id: number, changes: UserColumns, now: Date, read?: UserRow): Promise<boolean> {
  // The row is found by its primary key alone (rowUnchanged: no secondary index, whose entry the
  // UPDATE would lock before the row).
  const [res] = await tx.update(users).set({ ...changes, lastModifiedDate: now })
    .where(rowUnchanged(users, { ...read, id, chainId }));
  // mysql2 counts the rows found, so a row written with the values it had counts too.
  return res.affectedRows > 0;
}

/**
 * Records that `referringUserId` referred `userId`, unless the user already has a referrer (the
 * first one stays).
 */
export async function linkReferral(tx: CoreTx, chainId: number, userId: number, referringUserId: number, now: Date): Promise<void> {
  // One statement: a concurrent link of the same user keeps whichever came first.
  await tx.insert(userReferrals).values({ chainId, userId, referringUserId, createdDate: now })
    .onDuplicateKeyUpdate({ set: { referringUserId: sql`${userReferrals.referringUserId}` } });
}
