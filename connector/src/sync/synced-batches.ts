/**
 * Recording accepted customers in batches: what sync-state.ts recordSynced stores for one
 * customer, for many customers in one statement. A reconcile pass records one customer per
 * add-user call; one autocommit statement each costs the shop's database a round trip and a commit
 * (a log flush) per customer, as much as the platform's whole transaction for it. Here the
 * customers accepted meanwhile are stored together: one INSERT for those never synced, one UPDATE
 * for those synced before, whose compare-and-set on last_hash is done row by row in the statement.
 *
 * What stays exactly as with recordSynced:
 * - only what the platform accepted is queued, and a record resolves once its statement committed:
 *   the pass counts a customer as sent only then;
 * - the hash stored is the hash of what was sent, and only over the last_hash the customer had
 *   when it was read: a last_hash the platform's `update` wrote meanwhile stays (only the
 *   identifiers are written, as recordSynced's `superseded`);
 * - a crash before the batch committed loses the records, not the changes: the next pass finds
 *   those customers due and sends them again, which the platform takes as the same update.
 *
 * Anything a batch statement cannot settle for all of its customers at once (a duplicate key: a
 * member linked to another customer, a row that appeared since it was read; a row that vanished)
 * is done again customer by customer with recordSynced, which tells each its own outcome; a
 * customer already stored by the batch statement is then superseded by itself, which writes the
 * same identifiers again and nothing else.
 */
import { sql, type SQL } from "drizzle-orm";
import { runStatement } from "@service/shared/node";
import type { ConnectorDb } from "../db/client.ts";
import { serviceCustomerData as t } from "../db/schema.ts";
import { recordSynced, type SyncedCustomer } from "./sync-state.ts";

/** Customers per batch statement at most. */
export const DEFAULT_RECORD_BATCH = 200;
/** How long the first customer of a batch waits for others before the batch is written, ms. */
export const DEFAULT_RECORD_LINGER_MS = 20;

/** Stores accepted customers (recordSynced's outcome), several in one statement. */
export type SyncedRecorder = (s: SyncedCustomer) => Promise<void>;

