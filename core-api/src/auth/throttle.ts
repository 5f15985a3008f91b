/**
 * Brute-force protection of `POST /auth/login` (admins and shoppers alike). Not in the spec
 * ("Rate limits ...: not shown"); our rule follows OWASP's Authentication Cheat Sheet: throttle
 * per account and client address and per client address, and never let strangers lock an
 * account. Three counters per attempt:
 *
 * - pair (the account at one client address): PAIR_LIMIT failures per WINDOW_MS lock that pair
 *   for LOCK_MS. Only that address is refused for that account: the owner elsewhere is not.
 * - address: ADDRESS_LIMIT failures per WINDOW_MS, whatever the accounts, lock the address for
 *   LOCK_MS (one address cannot spray many accounts).
 * - account (all addresses): failures within ACCOUNT_WINDOW_MS. Past ACCOUNT_FREE_FAILURES the
 *   account is paced, never locked: each attempt from an address the account has not logged in
 *   from lately (auth/known-addresses.ts) holds the next such attempt back for accountDelayMs
 *   (1 s, doubling to 5 min). Attempts from a known address are not paced at all, so failures
 *   spread over many addresses slow the account down without keeping its owner out.
 *
 * While a counter refuses, login answers too_many_login_attempts (HTTP 429, not a spec name, with
 * Retry-After) before the password is even checked, so a correct guess then tells nothing; in
 * front of a webshop (auth/webshop-login.ts) the refused attempt never reaches it. Failed attempts
 * are also slowed (failureDelayMs, by the pair's count, so strangers' failures on a shared address
 * do not slow an honest typo). A success deletes the pair and account counters and marks the
 * address known; the address counter only takes back that attempt, or an attacker holding one
 * valid account could wipe their address's record between guesses.
 *
 * Counters live in MySQL (handbook, "Scale beyond one machine") and every change is one atomic
 * statement. An attempt is counted *before* the password is checked, so even a burst of parallel
 * guesses gets at most PAIR_LIMIT password checks per pair and window: an attempt that finds its
 * counter past the limit is refused (and takes its count back); the account's pacing is claimed by
 * one conditional UPDATE, so of simultaneous attempts from new addresses only one goes through.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { runStatement } from "@service/shared/node";
import type { CoreDb } from "../db/client.ts";
import { loginThrottle } from "../db/schema.ts";
import { isKnownAddress, knownAddressKey, rememberAddress } from "./known-addresses.ts";
import { sha256Hex } from "../crypto/secrets.ts";

export const PAIR_LIMIT = 5;
export const ADDRESS_LIMIT = 20;
export const WINDOW_MS = 15 * 60_000;
export const LOCK_MS = 15 * 60_000;
export const ACCOUNT_FREE_FAILURES = 5;
export const ACCOUNT_WINDOW_MS = 24 * 3_600_000;
export const ACCOUNT_BASE_DELAY_MS = 1_000;
export const ACCOUNT_MAX_DELAY_MS = 5 * 60_000;
/** delay of the second failure of a pair in a window; it doubles with every further failure */
const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 4_000;

/** What one login attempt is counted against. */
export interface ThrottleKeys {
  /** the account, for example `admin:12`; null when there is none to name (unknown app) */
  account: string | null;
  /** canonical client address; null when unknown (all unknown addresses share one counter) */
  address: string | null;
}

/** A counted attempt, handed back to loginFailed / loginSucceeded / loginAbandoned. */
export interface LoginAttempt {
  address: string | null;
  addressHash: string;
  /** null without an account, as accountHash and knownHash */
  pairHash: string | null;
  accountHash: string | null;
  /** the attempt's address in login_known_address (knownAddressKey) */
  knownHash: string | null;
  /** the pair's count, this attempt included (the address's without an account): paces the failure delay */
  failures: number;
}

export type AttemptVerdict = { refused: false; attempt: LoginAttempt } | { refused: true; retryAfterMs: number };

/**
 * Counts a login attempt and says whether it may proceed to the password check.
 * @param now the request's clock (tests inject it)
 * @returns `refused` with the time until the attempt may be made again (ms) when the pair or the
 *   address is locked or at its limit, or the account is paced and the address not known to it
 */
