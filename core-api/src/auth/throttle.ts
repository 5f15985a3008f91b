/**
 * Brute-force protection of `POST /auth/login` (admins and shoppers alike). Not in the spec
 * ("Rate limits ...: not shown"); our rule:
 *
 * - Two counters per attempt: the account (`ACCOUNT_LIMIT` failures per `WINDOW_MS`) and the client
 *   address (`ADDRESS_LIMIT`, so one address cannot spray many accounts). Reaching a limit locks that
 *   counter for `LOCK_MS`; while either is locked, login is refused with `too_many_login_attempts`
 *   (HTTP 429, not a spec name) before the password is even checked, so a correct guess during the
 *   lock tells nothing.
 * - Failed attempts are also slowed progressively (failureDelayMs), which costs a patient attacker
 *   time and an honest user nothing noticeable for the first typo.
 * - A success resets the account's counter; the address counter only takes back that one attempt,
 *   or an attacker holding one valid account could wipe their address's record between guesses.
 *
 * Counters live in MySQL (handbook, "Scale beyond one machine") and every change is one atomic
 * statement. An attempt is counted *before* the password is checked, so even a burst of parallel
 * guesses gets at most `ACCOUNT_LIMIT` password checks per window: an attempt that finds its counter
 * already past the limit is refused (and takes its count back).
 *
 * Known trade-off: anyone can lock an account for LOCK_MS by failing on purpose; the lock is short
 * and per account, which is the usual price of per-account limits.
 */
