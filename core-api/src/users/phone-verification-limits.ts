/**
 * The limits on phone verification, per chain (chains/operator-settings.ts: the settings, their
 * defaults, and `npm run admin -- chain-setting` to change them), so that codes cannot be guessed
 * by re-sending and guessing again, nor SMS sent in bulk at someone else's cost:
 *
 * - sends: at most `sendsPerUser` codes to one user, `sendsPerNumber` to one number (whoever's it
 *   is) and `sendsPerChain` by the chain per window, and a number gets a code at most once per
 *   `sendIntervalSeconds`; a code held back is not sent (the user write that asked for it still
 *   succeeds: users/phone-verification.ts);
 * - wrong codes: at most `attemptsPerUser` per user and `attemptsPerNumber` per number per window,
 *   across codes (each code also allows only MAX_CODE_ATTEMPTS).
 *
 * Known trade-off of the per-number counts: whoever puts a number on their own account can use up
 * that number's sends or wrong codes for one window (never verify it); without them, many accounts
 * could share out the guesses or the SMS to one number.
 *
 * Counting: fixed windows of `windowSeconds`, one row per counter (phone_verification_counters),
 * the window starting at the counter's first event after the previous window ended. A check locks
 * its counters' rows (INSERT ... ON DUPLICATE KEY UPDATE, then SELECT ... FOR UPDATE, always in the
 * order number, user, chain) and counts in the caller's transaction: two racing sends to one
 * number are answered one after the other, so at most one passes the interval. On a Galera
 * cluster, where row locks are not shared between nodes, both would write the same counter row:
 * certification lets one commit and fails the other with a deadlock error, which the user write
 * retries (users/save-user.ts) and then finds the counter moved. Counters whose window and
 * interval are over count nothing any more and are pruned after phone writes (pruneCounters).
 */
