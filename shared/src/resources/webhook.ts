/**
 * Webhook (spec, "Events": "The SMS provider, credentials and sending number are set in the
 * webhook configuration linked to the chain"; handbook, "Events"; not in the spec's field
 * tables): where the chain of X-Service-Chain-ID (or one of its campaigns) sends events of one
 * type. Super users only, reads included.
 *
 * - `target_url`: an http or https URL of at most 2,048 characters whose host is, and resolves
 *   only to, public addresses (unless the service runs with WEBHOOK_ALLOW_PRIVATE); else 419.
 * - `signing_secret` (16 to 256 characters) and `provider_settings` are write-only: stored
 *   encrypted (AES-256-GCM under SERVICE_SECRET_KEY), never rendered. Every delivery is signed
 *   `X-Service-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">` with the secret.
 * - `provider_settings` (the SMS provider's, for `phone_number_verification`): `sender` (the
 *   number or name the SMS comes from, sent in the event as `sender`) and `api_key` (sent as
 *   `Authorization: Bearer <api_key>`).
 * - `campaign`: a campaign of the chain, or null for the whole chain; deleting the campaign
 *   deletes its webhooks (delete-campaign).
 * - an inactive or deleted webhook receives nothing; deliveries still owed to it fail
 *   (Resource `event_delivery`).
 */
import { z } from "zod";
import { defineResource, field, reference } from "./meta.ts";

/** The event types a webhook can subscribe to (spec, "Events"). */
export const WEBHOOK_EVENT_TYPES = ["phone_number_verification"] as const;
/** An event type a webhook can subscribe to. */
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What an SMS provider needs besides the target URL. */
export const providerSettingsSchema = z.strictObject({
  sender: z.string().min(1).max(32).optional().describe("the number or name the SMS comes from"),
  api_key: z.string().min(1).max(512).optional().describe("sent as Authorization: Bearer <api_key>"),
});
/** The provider settings as given (write-only). */
export type ProviderSettings = z.infer<typeof providerSettingsSchema>;

/** The Webhook declaration (see the module comment). */
export const webhookResource = defineResource({
  name: "webhook",
  plural: "webhooks",
  description:
    "Where the chain in X-Service-Chain-ID (or one of its campaigns) sends events of one type, signed with its secret. " +
    "signing_secret and provider_settings are write-only. Super users only.",
  fields: z.object({
    active: field(z.boolean().default(true), { level: 1, filter: true, description: "an inactive webhook receives nothing" }),
    campaign: field(reference().nullable(), { level: 1, filter: true, reference: "campaign", description: "a campaign of the chain, or null for the whole chain" }),
    chain: field(reference(), { level: 1, readOnly: true, immutable: true, reference: "chain", description: "set from X-Service-Chain-ID" }),
    created_date: field(z.iso.datetime(), { level: 2, readOnly: true, immutable: true, sort: true }),
    deleted: field(z.boolean(), { level: 1, readOnly: true }),
    // Neither filter nor sort while there is one event type: every webhook would match.
    event_type: field(z.enum(WEBHOOK_EVENT_TYPES), { level: 1, requiredOnPost: true, description: `one of ${WEBHOOK_EVENT_TYPES.join(", ")}` }),
    id: field(z.int(), { level: 0, readOnly: true, identifier: true, filter: true, immutable: true, ops: ["get", "put", "patch", "delete"] }),
    last_modified_date: field(z.iso.datetime(), { level: 2, readOnly: true, immutable: true, sort: true }),
    last_updated_by: field(reference().nullable(), { level: 2, readOnly: true, reference: "admin_user" }),
    provider_settings: field(providerSettingsSchema.nullable(), {
      level: 3, writeOnly: true, description: "write-only, stored encrypted: {sender, api_key} of the SMS provider",
    }),
    signing_secret: field(z.string().min(16).max(256), {
      level: 3, writeOnly: true, requiredOnPost: true, description: "write-only, stored encrypted: the HMAC-SHA256 key of X-Service-Signature",
    }),
    target_url: field(z.string().min(1), {
      level: 1, requiredOnPost: true, description: "http(s) URL, at most 2048 characters, public addresses only (else 419)",
    }),
  }),
});

/** A webhook as the Resources API renders it at level 2 (no secrets). */
export type Webhook = Omit<z.infer<typeof webhookResource.fields>, "signing_secret" | "provider_settings">;