import { and, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { loginThrottle } from "../db/schema.ts";
import { sha256Hex } from "./secrets.ts";

export const ACCOUNT_LIMIT = 5;
export const ADDRESS_LIMIT = 20;
export const WINDOW_MS = 15 * 60_000;
export const LOCK_MS = 15 * 60_000;
/** delay of the second failure in a window; it doubles with every further failure */
const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 4_000;

/** What one login attempt is counted against. */
export interface ThrottleKeys {
  /** the account, for example `admin:12`; null when there is none to name (unknown app) */
  account: string | null;
  /** canonical client address; null when unknown (all unknown addresses share one counter) */
  address: string | null;
}

/** A counted attempt, handed back to loginFailed / loginSucceeded. */
export interface LoginAttempt {
  accountHash: string | null;
  addressHash: string;
  /**
   * the account's count, this attempt included (the address's when there is no account): paces the
   * failure delay, so an honest typo behind a busy shared address is not slowed by strangers' failures
   */
  failures: number;
}

export type AttemptVerdict = { refused: false; attempt: LoginAttempt } | { refused: true; retryAfterMs: number };

/**
 * Counts a login attempt and says whether it may proceed to the password check.
 * @param now the request's clock (tests inject it)
 * @returns `refused` with the time until the lock ends when a counter is locked or already at its limit
 */
export async function beginLoginAttempt(db: CoreDb, keys: ThrottleKeys, now: Date): Promise<AttemptVerdict> {
  const accountHash = keys.account === null ? null : sha256Hex(`account:${keys.account}`);
  const addressHash = sha256Hex(`address:${keys.address ?? "unknown"}`);
  const counters: Array<[string, "account" | "address"]> = [[addressHash, "address"]];
  if (accountHash !== null) counters.push([accountHash, "account"]);
  const windowStart = new Date(now.getTime() - WINDOW_MS);

  // One statement for both counters. A locked counter is left alone (refused attempts do not
  // prolong the lock); an expired window starts again at 1. Each assignment reads only columns
  // not assigned before it, so the result does not depend on the server's assignment order.
  const values = sql.join(
    counters.map(([hash, scope]) => sql`(${hash}, ${scope}, 1, ${now}, NULL)`),
    sql`, `,
  );
  await db.execute(sql`
    INSERT INTO login_throttle (key_hash, scope, failures, window_started_at, locked_until) VALUES ${values}
    ON DUPLICATE KEY UPDATE
      failures = CASE WHEN locked_until > ${now} THEN failures WHEN window_started_at <= ${windowStart} THEN 1 ELSE failures + 1 END,
      window_started_at = CASE WHEN locked_until > ${now} THEN window_started_at WHEN window_started_at <= ${windowStart} THEN ${now} ELSE window_started_at END`);

  const rows = await db
    .select()
    .from(loginThrottle)
    .where(inArray(loginThrottle.keyHash, counters.map(([hash]) => hash)));
  let retryAfterMs = 0;
  let failures = 0;
  for (const row of rows) {
    if (row.keyHash === (accountHash ?? addressHash)) failures = row.failures;
    if (row.lockedUntil && row.lockedUntil > now) retryAfterMs = Math.max(retryAfterMs, row.lockedUntil.getTime() - now.getTime());
    else if (row.failures > limitOf(row.scope)) retryAfterMs = Math.max(retryAfterMs, LOCK_MS);
  }
  if (retryAfterMs > 0) {
    await takeBack(db, counters.map(([hash]) => hash), now);
    return { refused: true, retryAfterMs };
  }
  return { refused: false, attempt: { accountHash, addressHash, failures } };
}

/**
 * Records that a counted attempt failed: locks every counter that has reached its limit.
 * @returns how long to delay the failure response, in milliseconds (failureDelayMs)
 */
export async function loginFailed(db: CoreDb, attempt: LoginAttempt, now: Date): Promise<number> {
  await db
    .update(loginThrottle)
    .set({ lockedUntil: new Date(now.getTime() + LOCK_MS) })
    .where(
      and(
        inArray(loginThrottle.keyHash, hashesOf(attempt)),
        sql`${loginThrottle.failures} >= CASE ${loginThrottle.scope} WHEN 'account' THEN ${ACCOUNT_LIMIT} ELSE ${ADDRESS_LIMIT} END`,
        or(isNull(loginThrottle.lockedUntil), lte(loginThrottle.lockedUntil, now)),
      ),
    );
  return failureDelayMs(attempt.failures);
}

/**
 * Records that a counted attempt succeeded: the account starts afresh, the address takes this
 * attempt back. Also prunes a few counters whose window and lock are over, so the table stays small.
 */
export async function loginSucceeded(db: CoreDb, attempt: LoginAttempt, now: Date): Promise<void> {
  if (attempt.accountHash !== null) await db.delete(loginThrottle).where(eq(loginThrottle.keyHash, attempt.accountHash));
  await takeBack(db, [attempt.addressHash], now);
  const windowStart = new Date(now.getTime() - WINDOW_MS);
  await db.execute(sql`
    DELETE FROM login_throttle
    WHERE window_started_at < ${windowStart} AND (locked_until IS NULL OR locked_until < ${now})
    LIMIT 100`);
}

/**
 * Takes back a counted attempt whose credentials were never checked (the webshop that checks them
 * could not be asked, auth/webshop-login.ts): neither a failure nor a success.
 */
export async function loginAbandoned(db: CoreDb, attempt: LoginAttempt, now: Date): Promise<void> {
  await takeBack(db, hashesOf(attempt), now);
}

/**
 * Delay of a failed attempt's response: none for the first failure in a window, then 0.5 s,
 * doubling up to 4 s.
 * @param failures the attempt's count within the window (1 for the first)
 */
export function failureDelayMs(failures: number): number {
  if (failures <= 1) return 0;
  return Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (failures - 2));
}

function limitOf(scope: string): number {
  return scope === "account" ? ACCOUNT_LIMIT : ADDRESS_LIMIT;
}

function hashesOf(attempt: LoginAttempt): string[] {
  return attempt.accountHash === null ? [attempt.addressHash] : [attempt.addressHash, attempt.accountHash];
}

/** Un-counts an attempt on the counters that are not locked (a locked one was not counted). */
async function takeBack(db: CoreDb, hashes: string[], now: Date): Promise<void> {
  await db
    .update(loginThrottle)
    .set({ failures: sql`GREATEST(${loginThrottle.failures} - 1, 0)` })
    .where(and(inArray(loginThrottle.keyHash, hashes), or(isNull(loginThrottle.lockedUntil), lte(loginThrottle.lockedUntil, now))));
}
