/**
 * Outbox rows <-> Resources records (resource `event_delivery`): the storage mapping derived from
 * the declaration (db/resource-columns.ts). The payload and the lease are never part of it.
 */
import { eventDeliveryResource } from "@service/shared/resources/event-delivery";
import { resourceColumns, type ResourceRecord } from "../db/resource-columns.ts";
import { outbox } from "../db/schema.ts";
import type { OutboxRow } from "./destination.ts";

/** The delivery's storage mapping. */
export const eventDeliveryColumns = resourceColumns(eventDeliveryResource, outbox, {
  exceptions: {
    destination_kind: { key: "kind", column: outbox.kind, read: (row: OutboxRow) => row.kind },
    next_attempt_date: { key: "nextAttemptAt", column: outbox.nextAttemptAt, read: (row: OutboxRow) => row.nextAttemptAt },
    expires_date: { key: "expiresAt", column: outbox.expiresAt, read: (row: OutboxRow) => row.expiresAt },
  },
});

/**
 * A stored delivery as a resource record.
 * @param chain the chain record to nest under `chain` (chains/nested-record.ts)
 */
export function eventDeliveryRecord(row: OutboxRow, chain: ResourceRecord): ResourceRecord {
  return { ...eventDeliveryColumns.toRecord(row), chain };
}
