/**
 * EventDelivery (handbook, "Events"; not in the spec's field tables): one delivery of the core
 * API's outbox that is still owed, in the chain of X-Service-Chain-ID: `pending` (waiting for its
 * next attempt, or being sent) or `failed` (kept after its last attempt, or given up: expired,
 * its webhook deleted, its target refused). Delivered ones are gone. Super users only.
 *
 * What an operator does with it: find why a receiver got nothing (`last_status_code`,
 * `last_error`, `attempts`), look one up by the Idempotency-Key a receiver logged
 * (`?delivery_id=`), retry a failed one once the receiver is fixed (PUT/PATCH `status` =
 * `pending`: attempts start again, due at once), or drop it (DELETE). The payload is never shown:
 * it may carry a one-time code. Deliveries with the same `ordering_key` (one member's changes to
 * the webshop) go one at a time in id order: a pending one whose `next_attempt_date` has passed
 * but that has an earlier pending one of its key is waiting for that earlier delivery
 * (`?ordering_key=` lists the line).
 */
import { z } from "zod";
import { defineResource, field, reference } from "./meta.ts";

/** The statuses of a delivery still owed. */
export const EVENT_DELIVERY_STATUSES = ["pending", "failed"] as const;
/** A status of a delivery still owed. */
export type EventDeliveryStatus = (typeof EVENT_DELIVERY_STATUSES)[number];

const ro = { readOnly: true, immutable: true } as const;

/** The EventDelivery declaration (see the module comment). */
export const eventDeliveryResource = defineResource({
  name: "event_delivery",
  plural: "event_deliveries",
  description:
    "A delivery the service still owes (pending, or failed after its last attempt) in the chain of X-Service-Chain-ID. " +
    "PUT/PATCH status=pending retries a failed one at once; DELETE drops it. Super users only.",
  fields: z.object({
    attempts: field(z.int().min(0), { level: 1, ...ro, sort: true, description: "attempts made so far" }),
    chain: field(reference(), { level: 1, ...ro, reference: "chain" }),
    created_date: field(z.iso.datetime(), { level: 2, ...ro, sort: true, description: "when the change that caused it was committed" }),
    delivery_id: field(z.uuid(), { level: 1, ...ro, identifier: true, filter: true, description: "the Idempotency-Key header of every attempt" }),
    destination_kind: field(z.string().max(32), { level: 1, ...ro, filter: true, description: "where it goes: webhook, authentication_point" }),
    event_type: field(z.string().max(64), { level: 1, ...ro, filter: true, sort: true, description: "for example phone_number_verification" }),
    expires_date: field(z.iso.datetime().nullable(), { level: 2, ...ro, description: "after this it is not sent any more; null: never" }),
    id: field(z.int(), { level: 0, ...ro, identifier: true, filter: true, ops: ["get", "put", "patch", "delete"] }),
    last_attempt_date: field(z.iso.datetime().nullable(), { level: 2, ...ro, sort: true }),
    last_error: field(z.string().nullable(), { level: 1, ...ro, description: "why the last attempt failed" }),
    last_modified_date: field(z.iso.datetime(), { level: 2, ...ro, sort: true }),
    last_status_code: field(z.int().nullable(), { level: 1, ...ro, filter: true, description: "HTTP status of the last answer; null when none came" }),
    next_attempt_date: field(z.iso.datetime(), {
      level: 1, ...ro, sort: true,
      description: "when a pending delivery is due (while being sent: when its claim ends); with an ordering_key it also waits for every earlier pending delivery of that key",
    }),
    ordering_key: field(z.string().max(128).nullable(), {
      level: 1, ...ro, filter: true,
      description: "deliveries with the same key are sent one at a time, in id order, each once the earlier ones were delivered or failed (authentication_point:<chain>:user:<user> for a member's changes); null: no order",
    }),
    status: field(z.enum(EVENT_DELIVERY_STATUSES), {
      level: 1, filter: true, sort: true, requiredOnPost: false, ops: ["put", "patch"],
      description: "pending or failed; set pending to retry a failed delivery",
    }),
    target_id: field(z.int().nullable(), { level: 1, ...ro, filter: true, description: "the webhook id (destination_kind webhook)" }),
  }),
});

/** An event delivery as the Resources API renders it at level 2. */
export type EventDelivery = z.infer<typeof eventDeliveryResource.fields>;