export async function beginLoginAttempt(db: CoreDb, keys: ThrottleKeys, now: Date): Promise<AttemptVerdict> {
  const attempt = attemptOf(keys);
  const counters = countersOf(attempt);
  await countAttempt(db, counters, now);
  const known = await isKnownAddress(db, attempt.knownHash, now);
  const rows = await db.select().from(loginThrottle).where(inArray(loginThrottle.keyHash, counters.map(([hash]) => hash)));
  let retryAfterMs = 0;
  let account: (typeof rows)[number] | undefined;
  for (const row of rows) {
    if (row.scope === "account") {
      account = row;
      if (!known && row.lockedUntil && row.lockedUntil > now) retryAfterMs = Math.max(retryAfterMs, row.lockedUntil.getTime() - now.getTime());
      continue;
    }
    if (row.keyHash === (attempt.pairHash ?? attempt.addressHash)) attempt.failures = row.failures;
    if (row.lockedUntil && row.lockedUntil > now) retryAfterMs = Math.max(retryAfterMs, row.lockedUntil.getTime() - now.getTime());
    else if (row.failures > (row.scope === "pair" ? PAIR_LIMIT : ADDRESS_LIMIT)) retryAfterMs = Math.max(retryAfterMs, LOCK_MS);
  }
  if (retryAfterMs === 0 && !known && account && account.failures > ACCOUNT_FREE_FAILURES) {
    retryAfterMs = await claimAccountTurn(db, account.keyHash, account.failures, now);
  }
  if (retryAfterMs > 0) {
    await takeBack(db, counters.map(([hash]) => hash), now);
    return { refused: true, retryAfterMs };
  }
  return { refused: false, attempt };
}

/**
 * Records that a counted attempt failed: locks the pair and the address when they reached their limits.
 * @returns how long to delay the failure response, in milliseconds (failureDelayMs)
 */
export async function loginFailed(db: CoreDb, attempt: LoginAttempt, now: Date): Promise<number> {
  const hashes = attempt.pairHash === null ? [attempt.addressHash] : [attempt.addressHash, attempt.pairHash];
  await runStatement(() => db.execute(sql`
    UPDATE login_throttle SET locked_until = ${new Date(now.getTime() + LOCK_MS)}
    WHERE key_hash IN (${sql.join(hashes.map((h) => sql`${h}`), sql`, `)})
      AND failures >= CASE scope WHEN 'pair' THEN ${PAIR_LIMIT} ELSE ${ADDRESS_LIMIT} END
      AND (locked_until IS NULL OR locked_until <= ${now})`));
  return failureDelayMs(attempt.failures);
}

/**
 * Records that a counted attempt succeeded: the pair and the account start afresh, the address
 * takes this attempt back, and the address becomes known to the account (to `rememberAs` when
 * given: the account key the login ended on, for example `user:<id>` of a member a webshop login
 * just created). Also prunes a few counters that are over, so the table stays small.
 */
export async function loginSucceeded(db: CoreDb, attempt: LoginAttempt, now: Date, rememberAs?: string): Promise<void> {
  const fresh = [attempt.pairHash, attempt.accountHash].filter((h): h is string => h !== null);
  if (fresh.length > 0) await runStatement(() => db.delete(loginThrottle).where(inArray(loginThrottle.keyHash, fresh)));
  await takeBack(db, [attempt.addressHash], now);
  await rememberAddress(db, rememberAs === undefined ? attempt.knownHash : knownAddressKey(rememberAs, attempt.address), now);
  await runStatement(() => db.execute(sql`
    DELETE FROM login_throttle
    WHERE window_started_at < ${new Date(now.getTime() - WINDOW_MS)}
      AND (scope <> 'account' OR window_started_at < ${new Date(now.getTime() - ACCOUNT_WINDOW_MS)})
      AND (locked_until IS NULL OR locked_until < ${now})
    LIMIT 100`));
}

/**
 * Takes back a counted attempt whose credentials were never checked (the webshop that checks them
 * could not be asked, auth/webshop-login.ts): neither a failure nor a success.
 */
export async function loginAbandoned(db: CoreDb, attempt: LoginAttempt, now: Date): Promise<void> {
  await takeBack(db, countersOf(attempt).map(([hash]) => hash), now);
}

/**
 * Delay of a failed attempt's response: none for the pair's first failure in a window, then
 * 0.5 s, doubling up to 4 s.
 * @param failures the attempt's count within the window (1 for the first)
 */
export function failureDelayMs(failures: number): number {
  if (failures <= 1) return 0;
  return Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (failures - 2));
}

