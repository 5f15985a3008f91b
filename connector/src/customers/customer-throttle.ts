/**
 * The webshop's own lockout of `authenticate`, counted per customer *and* client address (OWASP,
 * "Authentication Cheat Sheet": a lock that anyone can set for any account is a denial of
 * service). Magento's rule and settings (customer/password/lockout_failures failures within
 * lockout_threshold minutes lock for lockout_threshold minutes; defaults 10 and 10), but what locks
 * is the pair: failures relayed from other addresses never lock the owner out, from their own
 * address, of their own account. Magento's per-account columns (customer_entity.failures_num,
 * first_failure, lock_expires) are no longer written on a failure (customers/authenticate.ts).
 *
 * An attempt is counted *before* its password is checked, in one atomic statement that also
 * returns the verdict, and refused uncounted when the pair is already at its limit (which locks
 * it), so a burst of parallel guesses gets at most lockout_failures checks per pair and window.
 * A failure at the limit locks the pair; a success starts the pair afresh (nothing counted, its
 * window over, no lock: the next attempt counts as on a new pair); an attempt that got no answer
 * takes its count back.
 * Rows live in service_authenticate_lockout, keyed by the customer id and a SHA-256 of
 * the address (no address in clear).
 */
import { createHash } from "node:crypto";
import { runStatement } from "@service/shared/node";
import { sql } from "drizzle-orm";
import type { ConnectorQueryable } from "../db/client.ts";
import { pruneCounters, pruneDue, pruneOver, type AddressAttempt } from "./address-throttle.ts";
import type { StoreConfig } from "./store-scope.ts";

/** Magento's lockout settings (store-scope.ts readStoreConfig); 0 in either disables the lock. */
export type LockoutPolicy = Pick<StoreConfig, "lockoutFailures" | "lockoutThresholdMinutes">;

/** A counted attempt on one customer from one address; null when the policy disables lockout. */
export type CustomerAttempt = { customerId: number; addressHash: string; policy: LockoutPolicy } | null;

/** Whether the attempt may check the password (`locked` false), and the attempt to settle. */
export interface CustomerVerdict {
  locked: boolean;
  attempt: CustomerAttempt;
}

/**
 * Counts an authenticate attempt on customer `customerId` from `address`, in one atomic statement
 * that also tells whether it counted: refused (not counted) while the pair is locked, and when the
 * pair is at its limit already (a parallel burst: the attempts before it are still out), which
 * locks it for lockout_threshold minutes from `now`.
 * @param address the client address (null: unknown, one counter for all unknown addresses)
 * @param policy 0 in either setting: nothing is counted and nothing locks
 * @returns locked true (the attempt is not counted) while the pair is locked or at its limit
 */
export async function beginCustomerAttempt(
  db: ConnectorQueryable,
  customerId: number,
  address: string | null,
  policy: LockoutPolicy,
  now: Date,
): Promise<CustomerVerdict> {
  if (!policy.lockoutFailures || !policy.lockoutThresholdMinutes) return { locked: false, attempt: null };
  const attempt = { customerId, addressHash: hashAddress(address), policy };
  const thresholdMs = policy.lockoutThresholdMinutes * 60_000;
  const windowStart = new Date(now.getTime() - thresholdMs);
  // A burst at the limit locks the pair here: counting alone would not, since when every attempt
  // of a burst counts before any is judged, none is left to fail at the limit and lock.
  // The verdict comes back as the statement's insert id (LAST_INSERT_ID(expr), MySQL's way of
  // returning a value from an upsert): 1 counted, 0 refused. A new row is counted (1); on an
  // existing one, locked_until is assigned first (reading the failures before they change) and
  // the failures then read it: a locked pair is left alone (refused attempts do not prolong the
  // lock), an expired window starts again at 1. MySQL assigns left to right, and so does MariaDB
  // unless sql_mode holds SIMULTANEOUS_ASSIGNMENT, which nothing here sets.
  const [header] = (await runStatement(() => db.execute(sql`
    INSERT INTO service_authenticate_lockout (customer_id, address_hash, failures, window_started_at, locked_until)
    VALUES (${customerId}, ${attempt.addressHash}, LAST_INSERT_ID(1), ${now}, NULL)
    ON DUPLICATE KEY UPDATE
      locked_until = CASE WHEN locked_until > ${now} THEN locked_until
        WHEN window_started_at > ${windowStart} AND failures >= ${policy.lockoutFailures} THEN ${new Date(now.getTime() + thresholdMs)}
        ELSE locked_until END,
      failures = CASE WHEN LAST_INSERT_ID(locked_until IS NULL OR locked_until <= ${now}) = 0 THEN failures
        WHEN window_started_at <= ${windowStart} THEN 1 ELSE failures + 1 END,
      window_started_at = CASE WHEN locked_until > ${now} THEN window_started_at WHEN window_started_at <= ${windowStart} THEN ${now} ELSE window_started_at END`,
  ))) as unknown as [{ insertId: number | string }];
  if (Number(header.insertId) === 0) return { locked: true, attempt: null };
  return { locked: false, attempt };
}

