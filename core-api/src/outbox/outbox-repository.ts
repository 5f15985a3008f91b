/**
 * Storage of the outbox worker's claims (outbox/outbox-worker.ts). A claim is one short
 * transaction: the due rows are locked with `SELECT ... FOR UPDATE SKIP LOCKED` (rows another
 * worker is claiming at that moment are skipped, not waited for), then each gets the claim's
 * lease token, one more attempt and `next_attempt_at` moved to the end of the lease. Until the
 * lease ends no other worker sees the row as due; a worker that dies mid-send leaves the row to
 * be claimed again when its lease ends, so nothing is lost. Every later write of the claiming
 * worker names its lease token: a worker whose lease ran out can no longer change the row.
 *
 * Rows with an ordering key are sent one at a time per key, in id order (see `claimDue`).
 */
import { and, asc, count, eq, exists, inArray, isNull, lt, lte, min, notExists, or, sql, type SQLWrapper } from "drizzle-orm";
import { alias } from "drizzle-orm/mysql-core";
import type { CoreDb } from "../db/client.ts";
import { outbox } from "../db/schema.ts";
import type { OutboxRow } from "./destination.ts";
import { runStatement, runTransaction } from "@service/shared/node";

/** Longest `last_error` kept (the column's length). */
export const LAST_ERROR_LENGTH = 512;

/** The outbox statuses: delivered rows are deleted. */
export const OUTBOX_STATUSES = ["pending", "failed"] as const;
/** `pending` or `failed`. */
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

/**
 * Claims up to `limit` rows due at `now` (pending, `next_attempt_at` <= now), oldest due first.
 * A deadlock with another worker's claim runs the claim again (the transaction runner); when
 * conflicts last until the database's deadline or MAX_ATTEMPTS, it fails with
 * TRANSACTION_RETRIES_EXHAUSTED.
 *
 * When nothing can be claimed (an idle worker's poll, once a second; or only rows held back by an
 * earlier row of their key) the claim ends after one plain read: no transaction, so no commit, no
 * marker row and, on a Galera cluster, no write set replicated to every node. Should that read
 * fail, the claim runs anyway and meets the failure under the transaction runner's retries.
 *
 * Order per key: a row with an `ordering_key` is not claimed while an earlier row (smaller id) of
 * the same key is still `pending`, whether it is being sent now (claimed) or waiting for its next
 * attempt; a `failed` earlier row no longer holds it back, and rows without a key are never held.
 * So the rows of one key are sent one at a time, each only after the one before it was delivered
 * (deleted) or given up (failed), and a retry of an earlier row with back-off keeps the later ones
 * waiting. The check is one range of index `outbox_ordering` (ordering_key, status, id) per
 * candidate.
 *
 * The order is that of the ids, which MariaDB hands out at insert. It is the commit order when
 * the transactions that enqueue for one key are serialised before they insert: the user writes
 * (add-user, alter-user, verify-phone-number, a webshop login's member) update or create the
 * user's row before they enqueue its `authentication_point` delivery, so a second write of the
 * same user waits on that row lock until the first one committed, and only then inserts its row.
 * An earlier row of a key is therefore committed before a later one exists. A second, plain read
 * after the locking one checks the candidates again: the candidate is locked (so committed) by
 * then, so this read sees every earlier row of its key, even one committed while the first
 * statement ran (its subquery may read an older snapshot than its locking read does).
 *
 * An admin's retry of a failed row (event-delivery-repository.ts) puts it back in line at its own
 * id: later rows of its key not claimed yet wait for it; one being sent at that moment is not
 * waited for.
 *
 * @param token this claim's lease token (32 characters)
 * @param leaseEnd when the lease ends: the rows are due again then if the claim is not settled
 * @returns the claimed rows as stored after the claim
 */
export async function claimDue(db: CoreDb, opts: { now: Date; leaseEnd: Date; limit: number; token: string }): Promise<OutboxRow[]> {
  if (opts.limit <= 0) return [];
  if (!(await anyDue(db, opts.now).catch(() => true))) return [];
  // Two claims moving rows within the due index can still deadlock: the transaction runner
  // runs the loser's claim again.
  return claimOnce(db, opts);
}

/**
 * Whether any row could be claimed at `now`: the claim's own condition, in one plain read (index
 * `outbox_due`, no lock). A row being claimed at that moment still counts, so the claim that
 * follows may find nothing; a row committed after the read is found at the next poll.
 */
