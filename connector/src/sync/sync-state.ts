/**
 * Recording that the platform accepted a customer (reconcile.ts): its `last_hash`, the member's
 * user_id and member_number (they always come from the platform) and the member's
 * last_modified_date, in service_customer_data.
 */
import { eq } from "drizzle-orm";
import type { ConnectorDb } from "../db/client.ts";
import { serviceCustomerData } from "../db/schema.ts";

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
 * @returns `stored`, or `superseded` when last_hash had moved on
 * @throws MemberLinkedElsewhereError when the user_id or member_number is another customer's
 *   (two customers of the chain matched one member, e.g. one email on two websites)
 */
export async function recordSynced(db: ConnectorDb, s: SyncedCustomer): Promise<"stored" | "superseded"> {
  const ids = { userId: s.userId, ...(s.memberNumber ? { memberNumber: s.memberNumber } : {}) };
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx.select({ lastHash: serviceCustomerData.lastHash }).from(serviceCustomerData)
        .where(eq(serviceCustomerData.customerId, s.customerId)).for("update");
      if (!row) {
        await tx.insert(serviceCustomerData).values({
          customerId: s.customerId, serviceChainId: s.chainId, ...ids, lastHash: s.lastHash,
          platformModifiedAt: s.platformModifiedAt, updatedAt: s.now,
        });
        return "stored" as const;
      }
      if (row.lastHash === s.expectedLastHash) {
        await tx.update(serviceCustomerData)
          .set({ ...ids, lastHash: s.lastHash, platformModifiedAt: s.platformModifiedAt, updatedAt: s.now })
          .where(eq(serviceCustomerData.customerId, s.customerId));
        return "stored" as const;
      }
      await tx.update(serviceCustomerData).set({ ...ids, updatedAt: s.now }).where(eq(serviceCustomerData.customerId, s.customerId));
      return "superseded" as const;
    }, { isolationLevel: "read committed" });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause ?? (err as { code?: string; message?: string });
    if (cause?.code !== "ER_DUP_ENTRY") throw err;
    // A concurrent insert of this customer's row: the row exists now, so once more takes the update path.
    if (/PRIMARY|service_customer_data_customer_id/.test(cause.message ?? "")) return recordSynced(db, s);
    throw new MemberLinkedElsewhereError(
      `member ${s.userId}${s.memberNumber ? ` (member number ${s.memberNumber})` : ""} is linked to another customer of chain ${s.chainId} already`,
    );
  }
}
