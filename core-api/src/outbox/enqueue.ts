/**
 * Writing a delivery into the outbox (handbook, "Events"): inside the caller's transaction, so
 * the delivery exists exactly when the change that causes it is committed. A rolled-back change
 * leaves no row, so nothing is ever sent for it; a committed one is sent at least once by the
 * worker (outbox/outbox-worker.ts), whatever restarts in between.
 */
import type { SecretBox } from "@service/shared/secret-box";
import type { CoreDb } from "../db/client.ts";
import { outbox } from "../db/schema.ts";
import { ORDERING_KEY_LENGTH } from "../db/tables/outbox.ts";

/** The purpose payloads are sealed for (secret box). */
export const PAYLOAD_PURPOSE = "outbox.payload";

/** A transaction of the core database (or the database itself, for a write of its own). */
export type OutboxWriter = Pick<CoreDb, "insert">;

/** A delivery to enqueue. */
export interface Delivery {
  chainId: number;
  /** destination kind: a key of the registry (outbox/destination-kinds.ts), for example `webhook` */
  kind: string;
  /** what the kind delivers to (webhooks.id for `webhook`); null or absent when it needs none */
  targetId?: number | null;
  /** the event, for example `phone_number_verification` (sent as X-Service-Event) */
  eventType: string;
  /** JSON-serialisable payload; the kind builds the request body from it */
  payload: unknown;
  /** after this the delivery is not sent any more (it becomes failed); absent: never */
  expiresAt?: Date | null;
  /**
   * deliveries with the same key are sent one at a time, in the order they were enqueued
   * (outbox-repository.ts `claimDue`), at most ORDERING_KEY_LENGTH characters; null or absent:
   * no order (webhooks). The order is that of the row ids, which is the commit order only when
   * the producers of one key serialise their transactions before they enqueue (a row lock they
   * all take, as the user writes take the user's row): see `claimDue`.
   */
  orderingKey?: string | null;
}

/** What enqueue needs besides the transaction. */
export interface EnqueueEnv {
  secretBox: SecretBox;
  /** the request's clock: the first attempt is due at once */
  now: Date;
}

/**
 * Adds `delivery` to the outbox inside `tx` (the caller's transaction). The payload is sealed
 * (it may carry a one-time code); the delivery id is a fresh UUID, the Idempotency-Key of every
 * attempt.
 * @returns the row id and the delivery id
 * @throws Error for a kind, event type or ordering key that is empty or longer than the columns (a
 *   programming error), or the database's error (the caller's transaction then rolls back)
 */
export async function enqueue(tx: OutboxWriter, delivery: Delivery, env: EnqueueEnv): Promise<{ id: number; deliveryId: string }> {
  if (!delivery.kind || delivery.kind.length > 32) throw new Error(`outbox: bad destination kind ${JSON.stringify(delivery.kind)}`);
  if (!delivery.eventType || delivery.eventType.length > 64) throw new Error(`outbox: bad event type ${JSON.stringify(delivery.eventType)}`);
  const orderingKey = delivery.orderingKey ?? null;
  if (orderingKey !== null && (!orderingKey || orderingKey.length > ORDERING_KEY_LENGTH)) throw new Error(`outbox: bad ordering key ${JSON.stringify(orderingKey)}`);
  const deliveryId = crypto.randomUUID();
  const payload = await env.secretBox.seal(JSON.stringify(delivery.payload ?? null), PAYLOAD_PURPOSE);
  const [res] = await tx.insert(outbox).values({
    deliveryId,
    chainId: delivery.chainId,
    kind: delivery.kind,
    targetId: delivery.targetId ?? null,
    orderingKey,
    eventType: delivery.eventType,
    payload,
    status: "pending",
    attempts: 0,
    nextAttemptAt: env.now,
    expiresAt: delivery.expiresAt ?? null,
    createdDate: env.now,
    lastModifiedDate: env.now,
  });
  return { id: Number(res.insertId), deliveryId };
}