interface Queued {
  s: SyncedCustomer;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * A recorder that writes the customers queued meanwhile in one batch: a batch is written once it
 * has `maxBatch` customers or its first has waited `lingerMs`, one batch at a time (the next one
 * fills while the last is written). `maxBatch` 1 writes each customer on its own at once
 * (recordSynced, several at a time).
 * @returns the recorder: resolves once `s` is stored (or superseded, see recordSynced); rejects
 *   with MemberLinkedElsewhereError (sync-state.ts) for that customer alone, and with the
 *   database's errors
 */
export function batchedRecorder(db: ConnectorDb, options: { maxBatch?: number; lingerMs?: number } = {}): SyncedRecorder {
  const maxBatch = Math.max(1, options.maxBatch ?? DEFAULT_RECORD_BATCH);
  const lingerMs = options.lingerMs ?? DEFAULT_RECORD_LINGER_MS;
  if (maxBatch === 1) return async (s) => void (await recordSynced(db, s));
  let queue: Queued[] = [];
  let writing = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lingered = false;

  const writeDue = async () => {
    writing = true;
    while (queue.length >= maxBatch || (lingered && queue.length > 0)) {
      const batch = queue.splice(0, maxBatch);
      if (queue.length === 0) lingered = false;
      const outcomes = await writeBatch(db, batch.map((q) => q.s));
      batch.forEach((q, i) => (outcomes[i] === undefined ? q.resolve() : q.reject(outcomes[i])));
    }
    writing = false;
    if (queue.length > 0 && timer === undefined && !lingered) timer = setTimeout(onLinger, lingerMs);
  };
  const onLinger = () => {
    timer = undefined;
    lingered = true;
    if (!writing) void writeDue();
  };
  return (s) => new Promise<void>((resolve, reject) => {
    queue.push({ s, resolve, reject });
    if (writing) return;
    if (queue.length >= maxBatch) {
      clearTimeout(timer);
      timer = undefined;
      void writeDue();
    } else if (timer === undefined) {
      timer = setTimeout(onLinger, lingerMs);
    }
  });
}

/**
 * Writes `batch` (module comment).
 * @returns per customer, undefined when stored (or superseded), or the error that customer ended in
 */
async function writeBatch(db: ConnectorDb, batch: SyncedCustomer[]): Promise<Array<unknown>> {
  const fresh = batch.filter((s) => s.expectedLastHash === null);
  const known = batch.filter((s) => s.expectedLastHash !== null);
  const settled = new Map<SyncedCustomer, unknown>();
  const settle = async (part: SyncedCustomer[], write: (part: SyncedCustomer[]) => Promise<boolean>) => {
    if (part.length === 0) return;
    let done: boolean;
    try {
      done = part.length > 1 && new Set(part.map((s) => s.customerId)).size === part.length && await write(part);
    } catch (err) {
      if (!isDuplicateKey(err)) {
        for (const s of part) settled.set(s, err);
        return;
      }
      done = false;
    }
    if (done) return;
    for (const s of part) settled.set(s, await recordSynced(db, s).then(() => undefined, (err: unknown) => err));
  };
  await settle(fresh, (part) => insertAll(db, part));
  await settle(known, (part) => updateAll(db, part));
  return batch.map((s) => settled.get(s));
}

/** One INSERT of the rows of customers never synced. @returns true (a clash throws) */
async function insertAll(db: ConnectorDb, part: SyncedCustomer[]): Promise<boolean> {
  await runStatement(() => db.insert(t).values(part.map((s) => ({
    customerId: s.customerId, serviceChainId: s.chainId, userId: s.userId, ...(s.memberNumber ? { memberNumber: s.memberNumber } : {}),
    lastHash: s.lastHash, platformModifiedAt: s.platformModifiedAt, updatedAt: s.now,
  }))));
  return true;
}

/**
 * One UPDATE of the rows of customers synced before: the identifiers and updated_at of each, and
 * its last_hash and platform_modified_at only where last_hash is still the one it was read with.
 * last_hash is assigned last: MySQL and MariaDB assign left to right and later assignments read the
 * values set before, so platform_modified_at's condition must still see the old last_hash (with
 * MariaDB's SIMULTANEOUS_ASSIGNMENT every assignment reads the old row, which gives the same).
 * @returns false when some row was not found (it vanished since it was read)
 */
async function updateAll(db: ConnectorDb, part: SyncedCustomer[]): Promise<boolean> {
  const byId = (value: (s: SyncedCustomer) => unknown, rows = part, otherwise?: SQL) =>
    sql`CASE ${t.customerId} ${sql.join(rows.map((s) => sql`WHEN ${s.customerId} THEN ${value(s)}`), sql` `)}${otherwise ? sql` ELSE ${otherwise}` : sql``} END`;
  const ifCurrent = (value: (s: SyncedCustomer) => unknown, column: SQL) =>
    sql`CASE ${sql.join(part.map((s) => sql`WHEN ${t.customerId} = ${s.customerId} AND ${t.lastHash} = ${s.expectedLastHash} THEN ${value(s)}`), sql` `)} ELSE ${column} END`;
  const numbered = part.filter((s) => s.memberNumber);
  const assignments = [
    sql`${sql.identifier(t.userId.name)} = ${byId((s) => sql.param(s.userId, t.userId))}`,
    ...(numbered.length ? [sql`${sql.identifier(t.memberNumber.name)} = ${byId((s) => sql.param(s.memberNumber, t.memberNumber), numbered, sql`${t.memberNumber}`)}`] : []),
    sql`${sql.identifier(t.updatedAt.name)} = ${byId((s) => sql.param(s.now, t.updatedAt))}`,
    sql`${sql.identifier(t.platformModifiedAt.name)} = ${ifCurrent((s) => sql.param(s.platformModifiedAt, t.platformModifiedAt), sql`${t.platformModifiedAt}`)}`,
    sql`${sql.identifier(t.lastHash.name)} = ${ifCurrent((s) => sql.param(s.lastHash, t.lastHash), sql`${t.lastHash}`)}`,
  ];
  const ids = sql.join(part.map((s) => sql`${s.customerId}`), sql`, `);
  const [header] = (await runStatement(() => db.execute(sql`UPDATE ${t} SET ${sql.join(assignments, sql`, `)} WHERE ${t.customerId} IN (${ids})`))) as unknown as [{ affectedRows: number }];
  return header.affectedRows === part.length;
}

/** A duplicate key (of any index) in the driver's error or drizzle's wrapping of it. */
function isDuplicateKey(err: unknown): boolean {
  const cause = (err as { cause?: { code?: string } }).cause ?? (err as { code?: string });
  return cause?.code === "ER_DUP_ENTRY";
}