import { and, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import { runStatement } from "@service/shared/node";
import type { CoreDb } from "../db/client.ts";
import { PHONE_LIMIT_DEFAULTS } from "../chains/operator-settings.ts";
import { chains, phoneVerificationCounters } from "../db/schema.ts";
import type { CoreTx } from "./member-numbers.ts";

/** A chain's limits (the defaults: PHONE_LIMIT_DEFAULTS). */
export type PhoneLimits = { -readonly [K in keyof typeof PHONE_LIMIT_DEFAULTS]: number };

/** What a counter counts (the `scope` column). */
type Scope = "send_number" | "send_user" | "send_chain" | "try_number" | "try_user";

/** One counter a check looks at, with its limit per window. */
interface Counter {
  scope: Scope;
  subject: string;
  limit: number;
  /** the least time between two counted events, in ms (a number's sends) */
  intervalMs?: number;
}

type CounterRow = typeof phoneVerificationCounters.$inferSelect;

/** A check's answer: go ahead, or wait `retryAfterSeconds` (whole seconds, at least 1) because of `scope`. */
export type LimitVerdict = { ok: true } | { ok: false; scope: Scope; retryAfterSeconds: number };

/**
 * The limits of chain `chainId` as stored (every column has its default), or the defaults when the
 * chain is gone.
 */
export async function readPhoneLimits(tx: CoreDb | CoreTx, chainId: number): Promise<PhoneLimits> {
  const [row] = await tx.select({
    sendIntervalSeconds: chains.phoneVerificationSendIntervalSeconds,
    sendsPerUser: chains.phoneVerificationSendsPerUser,
    sendsPerNumber: chains.phoneVerificationSendsPerNumber,
    sendsPerChain: chains.phoneVerificationSendsPerChain,
    attemptsPerUser: chains.phoneVerificationAttemptsPerUser,
    attemptsPerNumber: chains.phoneVerificationAttemptsPerNumber,
    windowSeconds: chains.phoneVerificationLimitWindowSeconds,
  }).from(chains).where(eq(chains.id, chainId));
  return row ?? { ...PHONE_LIMIT_DEFAULTS };
}

function sendCounters(limits: PhoneLimits, userId: number, phoneNumber: string): Counter[] {
  return [
    { scope: "send_number", subject: phoneNumber, limit: limits.sendsPerNumber, intervalMs: limits.sendIntervalSeconds * 1000 },
    { scope: "send_user", subject: String(userId), limit: limits.sendsPerUser },
    { scope: "send_chain", subject: "", limit: limits.sendsPerChain },
  ];
}

function tryCounters(limits: PhoneLimits, userId: number, phoneNumber: string): Counter[] {
  return [
    { scope: "try_number", subject: phoneNumber, limit: limits.attemptsPerNumber },
    { scope: "try_user", subject: String(userId), limit: limits.attemptsPerUser },
  ];
}

/**
 * Counts a code about to be sent to `phoneNumber` for user `userId`, when the chain's limits allow
 * it; counts nothing otherwise. In the transaction that issues the code (its counters stay locked
 * until it ends).
 * @param now the request's clock
 * @returns ok, or the first limit in the way (a number's interval, then the window counts) with
 *   the seconds until it lifts
 */
export async function reserveSend(tx: CoreTx, chainId: number, userId: number, phoneNumber: string, limits: PhoneLimits, now: Date): Promise<LimitVerdict> {
  return countIfAllowed(tx, chainId, sendCounters(limits, userId, phoneNumber), limits.windowSeconds * 1000, now, true);
}

/**
 * Whether a code for `phoneNumber` would be held back now (the counters read, not locked or
 * changed): why verify-phone-number finds no code pending.
 */
export async function sendLimitedNow(tx: CoreTx, chainId: number, userId: number, phoneNumber: string, limits: PhoneLimits, now: Date): Promise<LimitVerdict> {
  const counters = sendCounters(limits, userId, phoneNumber);
  return judge(counters, await readCounters(tx, chainId, counters, false), limits.windowSeconds * 1000, now);
}

/**
 * Whether user `userId` may try a code for `phoneNumber` now, their wrong codes and the number's
 * below the chain's limits. Locks the two counters until the transaction ends, so that
 * countWrongAttempt after it counts exactly.
 */
export async function attemptAllowed(tx: CoreTx, chainId: number, userId: number, phoneNumber: string, limits: PhoneLimits, now: Date): Promise<LimitVerdict> {
  return countIfAllowed(tx, chainId, tryCounters(limits, userId, phoneNumber), limits.windowSeconds * 1000, now, false);
}

/** Counts a wrong code of user `userId` for `phoneNumber` (after attemptAllowed, in its transaction). */
export async function countWrongAttempt(tx: CoreTx, chainId: number, userId: number, phoneNumber: string, limits: PhoneLimits, now: Date): Promise<void> {
  const counters = tryCounters(limits, userId, phoneNumber);
  await count(tx, chainId, counters, await readCounters(tx, chainId, counters, true), limits.windowSeconds * 1000, now);
}

async function countIfAllowed(tx: CoreTx, chainId: number, counters: Counter[], windowMs: number, now: Date, countNow: boolean): Promise<LimitVerdict> {
  await tx.insert(phoneVerificationCounters)
    .values(counters.map((c) => ({ chainId, scope: c.scope, subject: c.subject, count: 0, windowStartedAt: now, lastCountedAt: null })))
    // A no-op that takes the existing row's exclusive lock, in the order given.
    .onDuplicateKeyUpdate({ set: { count: sql`${phoneVerificationCounters.count}` } });
  const rows = await readCounters(tx, chainId, counters, true);
  const verdict = judge(counters, rows, windowMs, now);
  if (verdict.ok && countNow) await count(tx, chainId, counters, rows, windowMs, now);
  return verdict;
}

async function readCounters(tx: CoreTx, chainId: number, counters: Counter[], lock: boolean): Promise<Map<string, CounterRow>> {
  const query = tx.select().from(phoneVerificationCounters).where(and(
    eq(phoneVerificationCounters.chainId, chainId),
    inArray(phoneVerificationCounters.scope, counters.map((c) => c.scope)),
    inArray(phoneVerificationCounters.subject, counters.map((c) => c.subject)),
  ));
  const rows = lock ? await query.for("update") : await query;
  return new Map(rows.map((r) => [`${r.scope}:${r.subject}`, r]));
}

/** The count of `row` in the window that holds `now` (0 once its window ended). */
function currentCount(row: CounterRow | undefined, windowMs: number, now: Date): number {
  return row && row.windowStartedAt.getTime() + windowMs > now.getTime() ? row.count : 0;
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** The first counter in the way of one more event now, or ok. Pure. */
function judge(counters: Counter[], rows: Map<string, CounterRow>, windowMs: number, now: Date): LimitVerdict {
  for (const c of counters) {
    const row = rows.get(`${c.scope}:${c.subject}`);
    const last = row?.lastCountedAt?.getTime();
    if (c.intervalMs && last !== undefined && last + c.intervalMs > now.getTime()) {
      return { ok: false, scope: c.scope, retryAfterSeconds: seconds(last + c.intervalMs - now.getTime()) };
    }
    if (currentCount(row, windowMs, now) >= c.limit) {
      return { ok: false, scope: c.scope, retryAfterSeconds: seconds(row!.windowStartedAt.getTime() + windowMs - now.getTime()) };
    }
  }
  return { ok: true };
}

/** Adds one event to each counter (their rows locked), starting a new window where the last one ended. */
async function count(tx: CoreTx, chainId: number, counters: Counter[], rows: Map<string, CounterRow>, windowMs: number, now: Date): Promise<void> {
  for (const c of counters) {
    const row = rows.get(`${c.scope}:${c.subject}`);
    const running = row !== undefined && row.windowStartedAt.getTime() + windowMs > now.getTime();
    const values = { count: (running ? row.count : 0) + 1, windowStartedAt: running ? row.windowStartedAt : now, lastCountedAt: now };
    await tx.insert(phoneVerificationCounters).values({ chainId, scope: c.scope, subject: c.subject, ...values })
      .onDuplicateKeyUpdate({ set: values });
  }
}

/** Counters pruned per call at most. */
const PRUNE_BATCH = 100;

/**
 * Deletes up to PRUNE_BATCH counters of chain `chainId` that count nothing any more (their window
 * and, for a number, its send interval are over), so the table holds only live counters. Outside
 * any transaction (after a phone write committed): a counter a write has locked meanwhile is read
 * again under its lock and kept when it counts again.
 * @returns how many were deleted
 */
export async function pruneCounters(db: CoreDb, chainId: number, now: Date): Promise<number> {
  const limits = await readPhoneLimits(db, chainId);
  const windowOver = new Date(now.getTime() - limits.windowSeconds * 1000);
  const intervalOver = new Date(now.getTime() - limits.sendIntervalSeconds * 1000);
  const t = phoneVerificationCounters;
  const [res] = await runStatement(() => db.delete(t)
    .where(and(eq(t.chainId, chainId), lt(t.windowStartedAt, windowOver), or(isNull(t.lastCountedAt), lt(t.lastCountedAt, intervalOver))))
    .limit(PRUNE_BATCH));
  return res.affectedRows;
}
