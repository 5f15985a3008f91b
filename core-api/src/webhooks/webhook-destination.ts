/**
 * Destination kind `webhook` of the outbox (outbox/destination.ts): a row's `target_id` is a
 * webhooks.id of its chain. At send time the webhook is read again, so a changed URL or secret
 * applies to the next attempt, and its target is checked again (SSRF, unless
 * WEBHOOK_ALLOW_PRIVATE: a name that now resolves to a private address is not sent to).
 *
 * Request: `POST <target_url>` with the body
 *   `{"id": <delivery id>, "type": <event type>, "created_date": <RFC 3339>, "chain_id": <id>,
 *     "data": <the event's payload>, "sender": <provider_settings.sender, when set>}`,
 * `Authorization: Bearer <provider_settings.api_key>` when set, and the worker's headers
 * (Idempotency-Key, X-Service-Event, X-Service-Signature keyed with the webhook's secret).
 *
 * Gives up (the delivery fails, visible as an event_delivery) when the webhook was deleted or
 * deactivated, its secrets no longer open, or its target is refused; retries when the target's
 * name does not resolve (DNS may come back).
 */
import type { DestinationKind, Preparation } from "../outbox/destination.ts";
import { assessTarget } from "../net/public-target.ts";
import { findWebhook, openWebhookSecrets } from "./webhook-repository.ts";

/** The name of this kind in `outbox.kind`. */
export const WEBHOOK_DESTINATION = "webhook";

/** The body a webhook receives. */
export interface WebhookEventBody {
  id: string;
  type: string;
  created_date: string;
  chain_id: number;
  data: unknown;
  sender?: string;
}

/** See the module comment. */
export const webhookDestination: DestinationKind = {
  async prepare({ row, payload }, ctx): Promise<Preparation> {
    if (row.targetId === null) return { giveUp: "the delivery names no webhook" };
    const webhook = await findWebhook(ctx.db, row.chainId, row.targetId, { includeDeleted: true });
    if (!webhook || webhook.deleted) return { giveUp: `webhook ${row.targetId} was deleted` };
    if (!webhook.active) return { giveUp: `webhook ${row.targetId} is inactive` };
    let secrets;
    try {
      secrets = await openWebhookSecrets(ctx.secretBox, webhook);
    } catch {
      return { giveUp: `the secrets of webhook ${row.targetId} do not open (SERVICE_SECRET_KEY changed?)` };
    }
    const target = await assessTarget(webhook.targetUrl, { allowPrivate: ctx.allowPrivate, resolveHost: ctx.resolveHost });
    if (!target.ok) {
      if (target.retryable) throw new Error(target.reason);
      return { giveUp: `refused at send time: ${target.reason}` };
    }
    const body: WebhookEventBody = {
      id: row.deliveryId,
      type: row.eventType,
      created_date: row.createdDate.toISOString().replace(/\.\d{3}Z$/, "Z"),
      chain_id: row.chainId,
      data: payload,
      ...(secrets.providerSettings?.sender ? { sender: secrets.providerSettings.sender } : {}),
    };
    const apiKey = secrets.providerSettings?.api_key;
    const headers: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {};
    return {
      request: {
        url: target.url.href,
        body: JSON.stringify(body),
        headers,
        signingSecret: secrets.signingSecret,
        publicOnly: !ctx.allowPrivate,
      },
    };
  },
};
