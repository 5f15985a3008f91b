/**
 * Per-address limit of `POST /rest/V1/service/customer/authenticate` (one address could
 * lock any number of accounts by failing on purpose, Magento's lockout being per account only).
 * The core API's login throttle is the model; the rule here:
 *
 * - One counter per client address: `ADDRESS_LIMIT` failed attempts per `WINDOW_MS`. Reaching the
 *   limit locks the address for `LOCK_MS`; while locked, authenticate is refused with HTTP 429 and
 *   `Retry-After` before any account is checked (authenticate reads the customer row with the
 *   counter, and leaves it alone), so a locked address neither checks passwords nor adds
 *   failures to accounts: one address locks at most ADDRESS_LIMIT / lockout_failures
 *   accounts per window.
 * - An attempt is counted as pending *before* the password is checked, in one atomic statement,
 *   and refused when failures + pending would pass the limit, so a burst of parallel guesses gets
 *   at most `ADDRESS_LIMIT` checks per window. Its answer settles it: a failure moves it from
 *   pending to failures (the ADDRESS_LIMIT-th failure locks), a success only leaves pending (not
 *   the whole record, or one valid account would wipe the address's failures), and so does an
 *   attempt that got no answer (an error). Only failures lock: attempts still in flight do not.
 * - What a process that dies mid-check leaves pending goes with the window (a new window starts
 *   with nothing pending). An attempt settles only in the window it was counted in: one that
 *   outlives its window changes nothing in the next.
 * - The address is the client's (http/client-address.ts): the shopper's, as the platform forwards
 *   it with its integration token, after any of our own proxies (TRUSTED_PROXIES). A platform
 *   request that forwards no address counts against the platform's own.
 *
 * Counters live in MySQL (handbook, "Scale beyond one machine"), keyed by a SHA-256 of the address.
 */
import { createHash } from "node:crypto";
import { guardedPoolOf, runStatement } from "@service/shared/node";
import { sql } from "drizzle-orm";
import type { ConnectorQueryable } from "../db/client.ts";
import type { serviceAuthenticateThrottle } from "../db/schema.ts";

export const ADDRESS_LIMIT = 20;
export const WINDOW_MS = 15 * 60_000;
export const LOCK_MS = 15 * 60_000;

/**
 * An attempt counted as pending: the counter's key and the window it was counted in. Settling it
 * changes the counter only while that window lasts (an attempt that outlives its window was
 * cleared with it and must not touch the next one).
 */
export interface AddressAttempt {
  addressHash: string;
  /** window_started_at of the counter when the attempt was counted */
  windowStartedAt: Date;
}

/** The outcome of counting an attempt: go ahead (the attempt to settle), or refused for a while. */
export type AddressVerdict = ({ refused: false } & AddressAttempt) | { refused: true; retryAfterMs: number };

/** The counter of one address as stored (service_authenticate_throttle). */
export type AddressCounter = typeof serviceAuthenticateThrottle.$inferSelect;

/**
 * Counts an authenticate attempt from `address` as pending, in one atomic statement. Its counter
 * must then be read back (authenticate reads it with the customer: login-customer.ts
 * readCounterAndLoginCustomer) and judged by addressVerdict; an attempt that goes on must be
 * settled with addressAttemptFailed, customer-throttle.ts customerAttemptSucceeded (a success: the
 * address's attempt and the customer's pair in one statement) or addressAttemptAbandoned.
 * @param address the client address in its one spelling (http/client-address.ts resolveClientAddress);
 *   null (unknown) shares one counter with all unknown addresses
 * @param now the request's clock (tests inject it)
 * @returns the counter's key (addressHash)
 */