async function anyDue(db: CoreDb, now: Date): Promise<boolean> {
  const rows = await db
    .select({ id: outbox.id })
    .from(outbox)
    .where(and(eq(outbox.status, "pending"), lte(outbox.nextAttemptAt, now), or(isNull(outbox.orderingKey), notExists(earlierPending(db)))))
    .limit(1);
  return rows.length > 0;
}

/** One claim transaction; READ COMMITTED, so it takes no gap locks next to the rows it claims. */
async function claimOnce(db: CoreDb, opts: { now: Date; leaseEnd: Date; limit: number; token: string }): Promise<OutboxRow[]> {
  return runTransaction(db, async (tx) => {
    const due = await tx
      .select({ id: outbox.id, orderingKey: outbox.orderingKey })
      .from(outbox)
      .where(and(eq(outbox.status, "pending"), lte(outbox.nextAttemptAt, opts.now), or(isNull(outbox.orderingKey), notExists(earlierPending(tx)))))
      .orderBy(asc(outbox.nextAttemptAt))
      .limit(opts.limit)
      .for("update", { skipLocked: true });
    let ids = due.map((r) => r.id);
    const keyed = due.filter((r) => r.orderingKey !== null).map((r) => r.id);
    if (keyed.length > 0) {
      // READ COMMITTED: a fresh snapshot, taken after the candidates were locked (see claimDue).
      const held = await tx.select({ id: outbox.id }).from(outbox).where(and(inArray(outbox.id, keyed), exists(earlierPending(tx))));
      const heldIds = new Set(held.map((r) => r.id));
      ids = ids.filter((id) => !heldIds.has(id));
    }
    if (ids.length === 0) return [];
    await tx
      .update(outbox)
      .set({ leaseToken: opts.token, nextAttemptAt: opts.leaseEnd, attempts: sql`${outbox.attempts} + 1`, lastAttemptDate: opts.now, lastModifiedDate: opts.now })
      .where(inArray(outbox.id, ids));
    return tx.select().from(outbox).where(inArray(outbox.id, ids));
  }, { transactionConfig: { isolationLevel: "read committed" } });
}

/** The other name of the outbox in the correlated subquery below. */
const earlier = alias(outbox, "earlier");

/**
 * The subquery "an earlier row of this row's ordering key is still pending" for a statement over
 * `outbox`: one range of index outbox_ordering. A plain read, never a locking one (MariaDB does
 * not carry the outer FOR UPDATE SKIP LOCKED into it: a row another claim holds still counts).
 */
function earlierPending(tx: Pick<CoreDb, "select">): SQLWrapper {
  return tx
    .select({ one: sql`1` })
    .from(earlier)
    .where(and(eq(earlier.orderingKey, outbox.orderingKey), eq(earlier.status, "pending"), lt(earlier.id, outbox.id)));
}

/**
 * Removes a delivered row (only after a 2xx answer).
 * @returns whether the claim still held the row (false: its lease had ended and another worker took it)
 */
export async function markDelivered(db: CoreDb, row: OutboxRow): Promise<boolean> {
  const [res] = await runStatement(() => db.delete(outbox).where(and(eq(outbox.id, row.id), eq(outbox.leaseToken, row.leaseToken!))));
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
  await runStatement(() => db
    .update(outbox)
    .set({ leaseToken: null, nextAttemptAt: at, lastStatusCode: failure.statusCode, lastError: clip(failure.error), lastModifiedDate: now })
    .where(and(eq(outbox.id, row.id), eq(outbox.leaseToken, row.leaseToken!))));
}

/** Keeps a row as `failed` (attempts used up, expired, or given up by its kind): visible to admins, never sent again unless retried. */
export async function markFailed(db: CoreDb, row: OutboxRow, failure: AttemptFailure, now: Date): Promise<void> {
  await runStatement(() => db
    .update(outbox)
    .set({ status: "failed", leaseToken: null, nextAttemptAt: now, lastStatusCode: failure.statusCode, lastError: clip(failure.error), lastModifiedDate: now })
    .where(and(eq(outbox.id, row.id), eq(outbox.leaseToken, row.leaseToken!))));
}

/**
 * Gives claimed rows back unsent (the worker is stopping): due at once for any worker, and the
 * attempt their claim counted is not counted.
 */
export async function releaseClaims(db: CoreDb, rows: readonly OutboxRow[], now: Date): Promise<void> {
  for (const row of rows) {
    await runStatement(() => db
      .update(outbox)
      .set({ leaseToken: null, nextAttemptAt: now, attempts: sql`GREATEST(${outbox.attempts} - 1, 0)`, lastModifiedDate: now })
      .where(and(eq(outbox.id, row.id), eq(outbox.leaseToken, row.leaseToken!))));
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
