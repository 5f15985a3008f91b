/**
 * Webhook rows <-> Resources records (resource `webhook`): the storage mapping derived from the
 * declaration (db/resource-columns.ts). The two secrets are sealed by the repository (the secret
 * box is asynchronous) and never read back into a record.
 */
import { webhookResource } from "@service/shared/resources/webhook";
import { addedByRecordBuilder, resourceColumns, type ResourceRecord } from "../db/resource-columns.ts";
import { webhooks } from "../db/schema.ts";

/** A stored webhook. */
export type WebhookRow = typeof webhooks.$inferSelect;

/** The webhook's storage mapping. */
export const webhookColumns = resourceColumns(webhookResource, webhooks, {
  exceptions: {
    signing_secret: addedByRecordBuilder("sealed by webhooks/webhook-repository.ts; write-only, never read into a record"),
    provider_settings: addedByRecordBuilder("sealed by webhooks/webhook-repository.ts; write-only, never read into a record"),
  },
});

/**
 * A stored webhook as a resource record (without its secrets).
 * @param chain the chain record to nest under `chain` (chains/nested-record.ts)
 */
export function webhookRecord(row: WebhookRow, chain: ResourceRecord): ResourceRecord {
  return { ...webhookColumns.toRecord(row), chain };
}