export async function countAddressAttempt(db: ConnectorQueryable, address: string | null, now: Date): Promise<string> {
  const addressHash = createHash("sha256").update(`address:${address ?? "unknown"}`).digest("hex");
  const windowStart = new Date(now.getTime() - WINDOW_MS);
  // A locked counter is left alone (refused attempts do not prolong the lock); an expired window
  // starts again with nothing failed and this attempt pending. Each assignment reads only
  // columns not assigned before it (MySQL assigns left to right).
  await runStatement(() => db.execute(sql`
    INSERT INTO service_authenticate_throttle (address_hash, failures, pending, window_started_at, locked_until)
    VALUES (${addressHash}, 0, 1, ${now}, NULL)
    ON DUPLICATE KEY UPDATE
      failures = CASE WHEN locked_until > ${now} THEN failures WHEN window_started_at <= ${windowStart} THEN 0 ELSE failures END,
      pending = CASE WHEN locked_until > ${now} THEN pending WHEN window_started_at <= ${windowStart} THEN 1 ELSE pending + 1 END,
      window_started_at = CASE WHEN locked_until > ${now} THEN window_started_at WHEN window_started_at <= ${windowStart} THEN ${now} ELSE window_started_at END`));
  return addressHash;
}

/**
 * Judges a counter read back after countAddressAttempt: go on, or `refused` with the time until
 * the lock ends (ms) when the address is locked or at its limit.
 * Past the limit in a burst, the attempt is taken back (a statement) and refused.
 * @param row the counter of `addressHash` as read after counting
 * @throws Error when `row` is null (the counter just written is not there)
 */
export async function addressVerdict(db: ConnectorQueryable, addressHash: string, row: AddressCounter | null, now: Date): Promise<AddressVerdict> {
  if (row?.lockedUntil && row.lockedUntil > now) return { refused: true, retryAfterMs: row.lockedUntil.getTime() - now.getTime() };
  if (!row) throw new Error("addressVerdict: the counter just written is not there");
  const attempt = { addressHash, windowStartedAt: row.windowStartedAt };
  if (row.failures + row.pending > ADDRESS_LIMIT) {
    // Past the limit in a burst: refused, and this attempt no longer pending.
    await settle(db, attempt, false);
    return { refused: true, retryAfterMs: LOCK_MS };
  }
  return { refused: false, ...attempt };
}

/**
 * Takes back an attempt countAddressAttempt counted at `countedAt` when its counter could not be
 * read back (the read failed, so its window is not known): the window it was counted in is the
 * one started in (countedAt - WINDOW_MS, countedAt], a later one starts after `countedAt`. Best
 * effort, as addressAttemptAbandoned: with the database gone this fails too, and the window clears it.
 */
export async function addressCountAbandoned(db: ConnectorQueryable, addressHash: string, countedAt: Date): Promise<void> {
  const windowStart = new Date(countedAt.getTime() - WINDOW_MS);
  await runStatement(() => db.execute(sql`
    UPDATE service_authenticate_throttle SET pending = GREATEST(CAST(pending AS SIGNED) - 1, 0)
    WHERE address_hash = ${addressHash} AND window_started_at > ${windowStart} AND window_started_at <= ${countedAt}`));
}

/** Records that a pending attempt failed: one more failure; the ADDRESS_LIMIT-th locks the address. */
export async function addressAttemptFailed(db: ConnectorQueryable, attempt: AddressAttempt, now: Date): Promise<void> {
  await settle(db, attempt, true, now);
}

/** How often a table of the throttle is pruned (housekeeping, not a statement per login). */
export const PRUNE_INTERVAL_MS = 60_000;
/**
 * When each table's prune runs next on a database (ms since the epoch, by the requests' clock), by
 * the database's guarded pool (every handle of one database shares it), as the transaction runner
 * keeps its sweeps: a process serves one database, so it prunes once a minute; a test harness
 * has its own.
 */
const nextPruneAt = new WeakMap<object, Map<string, number>>();

/**
 * Whether the prune of `table` on `db` is due at `now`; when it is, the next one is due
 * PRUNE_INTERVAL_MS later (the caller runs this one).
 */
export function pruneDue(db: ConnectorQueryable, table: string, now: Date): boolean {
  const key = guardedPoolOf((db as { $client?: object }).$client) ?? db;
  let tables = nextPruneAt.get(key);
  if (!tables) nextPruneAt.set(key, (tables = new Map()));
  if (now.getTime() < (tables.get(table) ?? 0)) return false;
  tables.set(table, now.getTime() + PRUNE_INTERVAL_MS);
  return true;
}
/**
 * Rows one prune statement deletes at most, and statements one prune sends at most: up to 5,000
 * rows of a table a minute per process, more than the logins a process can hash in that time
 * (each of which may leave a counter of a new address, or a pair reset by its success).
 */
