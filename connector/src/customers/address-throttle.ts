/**
 * Per-address limit of `POST /rest/V1/service/customer/authenticate` (issue 11: one address could
 * lock any number of accounts by failing on purpose, Magento's lockout being per account only).
 * The core API's login throttle is the model; the rule here:
 *
 * - One counter per client address: `ADDRESS_LIMIT` failed attempts per `WINDOW_MS`. Reaching the
 *   limit locks the address for `LOCK_MS`; while locked, authenticate is refused with HTTP 429 and
 *   `Retry-After` before any account is looked at, so a locked address neither checks passwords
 *   nor adds failures to accounts: one address locks at most ADDRESS_LIMIT / lockout_failures
 *   accounts per window.
 * - An attempt is counted *before* the password is checked, in one atomic statement, so a burst of
 *   parallel guesses gets at most `ADDRESS_LIMIT` checks per window; a success takes its own count
 *   back (not the whole record, or one valid account would wipe the address's failures).
 * - The address is the client's as Express sees it: the socket peer, or the `X-Forwarded-For`
 *   entry a trusted proxy added (TRUSTED_PROXIES). Behind a caller that relays shoppers without
 *   forwarding their address, every attempt shares the caller's counter.
 *
 * Counters live in MySQL (handbook, "Scale beyond one machine"), keyed by a SHA-256 of the address.
 */
import { createHash } from "node:crypto";
import { and, eq, isNull, lte, or, sql } from "drizzle-orm";
import type { ConnectorQueryable } from "../db/client.ts";
import { serviceAuthenticateThrottle } from "../db/schema.ts";

export const ADDRESS_LIMIT = 20;
export const WINDOW_MS = 15 * 60_000;
export const LOCK_MS = 15 * 60_000;

/** The outcome of counting an attempt: go ahead (with the counter's key), or refused for a while. */
export type AddressVerdict = { refused: false; addressHash: string } | { refused: true; retryAfterMs: number };

/**
 * Counts an authenticate attempt from `address` and says whether it may go on.
 * @param address the client address; null (unknown) shares one counter with all unknown addresses
 * @param now the request's clock (tests inject it)
 * @returns `refused` with the time until the lock ends (ms) when the address is locked or at its limit
 */
export async function beginAddressAttempt(db: ConnectorQueryable, address: string | null, now: Date): Promise<AddressVerdict> {
  const addressHash = createHash("sha256").update(`address:${canonical(address) ?? "unknown"}`).digest("hex");
  const windowStart = new Date(now.getTime() - WINDOW_MS);
  // A locked counter is left alone (refused attempts do not prolong the lock); an expired window
  // starts again at 1. Each assignment reads only columns not assigned before it.
  await db.execute(sql`
    INSERT INTO service_authenticate_throttle (address_hash, failures, window_started_at, locked_until)
    VALUES (${addressHash}, 1, ${now}, NULL)
    ON DUPLICATE KEY UPDATE
      failures = CASE WHEN locked_until > ${now} THEN failures WHEN window_started_at <= ${windowStart} THEN 1 ELSE failures + 1 END,
      window_started_at = CASE WHEN locked_until > ${now} THEN window_started_at WHEN window_started_at <= ${windowStart} THEN ${now} ELSE window_started_at END`);
  const [row] = await db.select().from(serviceAuthenticateThrottle).where(eq(serviceAuthenticateThrottle.addressHash, addressHash));
  if (row?.lockedUntil && row.lockedUntil > now) return { refused: true, retryAfterMs: row.lockedUntil.getTime() - now.getTime() };
  if (row && row.failures > ADDRESS_LIMIT) {
    // Past the limit in a burst, before the lock was written: refused, and this attempt uncounted.
    await takeBack(db, addressHash, now);
    return { refused: true, retryAfterMs: LOCK_MS };
  }
  return { refused: false, addressHash };
}

/** Records that a counted attempt failed: locks the address when it has reached its limit. */
export async function addressAttemptFailed(db: ConnectorQueryable, addressHash: string, now: Date): Promise<void> {
  await db
    .update(serviceAuthenticateThrottle)
    .set({ lockedUntil: new Date(now.getTime() + LOCK_MS) })
    .where(
      and(
        eq(serviceAuthenticateThrottle.addressHash, addressHash),
        sql`${serviceAuthenticateThrottle.failures} >= ${ADDRESS_LIMIT}`,
        or(isNull(serviceAuthenticateThrottle.lockedUntil), lte(serviceAuthenticateThrottle.lockedUntil, now)),
      ),
    );
}

/** How often a process prunes counters that are over (a housekeeping statement, not one per login). */
export const PRUNE_INTERVAL_MS = 60_000;
/** When this process prunes next (ms since the epoch, by the requests' clock). */
let nextPruneAt = 0;

/**
 * Records that a counted attempt succeeded: the address takes this attempt back. At most once
 * per PRUNE_INTERVAL_MS per process, also deletes up to 100 counters whose window and lock are
 * over, so the table stays small (such a counter starts again at 1 anyway: pruning changes no answer).
 */
export async function addressAttemptSucceeded(db: ConnectorQueryable, addressHash: string, now: Date): Promise<void> {
  await takeBack(db, addressHash, now);
  if (now.getTime() < nextPruneAt) return;
  nextPruneAt = now.getTime() + PRUNE_INTERVAL_MS;
  const windowStart = new Date(now.getTime() - WINDOW_MS);
  await db.execute(sql`
    DELETE FROM service_authenticate_throttle
    WHERE window_started_at < ${windowStart} AND (locked_until IS NULL OR locked_until < ${now})
    LIMIT 100`);
}

/** One spelling per address: lowercase, an IPv4-mapped IPv6 address as its IPv4 (a dual-stack socket's view). */
function canonical(address: string | null): string | null {
  if (address === null) return null;
  const lower = address.toLowerCase();
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/.test(lower) ? lower.slice(7) : lower;
}

/** Un-counts an attempt unless the counter is locked (a locked one was not counted). */
async function takeBack(db: ConnectorQueryable, addressHash: string, now: Date): Promise<void> {
  await db
    .update(serviceAuthenticateThrottle)
    .set({ failures: sql`GREATEST(CAST(${serviceAuthenticateThrottle.failures} AS SIGNED) - 1, 0)` })
    .where(
      and(
        eq(serviceAuthenticateThrottle.addressHash, addressHash),
        or(isNull(serviceAuthenticateThrottle.lockedUntil), lte(serviceAuthenticateThrottle.lockedUntil, now)),
      ),
    );
}
