/**
 * Storage of the outbox worker's claims (outbox/outbox-worker.ts). A claim is one short
 * transaction: the due rows are locked with `SELECT ... FOR UPDATE SKIP LOCKED` (rows another
 * worker is claiming at that moment are skipped, not waited for), then each gets the claim's
 * lease token, one more attempt and `next_attempt_at` moved to the end of the lease. Until the
 * lease ends no other worker sees the row as due; a worker that dies mid-send leaves the row to
 * be claimed again when its lease ends, so nothing is lost. Every later write of the claiming
 * worker names its lease token: a worker whose lease ran out can no longer change the row.
 */
import { and, asc, count, eq, inArray, lte, min, sql } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { outbox } from "../db/schema.ts";
import type { OutboxRow } from "./destination.ts";

/** Longest `last_error` kept (the column's length). */
export const LAST_ERROR_LENGTH = 512;

/** The outbox statuses: delivered rows are deleted. */
export const OUTBOX_STATUSES = ["pending", "failed"] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

/**
 * Claims up to `limit` rows due at `now` (pending, `next_attempt_at` <= now), oldest due first.
 * @param token this claim's lease token (32 characters)
 * @param leaseEnd when the lease ends: the rows are due again then if the claim is not settled
 * @returns the claimed rows as stored after the claim
 */
export async function claimDue(db: CoreDb, opts: { now: Date; leaseEnd: Date; limit: number; token: string }): Promise<OutboxRow[]> {
  if (opts.limit <= 0) return [];
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: outbox.id })
      .from(outbox)
      .where(and(eq(outbox.status, "pending"), lte(outbox.nextAttemptAt, opts.now)))
      .orderBy(asc(outbox.nextAttemptAt))
      .limit(opts.limit)
      .for("update", { skipLocked: true });
    if (due.length === 0) return [];
    const ids = due.map((r) => r.id);
    await tx
      .update(outbox)
      .set({ leaseToken: opts.token, nextAttemptAt: opts.leaseEnd, attempts: sql`${outbox.attempts} + 1`, lastAttemptDate: opts.now, lastModifiedDate: opts.now })
      .where(inArray(outbox.id, ids));
    return tx.select().from(outbox).where(inArray(outbox.id, ids));
  });
}

/**
 * Removes a delivered row (only after a 2xx answer).
 * @returns whether the claim still held the row (false: its lease had ended and another worker took it)
 */
export async function markDelivered(db: CoreDb, row: OutboxRow): Promise<boolean> {
  const [res] = await db.delete(outbox).where(and(eq(outbox.id, row.id), eq(outbox.leaseToken, row.leaseToken!)));
  return res.affectedRows > 0;
}

/** The outcome of a failed attempt. */
export interface AttemptFailure {
  /** HTTP status, when the receiver answered */
  statusCode: number | null;
  error: string;
}

/**
 * Schedules the next attempt of a row whose attempt failed.
 * @param at when it is due again
 */
export async function scheduleRetry(db: CoreDb, row: OutboxRow, failure: AttemptFailure, at: Date, now: Date): Promise<void> {
  await db
    .update(outbox)
    .set({ leaseToken: null, nextAttemptAt: at, lastStatusCode: failure.statusCode, lastError: clip(failure.error), lastModifiedDate: now })
    .where(and(eq(outbox.id, row.id), eq(outbox.leaseToken, row.leaseToken!)));
}

/** Keeps a row as `failed` (attempts used up, expired, or given up by its kind): visible to admins, never sent again unless retried. */
export async function markFailed(db: CoreDb, row: OutboxRow, failure: AttemptFailure, now: Date): Promise<void> {
  await db
    .update(outbox)
    .set({ status: "failed", leaseToken: null, nextAttemptAt: now, lastStatusCode: failure.statusCode, lastError: clip(failure.error), lastModifiedDate: now })
    .where(and(eq(outbox.id, row.id), eq(outbox.leaseToken, row.leaseToken!)));
}

/**
 * Gives claimed rows back unsent (the worker is stopping): due at once for any worker, and the
 * attempt their claim counted is not counted.
 */
export async function releaseClaims(db: CoreDb, rows: readonly OutboxRow[], now: Date): Promise<void> {
  for (const row of rows) {
    await db
      .update(outbox)
      .set({ leaseToken: null, nextAttemptAt: now, attempts: sql`GREATEST(${outbox.attempts} - 1, 0)`, lastModifiedDate: now })
      .where(and(eq(outbox.id, row.id), eq(outbox.leaseToken, row.leaseToken!)));
  }
}

/** Rows per status, and the creation date of the oldest pending one (for /metrics). */
export async function outboxDepth(db: CoreDb): Promise<{ byStatus: Record<OutboxStatus, number>; oldestPending: Date | null }> {
  const rows = await db.select({ status: outbox.status, n: count() }).from(outbox).groupBy(outbox.status);
  const byStatus: Record<OutboxStatus, number> = { pending: 0, failed: 0 };
  for (const r of rows) if ((OUTBOX_STATUSES as readonly string[]).includes(r.status)) byStatus[r.status as OutboxStatus] = Number(r.n);
  const [oldest] = await db.select({ at: min(outbox.createdDate) }).from(outbox).where(eq(outbox.status, "pending"));
  return { byStatus, oldestPending: oldest?.at ?? null };
}

function clip(text: string): string {
  return text.length <= LAST_ERROR_LENGTH ? text : `${text.slice(0, LAST_ERROR_LENGTH - 1)}…`;
}
