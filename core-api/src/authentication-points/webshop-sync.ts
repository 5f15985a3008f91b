/**
 * Platform -> webshop (handbook, "Sync between the webshop and the platform": "every user change
 * in the core API writes an outbox row in the same transaction; a worker sends the user info to
 * the connector's `update` (`create_if_not_exists` true)"), as the outbox's destination kind
 * `authentication_point` (outbox/destination-kinds.ts).
 *
 * Producer: `webshopSyncHook` gives the user writes (users/save-user.ts `onSaved`) a hook that,
 * inside the write's transaction, enqueues the changed user for the chain's authentication point.
 * Nothing is enqueued for a chain without one, nor for a change the authentication point made
 * itself (add-user / alter-user by the chain's identity-source client: spec, add-user: "remote
 * authentication points are updated too unless the request came from them"), so a change never
 * echoes back.
 *
 * Delivery: the row names the user (`target_id`); the payload, sealed by the outbox, carries only
 * the password when the change set one (the platform keeps only its hash, the webshop checks the
 * shopper's logins). The rows of one user share the ordering key `userOrderingKey`: the outbox
 * sends them one at a time in the order the changes committed, the next only once the one before
 * was delivered or failed for good, so a first change whose attempts fail is never applied after a
 * later one, and the password of the last change set is the one the shop keeps. The request is
 * built when it is sent, from the user as stored then (a row sent again after a lost answer carries
 * the latest state too), with the user's `last_modified_date`, by which the connector ignores a
 * user_info older than the one it holds. `POST {base_url}/rest/V1/service/customer/update` with the
 * integration token as bearer, body `{user_info, create_if_not_exists: true, service_chain_id}`;
 * every attempt carries the delivery's Idempotency-Key. The connector stores it and sets
 * `last_hash` to the hash of what it now holds.
 */
import type { SecretBox } from "@service/shared/secret-box";
import { SecretBoxError } from "@service/shared/secret-box";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { CoreDb } from "../db/client.ts";
import { serviceClients } from "../db/schema.ts";
import { NEWEST_API_VERSION } from "../http/api-version.ts";
import type { DestinationKind } from "../outbox/destination.ts";
import { enqueue, type OutboxWriter } from "../outbox/enqueue.ts";
import { userInfoOf } from "../users/user-info-record.ts";
import { findUser, type UserRow } from "../users/user-repository.ts";
import { findAuthenticationPoint, openAuthenticationPoint } from "./authentication-point-repository.ts";
import { WEBSHOP_CUSTOMER_PATH } from "./webshop-calls.ts";

/** The destination kind's name (`outbox.kind`). */
export const AUTHENTICATION_POINT_KIND = "authentication_point";
/** The event of a user change (`outbox.event_type`, sent as X-Service-Event). */
export const USER_CHANGED_EVENT = "user_changed";

/**
 * The outbox ordering key of user `userId`'s deliveries to chain `chainId`'s authentication
 * point: `authentication_point:<chainId>:user:<userId>` (at most 48 characters). Every write that
 * enqueues one (users/save-user.ts, users/phone-verification.ts, authentication-points/webshop-member.ts)
 * has updated or inserted the user's row first, so the writes of one user enqueue in commit
 * order (outbox-repository.ts `claimDue`).
 */
export function userOrderingKey(chainId: number, userId: number): string {
  return `${AUTHENTICATION_POINT_KIND}:${chainId}:user:${userId}`;
}

const payloadSchema = z.object({ password: z.string().optional() });

/** What a user write needs to tell the webshop. */
export interface WebshopSyncContext {
  /** the chain's authentication point, as its chain row read it (null: the chain has none) */
  authenticationPoint: unknown;
  /** whether the caller is the chain's identity-source client (the webshop itself) */
  fromAuthenticationPoint: boolean;
  /** the request's secret box (seals the payload) */
  secretBox: () => Promise<SecretBox>;
  now: Date;
  /** the password the change sets, when it sets one */
  password?: string | null;
}

/**
 * The `onSaved` hook of a user write (users/save-user.ts) that enqueues the saved user for the
 * chain's authentication point, in the write's transaction, under the user's ordering key
 * (`userOrderingKey`). The write must have updated or inserted the user's row before it calls the
 * hook (its row lock keeps the user's rows in commit order).
 * @returns undefined when nothing is to be sent: no authentication point, or the change came from it
 */
export function webshopSyncHook(sync: WebshopSyncContext): ((tx: OutboxWriter, user: UserRow) => Promise<void>) | undefined {
  if (sync.authenticationPoint === null || sync.authenticationPoint === undefined || sync.fromAuthenticationPoint) return undefined;
  return async (tx, user) => {
    await enqueue(tx, {
      chainId: user.chainId,
      kind: AUTHENTICATION_POINT_KIND,
      targetId: user.id,
      orderingKey: userOrderingKey(user.chainId, user.id),
      eventType: USER_CHANGED_EVENT,
      payload: sync.password ? { password: sync.password } : {},
    }, { secretBox: await sync.secretBox(), now: sync.now });
  };
}

/** The destination kind `authentication_point` (see the module comment). */
export const authenticationPointKind: DestinationKind = {
  async prepare({ row, payload }, ctx) {
    const point = await findAuthenticationPoint(ctx.db, row.chainId);
    if (!point) return { giveUp: "the chain has no authentication point any more" };
    let endpoint;
    try {
      endpoint = await openAuthenticationPoint(ctx.secretBox, point);
    } catch (err) {
      if (err instanceof SecretBoxError) return { giveUp: "the authentication point's integration token does not open (SERVICE_SECRET_KEY changed?)" };
      throw err;
    }
    const user = row.targetId === null ? null : await findUser(ctx.db, row.chainId, { id: row.targetId });
    if (!user) return { giveUp: `user ${row.targetId} of chain ${row.chainId} does not exist` };
    const { password } = payloadSchema.parse(payload ?? {});
    // The connector's `update` body (@service/shared/connector updateCustomerRequestSchema).
    const body = {
      user_info: { ...userInfoOf(user, NEWEST_API_VERSION), ...(password ? { password } : {}) },
      create_if_not_exists: true,
      service_chain_id: row.chainId,
    };
    return {
      request: {
        url: `${endpoint.baseUrl}${WEBSHOP_CUSTOMER_PATH}/update`,
        body: JSON.stringify(body),
        headers: { authorization: `Bearer ${endpoint.integrationToken}` },
        // The connector authenticates by the integration token; there is no signing secret to share.
        signingSecret: null,
      },
    };
  },
};

/** Whether service client `serviceClientId` is its chain's identity source (the webshop calling). */
export async function isIdentitySourceClient(db: CoreDb, serviceClientId: number): Promise<boolean> {
  const [row] = await db.select({ flag: serviceClients.isIdentitySource }).from(serviceClients).where(eq(serviceClients.id, serviceClientId)).limit(1);
  return row?.flag === true;
}