/**
 * How long an attempt on a paced account holds the next one from an address not known to it
 * back: nothing up to ACCOUNT_FREE_FAILURES, then 1 s, doubling up to 5 min.
 * @param failures the account's count within ACCOUNT_WINDOW_MS, this attempt included
 */
export function accountDelayMs(failures: number): number {
  if (failures <= ACCOUNT_FREE_FAILURES) return 0;
  return Math.min(ACCOUNT_MAX_DELAY_MS, ACCOUNT_BASE_DELAY_MS * 2 ** Math.min(failures - ACCOUNT_FREE_FAILURES - 1, 20));
}

function attemptOf(keys: ThrottleKeys): LoginAttempt {
  const where = keys.address ?? "unknown";
  return {
    address: keys.address,
    addressHash: sha256Hex(`address:${where}`),
    pairHash: keys.account === null ? null : sha256Hex(`pair:${keys.account}|${where}`),
    accountHash: keys.account === null ? null : sha256Hex(`account:${keys.account}`),
    knownHash: keys.account === null ? null : knownAddressKey(keys.account, keys.address),
    failures: 0,
  };
}

function countersOf(attempt: LoginAttempt): Array<[string, "pair" | "address" | "account"]> {
  const counters: Array<[string, "pair" | "address" | "account"]> = [[attempt.addressHash, "address"]];
  if (attempt.pairHash !== null) counters.push([attempt.pairHash, "pair"]);
  if (attempt.accountHash !== null) counters.push([attempt.accountHash, "account"]);
  return counters;
}

/**
 * Counts an attempt on every counter in one statement. A locked pair or address is left alone
 * (refused attempts do not prolong the lock); the account always counts (an attempt from a known
 * address goes on while it is paced). An expired window starts again at 1. Each assignment reads
 * only columns not assigned before it, so the result does not depend on the server's assignment order.
 */
async function countAttempt(db: CoreDb, counters: Array<[string, "pair" | "address" | "account"]>, now: Date): Promise<void> {
  const values = sql.join(counters.map(([hash, scope]) => sql`(${hash}, ${scope}, 1, ${now}, NULL)`), sql`, `);
  const windowStart = sql`CASE WHEN scope = 'account' THEN ${new Date(now.getTime() - ACCOUNT_WINDOW_MS)} ELSE ${new Date(now.getTime() - WINDOW_MS)} END`;
  const locked = sql`scope <> 'account' AND locked_until > ${now}`;
  await runStatement(() => db.execute(sql`
    INSERT INTO login_throttle (key_hash, scope, failures, window_started_at, locked_until) VALUES ${values}
    ON DUPLICATE KEY UPDATE
      failures = CASE WHEN ${locked} THEN failures WHEN window_started_at <= ${windowStart} THEN 1 ELSE failures + 1 END,
      window_started_at = CASE WHEN ${locked} THEN window_started_at WHEN window_started_at <= ${windowStart} THEN ${now} ELSE window_started_at END`));
}

/**
 * Takes the paced account's next turn for this attempt: holds later attempts from new addresses
 * back for accountDelayMs(failures), unless another attempt holds them back already.
 * @returns 0 when this attempt got the turn; else the time until the turn is free (ms)
 */
async function claimAccountTurn(db: CoreDb, accountHash: string, failures: number, now: Date): Promise<number> {
  const [res] = await runStatement(() => db.execute(sql`
    UPDATE login_throttle SET locked_until = ${new Date(now.getTime() + accountDelayMs(failures))}
    WHERE key_hash = ${accountHash} AND (locked_until IS NULL OR locked_until <= ${now})`));
  if ((res as { affectedRows: number }).affectedRows > 0) return 0;
  const [row] = await db.select({ lockedUntil: loginThrottle.lockedUntil }).from(loginThrottle).where(eq(loginThrottle.keyHash, accountHash));
  const left = (row?.lockedUntil?.getTime() ?? 0) - now.getTime();
  return left > 0 ? left : ACCOUNT_BASE_DELAY_MS;
}

/** Un-counts an attempt: on the account, and on the pair and address unless locked (a locked one was not counted). */
async function takeBack(db: CoreDb, hashes: string[], now: Date): Promise<void> {
  await runStatement(() => db
    .update(loginThrottle)
    .set({ failures: sql`GREATEST(${loginThrottle.failures} - 1, 0)` })
    .where(and(inArray(loginThrottle.keyHash, hashes), sql`(scope = 'account' OR locked_until IS NULL OR locked_until <= ${now})`)));
}