export const PRUNE_BATCH = 500;
export const PRUNE_BATCHES = 10;

/**
 * Deletes the rows of a throttle table whose window and lock are over, in batches of PRUNE_BATCH
 * while a batch is full, at most PRUNE_BATCHES: a table that grew faster than one batch a minute
 * still shrinks, and no prune holds its locks long.
 * @param table service_authenticate_throttle or service_authenticate_lockout (both have
 *   window_started_at and locked_until, each indexed by its window)
 * @param windowStart windows started before it are over
 */
export async function pruneOver(
  db: ConnectorQueryable,
  table: "service_authenticate_throttle" | "service_authenticate_lockout",
  windowStart: Date,
  now: Date,
): Promise<void> {
  for (let batch = 0; batch < PRUNE_BATCHES; batch++) {
    const [header] = (await runStatement(() => db.execute(sql`
      DELETE FROM ${sql.identifier(table)}
      WHERE window_started_at < ${windowStart} AND (locked_until IS NULL OR locked_until < ${now})
      LIMIT ${PRUNE_BATCH}`))) as unknown as [{ affectedRows: number }];
    if (header.affectedRows < PRUNE_BATCH) break;
  }
}

/**
 * At most once per PRUNE_INTERVAL_MS on a database (pruneDue, by `now`, the requests' clock),
 * deletes the counters whose window and lock are over (pruneOver), so the table stays small;
 * otherwise does nothing. A success runs it after settling its attempt (customer-throttle.ts
 * pruneAfterSuccess).
 */
export async function pruneCounters(db: ConnectorQueryable, now: Date): Promise<void> {
  if (!pruneDue(db, "service_authenticate_throttle", now)) return;
  await pruneOver(db, "service_authenticate_throttle", new Date(now.getTime() - WINDOW_MS), now);
}

/**
 * Records that a pending attempt got no answer (its check failed with an error): it is no
 * longer pending and counts as nothing.
 */
export async function addressAttemptAbandoned(db: ConnectorQueryable, attempt: AddressAttempt): Promise<void> {
  await settle(db, attempt, false);
}

/**
 * Settles a pending attempt: no longer pending; when it `failed`, one more failure, and the
 * address locked for LOCK_MS from `now` once failures reach ADDRESS_LIMIT (unless it is locked
 * already). locked_until is assigned first, reading failures before they change. Only while the
 * counter is in the window the attempt was counted in: once the window started again, the attempt
 * was cleared with the old one, and settling it changes nothing.
 */
async function settle(db: ConnectorQueryable, attempt: AddressAttempt, failed: false): Promise<void>;
async function settle(db: ConnectorQueryable, attempt: AddressAttempt, failed: true, now: Date): Promise<void>;
async function settle(db: ConnectorQueryable, attempt: AddressAttempt, failed: boolean, now?: Date): Promise<void> {
  const pending = sql`pending = GREATEST(CAST(pending AS SIGNED) - 1, 0)`;
  const same = sql`address_hash = ${attempt.addressHash} AND window_started_at = ${attempt.windowStartedAt}`;
  if (!failed) {
    await runStatement(() => db.execute(sql`UPDATE service_authenticate_throttle SET ${pending} WHERE ${same}`));
    return;
  }
  // Written out rather than through drizzle's update, which orders SET by the table's columns:
  // locked_until must read failures before they change.
  await runStatement(() => db.execute(sql`
    UPDATE service_authenticate_throttle SET
      locked_until = CASE WHEN failures + 1 >= ${ADDRESS_LIMIT} AND (locked_until IS NULL OR locked_until <= ${now!})
        THEN ${new Date(now!.getTime() + LOCK_MS)} ELSE locked_until END,
      failures = failures + 1,
      ${pending}
    WHERE ${same}`));
}
