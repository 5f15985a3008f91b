/**
 * What the login paths share (auth/login.ts: admins and shoppers with the platform's passwords;
 * auth/webshop-login.ts: shoppers of a chain whose authentication point is a webshop): a login's
 * outcome before the brute-force throttle (auth/throttle.ts) has its say, and what a shopper's
 * attempt is counted against.
 */
import { and, eq } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { users } from "../db/schema.ts";
import type { ServiceError } from "../http/service-error.ts";
import type { SessionInfo } from "./sessions.ts";
import type { ThrottleKeys } from "./throttle.ts";

/** The description of every refused shopper login (no_valid_session, 6): nothing tells the reasons apart. */
export const BAD_CREDENTIALS = "Invalid username or password.";

/**
 * Open a session, or refuse with `error`. A refusal counts as a failed attempt unless `counted`
 * is false: the credentials were never checked (the webshop that checks them could not be asked)
 * or were right, so the attempt is taken back. `retryAfterSeconds` is sent as Retry-After.
 */
export type LoginVerdict =
  | { ok: true; open: () => Promise<SessionInfo> }
  | { ok: false; error: ServiceError; counted?: boolean; retryAfterSeconds?: number };

/** A login path: what the attempt is counted against, and its check (run once the throttle lets it). */
export interface LoginPath {
  keys: ThrottleKeys;
  check: () => Promise<LoginVerdict>;
}

/** A username as the counter of an unknown account sees it (the column's collation ignores case). */
export function foldUsername(username: string): string {
  return username.normalize("NFKC").toLowerCase();
}

/**
 * The shopper of chain `chainId` with `username`, and the throttle keys of an attempt on it: a
 * known account is counted by id (spellings the collation equates share a counter), an unknown
 * one by its folded name.
 */
export async function shopperAttempt(db: CoreDb, chainId: number, username: string, clientIp: string | null):
  Promise<{ user: typeof users.$inferSelect | null; keys: ThrottleKeys }> {
  const [user] = await db.select().from(users).where(and(eq(users.chainId, chainId), eq(users.username, username))).limit(1);
  return {
    user: user ?? null,
    keys: { account: user ? `user:${user.id}` : `user-name:${chainId}:${foldUsername(username)}`, address: clientIp },
  };
}
