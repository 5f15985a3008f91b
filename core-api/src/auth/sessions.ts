/**
 * Login sessions (handbook, "admin login"): a random session key handed out once, stored as its
 * SHA-256, valid until `expires_at`. A request's session is checked with its chain access in one
 * query (auth/session-grant.ts). Expired sessions are deleted a batch at a time by each login
 * (deleteExpiredSessions).
 */
import { eq, lte } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { sessions } from "../db/schema.ts";
import { wholeSeconds } from "../db/whole-seconds.ts";
import { newSecret, sha256Hex } from "../crypto/secrets.ts";
import { runStatement } from "@service/shared/node";

export type SessionKind = "admin" | "end_user";

export interface SessionInfo {
  session_user_id: number;
  session_key: string;
  /** expiry as a Date; rendered per API version by the caller */
  expiry: Date;
}

/**
 * Creates a session for `userId`.
 * @param ttlMs lifetime in milliseconds
 * @param chainId chain of the app for end-user sessions; null for admins
 */
export async function createSession(
  db: CoreDb,
  kind: SessionKind,
  userId: number,
  now: Date,
  ttlMs: number,
  chainId: number | null = null,
): Promise<SessionInfo> {
  const key = newSecret();
  const expiry = wholeSeconds(new Date(now.getTime() + ttlMs));
  await runStatement(() => db.insert(sessions).values({ kind, userId, keyHash: sha256Hex(key), chainId, expiresAt: expiry, createdDate: now }));
  return { session_user_id: userId, session_key: key, expiry };
}

/** Ends the session with key `key` (logout); returns whether one was ended. */
export async function deleteSession(db: CoreDb, key: string): Promise<boolean> {
  const [res] = await runStatement(() => db.delete(sessions).where(eq(sessions.keyHash, sha256Hex(key))));
  return res.affectedRows > 0;
}

/** Expired sessions deleted by one call of deleteExpiredSessions at most. */
export const EXPIRED_SESSIONS_BATCH = 100;

/**
 * Deletes up to EXPIRED_SESSIONS_BATCH sessions that expired at or before `now` (nothing else ever
 * deleted them). Login calls it: sessions are only created by logins, so deleting a batch per login
 * keeps the table at the live sessions plus a backlog that only shrinks, with no job to schedule,
 * and one login never does unbounded work.
 * @returns how many were deleted
 */
export async function deleteExpiredSessions(db: CoreDb, now: Date): Promise<number> {
  const [res] = await runStatement(() => db.delete(sessions).where(lte(sessions.expiresAt, now)).limit(EXPIRED_SESSIONS_BATCH));
  return res.affectedRows;
}
