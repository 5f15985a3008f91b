/**
 * Webhook configurations (handbook, "Events"; Resource `webhook`): where the chain's events go.
 */
import { boolean, index, int, mysqlTable, text, varchar } from "drizzle-orm/mysql-core";
import { timestamps } from "./columns.ts";

/**
 * A webhook of a chain (optionally of one of its campaigns) for one event type. The signing
 * secret and the provider settings are sealed with the secret box (purposes `webhook.secret`,
 * `webhook.provider_settings`) and never rendered. Soft-deleted; a deleted campaign takes its
 * webhooks with it (campaigns/campaign-webhooks.ts).
 */
export const webhooks = mysqlTable(
  "webhooks",
  {
    id: int("id").autoincrement().primaryKey(),
    chainId: int("chain_id").notNull(),
    /** campaigns.id; null for a webhook of the whole chain */
    campaignId: int("campaign_id"),
    /** for example `phone_number_verification` */
    eventType: varchar("event_type", { length: 64 }).notNull(),
    targetUrl: varchar("target_url", { length: 2048 }).notNull(),
    /** sealed (webhook.secret): the key of X-Service-Signature */
    signingSecret: text("signing_secret").notNull(),
    /** sealed JSON (webhook.provider_settings), for SMS: sender and api_key; null when none */
    providerSettings: text("provider_settings"),
    active: boolean("active").notNull().default(true),
    deleted: boolean("deleted").notNull().default(false),
    lastUpdatedBy: int("last_updated_by"),
    ...timestamps,
  },
  (t) => [
    index("webhooks_by_chain_event").on(t.chainId, t.eventType, t.deleted, t.active),
    index("webhooks_by_campaign").on(t.chainId, t.campaignId),
  ],
);
