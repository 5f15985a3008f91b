/**
 * The reconcile's records of accepted customers (sync-state.ts), written in groups: a customer
 * synced before waits until RECORD_GROUP_SIZE such records are waiting, or RECORD_GROUP_WAIT_MS
 * have passed since the first of them, and the group is stored in one transaction of one UPDATE
 * (recordSyncedTogether) instead of a statement, a round trip and a commit each. Every caller still
 * gets its own answer, and only once its record is committed: `stored` for the whole group when
 * every last_hash was the one expected (the common case); otherwise the group wrote nothing and
 * each record is written alone (recordSynced), in parallel, with its own answer or error
 * (`superseded`, MemberLinkedElsewhereError). A customer never synced is written alone at once
 * (its INSERT). An error of the database (unavailable, conflicts the runner gave up on) is every
 * caller's of the group, as it would have been for each alone.
 *
 * What waits is the record, not the platform's calls: the reconcile's calls in flight do not wait
 * for it. A run that stops (its process killed) between a call and its group's commit sends that
 * customer again on the next pass, as it would had it stopped just before the record alone.
 */
import type { ConnectorDb } from "../db/client.ts";
import { recordSynced, recordSyncedTogether, type SyncedCustomer } from "./sync-state.ts";

/** Records stored together at most. */
export const RECORD_GROUP_SIZE = 64;
/** The longest a record waits for others to join its group, ms. */
export const RECORD_GROUP_WAIT_MS = 50;

/** What recordSynced answers. */
type Recorded = "stored" | "superseded";

interface Waiting {
  record: SyncedCustomer;
  resolve(value: Recorded): void;
  reject(err: unknown): void;
}

/** Records of one reconcile pass, grouped (module comment). */
export interface RecordGroups {
  /**
   * Stores `record` (recordSynced's answer and errors), once its group has committed.
   * @throws MemberLinkedElsewhereError as recordSynced; the database's errors
   */
  record(record: SyncedCustomer): Promise<Recorded>;
}

/**
 * Groups the records of `db` (module comment).
 * @param options.size records stored together at most (default RECORD_GROUP_SIZE)
 * @param options.waitMs the longest a record waits for a group to fill (default RECORD_GROUP_WAIT_MS)
 */
export function recordInGroups(db: ConnectorDb, options: { size?: number; waitMs?: number } = {}): RecordGroups {
  const size = Math.max(1, options.size ?? RECORD_GROUP_SIZE);
  const waitMs = options.waitMs ?? RECORD_GROUP_WAIT_MS;
  let waiting: Waiting[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const group = waiting;
    waiting = [];
    void storeGroup(db, group);
  };
  return {
    record(record) {
      if (record.expectedLastHash === null) return recordSynced(db, record);
      return new Promise<Recorded>((resolve, reject) => {
        waiting.push({ record, resolve, reject });
        if (waiting.length >= size) flush();
        else timer ??= setTimeout(flush, waitMs);
      });
    },
  };
}

/** Stores `group` together, or each record alone when not all of it could be; settles every caller. */
async function storeGroup(db: ConnectorDb, group: Waiting[]): Promise<void> {
  let together = false;
  try {
    together = group.length > 1 && (await recordSyncedTogether(db, group.map((w) => w.record)));
  } catch (err) {
    for (const w of group) w.reject(err);
    return;
  }
  if (together) {
    for (const w of group) w.resolve("stored");
    return;
  }
  await Promise.all(group.map((w) => recordSynced(db, w.record).then(w.resolve, w.reject)));
}
