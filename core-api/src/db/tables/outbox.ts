/**
 * The outbox (handbook, "Events"; core-api/src/outbox/): one row per delivery the service owes
 * to somewhere outside it, written in the same transaction as the change that causes it, and
 * sent by the outbox worker. The one delivery mechanism of the core API: every outbound event
 * (webhooks, and the platform -> webshop sync) is a row here.
 */
import { bigint, char, datetime, index, int, mysqlTable, text, uniqueIndex, varchar } from "drizzle-orm/mysql-core";
import { timestamps } from "./columns.ts";

/** Longest ordering key, in characters (the column's length; outbox/enqueue.ts refuses longer ones). */
export const ORDERING_KEY_LENGTH = 128;

/**
 * A delivery. `pending` rows are due at `next_attempt_at`; a worker claims one by moving
 * `next_attempt_at` to the end of its lease and writing its `lease_token`, so no other worker
 * sends it meanwhile. A delivered row is deleted; after the last attempt it stays as `failed`.
 * Rows with the same `ordering_key` go one after another, in id order (outbox/outbox-repository.ts
 * `claimDue`): a row is not claimed while an earlier one of its key is still `pending`.
 */
export const outbox = mysqlTable(
  "outbox",
  {
    id: bigint("id", { mode: "number", unsigned: true }).autoincrement().primaryKey(),
    /** UUID sent as the Idempotency-Key header: the same on every attempt of the delivery */
    deliveryId: char("delivery_id", { length: 36 }).notNull(),
    chainId: int("chain_id").notNull(),
    /** destination kind, a key of the worker's registry (outbox/destination-kinds.ts), for example `webhook` */
    kind: varchar("kind", { length: 32 }).notNull(),
    /** what the kind delivers to: webhooks.id for `webhook`; null when the kind needs none */
    targetId: int("target_id"),
    /**
     * deliveries with the same key are sent one at a time, in the order of their ids (the order
     * their changes committed), for example `authentication_point:<chainId>:user:<userId>`;
     * null: no order (webhooks)
     */
    orderingKey: varchar("ordering_key", { length: ORDERING_KEY_LENGTH }),
    /** the event, for example `phone_number_verification` */
    eventType: varchar("event_type", { length: 64 }).notNull(),
    /** the event's JSON payload, sealed with the secret box (purpose `outbox.payload`): it may carry one-time codes */
    payload: text("payload").notNull(),
    /** `pending` or `failed` */
    status: varchar("status", { length: 16 }).notNull().default("pending"),
    /** attempts started so far (a claim counts one) */
    attempts: int("attempts").notNull().default(0),
    /** when the row is due; while claimed, the end of the claim's lease */
    nextAttemptAt: datetime("next_attempt_at", { mode: "date", fsp: 3 }).notNull(),
    /** the claim of the worker sending it now; null when unclaimed */
    leaseToken: char("lease_token", { length: 32 }),
    /** after this the delivery is pointless (a one-time code that expired): failed instead of sent; null: never */
    expiresAt: datetime("expires_at", { mode: "date", fsp: 3 }),
    lastAttemptDate: datetime("last_attempt_date", { mode: "date" }),
    /** HTTP status of the last answer; null when there was none (timeout, refused connection) */
    lastStatusCode: int("last_status_code"),
    /** why the last attempt failed, at most 512 characters */
    lastError: varchar("last_error", { length: 512 }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("outbox_unique_delivery_id").on(t.deliveryId),
    index("outbox_due").on(t.status, t.nextAttemptAt),
    index("outbox_by_chain").on(t.chainId, t.status, t.id),
    /** the claim's check for an earlier pending row of the same key: one range of this index */
    index("outbox_ordering").on(t.orderingKey, t.status, t.id),
  ],
);
