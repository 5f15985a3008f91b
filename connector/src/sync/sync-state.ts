/**
 * Recording that the platform accepted a customer (reconcile.ts): its `last_hash`, the member's
 * user_id and member_number (they always come from the platform) and the member's
 * last_modified_date, in service_customer_data: one customer at a time (recordSynced), or a group
 * of customers synced before in one statement (recordSyncedTogether; record-groups.ts groups them).
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { ConnectorDb } from "../db/client.ts";
import { serviceCustomerData } from "../db/schema.ts";
import { runStatement, runTransaction } from "@service/shared/node";

/** What the platform's answer gives us to keep. */
export interface SyncedCustomer {
  customerId: number;
  chainId: number;
  /** the last_hash the customer had when it was read for sending (null: never synced) */
  expectedLastHash: string | null;
  /** the hash of the user info that was sent */
  lastHash: string;
  userId: number;
  /** null: the platform gave none (the chain has no member-number range); a known one is kept */
  memberNumber: string | null;
  platformModifiedAt: Date | null;
  now: Date;
}

/** The member the platform answered with is linked to another customer of the chain already. */
export class MemberLinkedElsewhereError extends Error {
  override name = "MemberLinkedElsewhereError";
}

/**
 * Stores the outcome of an accepted add-user, compare-and-set on last_hash: when the customer's
 * last_hash is no longer `expectedLastHash` (the platform's `update` came in while the call was
 * under way and recorded what the shop holds now), only the identifiers are written and that newer
 * last_hash stays.
 *
 * Each step is one statement on its own (autocommit), so the common cases cost one round trip: a
 * customer synced before is one UPDATE whose WHERE is the compare-and-set; a customer never synced
 * is one INSERT. Only when that misses (the row's last_hash moved on, or the row is not where it
 * was expected) come the other statements: the identifiers alone, or the insert / update after all.
 * @returns `stored`, or `superseded` when last_hash had moved on
 * @throws MemberLinkedElsewhereError when the user_id or member_number is another customer's
 *   (two customers of the chain matched one member, e.g. one email on two websites)
 */
export async function recordSynced(db: ConnectorDb, s: SyncedCustomer): Promise<"stored" | "superseded"> {
  const ids = { userId: s.userId, ...(s.memberNumber ? { memberNumber: s.memberNumber } : {}) };
  const synced = { ...ids, lastHash: s.lastHash, platformModifiedAt: s.platformModifiedAt, updatedAt: s.now };
  const row = eq(serviceCustomerData.customerId, s.customerId);
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      if (s.expectedLastHash === null || attempt > 0) {
        // Never synced (or the row vanished since): the row is new.
        const inserted = await insertIfAbsent(db, { customerId: s.customerId, serviceChainId: s.chainId, ...synced });
        if (inserted) return "stored";
      }
      const expected = s.expectedLastHash === null ? isNull(serviceCustomerData.lastHash) : eq(serviceCustomerData.lastHash, s.expectedLastHash);
      if (await changedRows(runStatement(() => db.update(serviceCustomerData).set(synced).where(and(row, expected))))) return "stored";
      if (await changedRows(runStatement(() => db.update(serviceCustomerData).set({ ...ids, updatedAt: s.now }).where(row)))) return "superseded";
      // No row at all (deleted since it was read): insert it.
    }
    throw new Error(`service_customer_data of customer ${s.customerId} could not be written (it kept appearing and vanishing)`);
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    throw new MemberLinkedElsewhereError(
      `member ${s.userId}${s.memberNumber ? ` (member number ${s.memberNumber})` : ""} is linked to another customer of chain ${s.chainId} already`,
    );
  }
}

/** The grouped UPDATE matched fewer rows than it was given: its transaction is rolled back. */
class NotAllStored extends Error {
  constructor() {
    super("Not every customer of the group still had the last_hash expected.");
  }
}

/**
 * Stores several accepted customers synced before (each with its expectedLastHash) in one
 * transaction of one UPDATE, their values joined in as a derived table, provided every one of
 * them still has the last_hash expected: then each is stored exactly as recordSynced stores it.
 * @returns false when not all of them could be (a last_hash moved on, a row gone, a customer given
 *   twice, a user_id or member_number of another customer, or one never synced): nothing was
 *   written, and each is for recordSynced alone, which tells what became of it
 * @throws the database's errors (unavailable, conflicts the transaction runner gave up on)
 */
export async function recordSyncedTogether(db: ConnectorDb, group: readonly SyncedCustomer[]): Promise<boolean> {
  if (group.length === 0) return true;
  if (group.some((s) => s.expectedLastHash === null)) return false;
  const rows = sql.join(group.map((s, i) => (i === 0
    ? sql`SELECT ${s.customerId} AS customer_id, ${s.expectedLastHash} AS expected, ${s.lastHash} AS last_hash, ${s.userId} AS user_id,
        ${s.memberNumber || null} AS member_number, ${s.platformModifiedAt} AS platform_modified_at, ${s.now} AS updated_at`
    : sql`SELECT ${s.customerId}, ${s.expectedLastHash}, ${s.lastHash}, ${s.userId}, ${s.memberNumber || null}, ${s.platformModifiedAt}, ${s.now}`)), sql` UNION ALL `);
  // Each assignment reads only the group's values (and the row's own member_number where none is
  // given), so the order a multi-table UPDATE assigns in does not matter. The hashes (lowercase
  // hex) compare as bytes: the derived table's text has the connection's collation, which a shop's
  // own database need not share (comparing the two would be an illegal mix of collations).
  const update = sql`UPDATE service_customer_data AS d JOIN (${rows}) AS v ON d.customer_id = v.customer_id AND d.last_hash = CAST(v.expected AS BINARY)
    SET d.user_id = v.user_id, d.member_number = COALESCE(v.member_number, d.member_number), d.last_hash = v.last_hash,
        d.platform_modified_at = v.platform_modified_at, d.updated_at = v.updated_at`;
  try {
    await runTransaction(db, async (tx) => {
      if ((await changedRows(tx.execute(update))) !== group.length) throw new NotAllStored();
    });
    return true;
  } catch (err) {
    if (err instanceof NotAllStored || causeOf(err)?.code === "ER_DUP_ENTRY") return false;
    throw err;
  }
}

/** The driver's error (or drizzle's wrapping of it) of a statement. */
const causeOf = (err: unknown) => (err as { cause?: { code?: string; message?: string } }).cause ?? (err as { code?: string; message?: string });

/** A duplicate key on another index than the primary key (the user_id or member_number of another customer). */
function isDuplicateKey(err: unknown): boolean {
  const cause = causeOf(err);
  return cause?.code === "ER_DUP_ENTRY" && !/PRIMARY/.test(cause.message ?? "");
}

/**
 * Inserts the row unless the customer has one already.
 * @returns false when the customer had a row (a concurrent insert, or one synced before)
 */
async function insertIfAbsent(db: ConnectorDb, values: typeof serviceCustomerData.$inferInsert): Promise<boolean> {
  try {
    await runStatement(() => db.insert(serviceCustomerData).values(values));
    return true;
  } catch (err) {
    const cause = causeOf(err);
    if (cause?.code === "ER_DUP_ENTRY" && /PRIMARY/.test(cause.message ?? "")) return false;
    throw err;
  }
}

/** The rows an UPDATE matched (mysql2 counts found rows, so a row written with equal values counts). */
async function changedRows(update: PromiseLike<unknown>): Promise<number> {
  const [header] = (await update) as [{ affectedRows: number }];
  return header.affectedRows;
}
