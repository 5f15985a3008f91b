/**
 * The outbox as the admins see it (resource `event_delivery`): reads confined to one chain, a
 * retry of a failed delivery, and dropping one. Rows a worker holds right now (a lease) are never
 * changed under it: a retry applies to failed rows only, and a drop of a row being sent waits for
 * nothing and wins (the worker's settling then finds no row; the receiver may still get that one
 * attempt).
 */
import { and, eq, type SQL } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import type { ListRequest } from "../db/resource-columns.ts";
import { findRow, listRows } from "../db/resource-rows.ts";
import { outbox } from "../db/schema.ts";
import type { OutboxRow } from "./destination.ts";
import { eventDeliveryColumns } from "./event-delivery-columns.ts";
import { runStatement } from "@service/shared/node";

/** The delivery named by `by` (id or delivery_id) in chain `chainId`, or null. */
export async function findEventDelivery(db: CoreDb, chainId: number, by: { id: number } | { deliveryId: string }): Promise<OutboxRow | null> {
  const key: SQL = "id" in by ? eq(outbox.id, by.id) : eq(outbox.deliveryId, by.deliveryId);
  return findRow(db, eventDeliveryColumns, [eq(outbox.chainId, chainId), key]);
}

/** One page of the chain's deliveries and the total (filters and sorts by the storage mapping). */
export async function listEventDeliveries(db: CoreDb, chainId: number, q: ListRequest): Promise<{ rows: OutboxRow[]; total: number }> {
  return listRows(db, eventDeliveryColumns, [eq(outbox.chainId, chainId)], q);
}

/**
 * Retries failed delivery `id` of the chain: pending again, attempts from zero, due at `now`.
 * A pending delivery is left as it is (it is retried anyway).
 * @returns the row afterwards, or null when the chain has no such delivery
 */
export async function retryEventDelivery(db: CoreDb, chainId: number, id: number, now: Date): Promise<OutboxRow | null> {
  await runStatement(() => db
    .update(outbox)
    .set({ status: "pending", attempts: 0, nextAttemptAt: now, leaseToken: null, lastModifiedDate: now })
    .where(and(eq(outbox.id, id), eq(outbox.chainId, chainId), eq(outbox.status, "failed"))));
  return findEventDelivery(db, chainId, { id });
}

/**
 * Drops delivery `id` of the chain: it is never sent (again).
 * @returns the row as it was, or null when the chain has no such delivery
 */
export async function dropEventDelivery(db: CoreDb, chainId: number, id: number): Promise<OutboxRow | null> {
  const row = await findEventDelivery(db, chainId, { id });
  if (!row) return null;
  const [res] = await runStatement(() => db.delete(outbox).where(and(eq(outbox.id, id), eq(outbox.chainId, chainId))));
  return res.affectedRows > 0 ? row : null;
}