/** Records that a counted attempt failed: the pair's lockout_failures-th failure locks it for lockout_threshold minutes. */
export async function customerAttemptFailed(db: ConnectorQueryable, attempt: CustomerAttempt, now: Date): Promise<void> {
  if (attempt === null) return;
  const until = new Date(now.getTime() + attempt.policy.lockoutThresholdMinutes * 60_000);
  await runStatement(() => db.execute(sql`
    UPDATE service_authenticate_lockout SET locked_until = ${until}
    WHERE customer_id = ${attempt.customerId} AND address_hash = ${attempt.addressHash}
      AND failures >= ${attempt.policy.lockoutFailures} AND (locked_until IS NULL OR locked_until <= ${now})`));
}

/**
 * Records that a counted attempt succeeded, and settles the address's attempt of the same login
 * with it (no longer pending; the address's failures stay, or one valid account would wipe them),
 * in one statement: a login's success is one write, not one per counter. The pair starts afresh:
 * nothing counted, its window over (WINDOW_OVER) and no lock, which the next attempt counts
 * exactly as a new pair (beginCustomerAttempt). The row is reset rather than deleted so that one
 * UPDATE writes both tables; pruneAfterSuccess deletes it.
 * @param attempt the pair's attempt (beginCustomerAttempt); null (lockout disabled): only the address is settled
 * @param address the address's attempt (address-throttle.ts addressVerdict), settled while its window lasts
 */
export async function customerAttemptSucceeded(db: ConnectorQueryable, attempt: CustomerAttempt, address: AddressAttempt): Promise<void> {
  const thePair = attempt === null ? sql`FALSE` : sql`pair.customer_id = ${attempt.customerId} AND pair.address_hash = ${attempt.addressHash}`;
  // One row from the derived table, each counter outer-joined to it: a counter's row that is gone
  // (pruned, or the address's window started again) is left out, and the other still settles.
  // Each assignment reads only its own column (a multi-table UPDATE has no assignment order).
  await runStatement(() => db.execute(sql`
    UPDATE (SELECT 1 AS one) AS login
      LEFT JOIN service_authenticate_throttle AS counter
        ON counter.address_hash = ${address.addressHash} AND counter.window_started_at = ${address.windowStartedAt}
      LEFT JOIN service_authenticate_lockout AS pair ON ${thePair}
    SET counter.pending = GREATEST(CAST(counter.pending AS SIGNED) - 1, 0),
      pair.failures = 0, pair.window_started_at = ${WINDOW_OVER}, pair.locked_until = NULL`));
}

/**
 * The window start of a pair reset by a success: over for every request's clock and every
 * lockout_threshold, so the next attempt always starts a window of its own (beginCustomerAttempt),
 * and the next prune may delete the row.
 */
const WINDOW_OVER = new Date(0);

/**
 * Housekeeping after a success, run by at most one login a minute on a database (pruneDue, by
 * `now`, the requests' clock): deletes the pairs whose window and lock are over, those reset by a
 * success among them (address-throttle.ts pruneOver: in batches, a bounded number of them); then
 * the address counters' prune (pruneCounters). Such rows start again from nothing anyway: pruning
 * changes no answer.
 * @param attempt the succeeded pair's attempt (its lockout_threshold dates the windows that are
 *   over); null (lockout disabled): no pair is pruned
 */
export async function pruneAfterSuccess(db: ConnectorQueryable, attempt: CustomerAttempt, now: Date): Promise<void> {
  if (attempt !== null && pruneDue(db, "service_authenticate_lockout", now)) {
    await pruneOver(db, "service_authenticate_lockout", new Date(now.getTime() - attempt.policy.lockoutThresholdMinutes * 60_000), now);
  }
  await pruneCounters(db, now);
}

/** Takes a counted attempt back: it got no answer, or its password was right (an inactive account). */
export async function customerAttemptAbandoned(db: ConnectorQueryable, attempt: CustomerAttempt): Promise<void> {
  if (attempt === null) return;
  await runStatement(() => db.execute(sql`
    UPDATE service_authenticate_lockout SET failures = GREATEST(CAST(failures AS SIGNED) - 1, 0)
    WHERE customer_id = ${attempt.customerId} AND address_hash = ${attempt.addressHash}`));
}

function hashAddress(address: string | null): string {
  return createHash("sha256").update(`address:${address ?? "unknown"}`).digest("hex");
}
