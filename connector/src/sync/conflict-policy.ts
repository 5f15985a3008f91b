/**
 * One customer to the platform, "the newer change wins" (handbook, "Sync between the webshop and
 * the platform"; each side's updated_at). A customer linked to a member is sent with add-user's
 * `if_unmodified_since` = the member's last_modified_date recorded at the last sync (without one:
 * the shop's change), so the platform itself refuses, atomically, to overwrite a member changed
 * since, and answers with the member as it is (`precondition_failed`). If that change is later
 * than the shop's (the latest updated_at of the customer row, its address and its subscription),
 * the platform's version is written into the shop (as `update` does); otherwise the shop's is sent
 * again, conditional on the version just seen (and with its member number, which always comes
 * from the platform). One call per customer unless both sides changed.
 *
 * Once the platform has accepted a customer its last_hash, user_id and member_number are stored
 * (sync-state.ts; the reconcile stores customers synced before in groups, record-groups.ts), so a
 * run that crashes is resumed by the next one without sending again what was acknowledged and
 * stored.
 */
import { updateCustomerRequestSchema, type UserInfoObject } from "@service/shared/connector";
import type { UserInfo } from "@service/shared/user-info";
import type { ConnectorDb } from "../db/client.ts";
import { lastShopChange, parsePlatformDateTime } from "../customers/mapping.ts";
import { updateCustomerFromUserInfo } from "../customers/update-customer.ts";
import type { ScannedCustomer } from "./customer-pages.ts";
import { addUserParamsOf } from "./member-params.ts";
import { PlatformCallError, type AddUserAnswer, type PlatformClient } from "./platform-client.ts";
import { recordSynced, type SyncedCustomer } from "./sync-state.ts";

/** add-user calls for one customer whose member keeps changing under it before it is left to the next pass. */
const MAX_CONDITIONAL_ATTEMPTS = 3;

/** A customer found due for sending: as read, its user info object and that object's last_hash. */
export interface DueCustomer {
  bundle: ScannedCustomer;
  info: UserInfoObject;
  hash: string;
}

/** What syncing one customer needs. */
export interface CustomerSyncContext {
  db: ConnectorDb;
  clock: () => Date;
  chainId: number;
  client: PlatformClient;
  /** stores an accepted customer (default: recordSynced, alone; the reconcile groups them: record-groups.ts) */
  record?: (synced: SyncedCustomer) => Promise<unknown>;
}

/** What the platform made of a customer: it accepted the shop's version (the member as it now is), or the shop took the platform's newer one. */
export type Negotiated = { outcome: "accepted"; user: UserInfo } | { outcome: "pulled" };

/**
 * Sends `d` to the platform, or takes the platform's newer version into the shop (module comment).
 * The calls to the platform, not the recording of the outcome: recordAccepted follows an accepted one.
 * @returns `accepted` with the member as the platform now holds it, or `pulled` (the platform's
 *   newer member written into the shop)
 * @throws PlatformCallError from add-user (its `kind` says whether the customer or the whole chain
 *   is concerned), also kind `invalid_answer` when a precondition answer's member carries no
 *   datetime or is nothing `update` takes, and `refused` (`precondition_failed`) when the member
 *   changed again during each of MAX_CONDITIONAL_ATTEMPTS attempts; ConnectorError when the shop
 *   cannot take the platform's version (its email is another customer's); the database's errors
 */
export async function negotiate(ctx: CustomerSyncContext, d: DueCustomer): Promise<Negotiated> {
  const service = d.bundle.service;
  let memberNumber = service?.memberNumber ?? null;
  // Linked: overwrite the member only if the platform has not changed it since we last saw it.
  let since = service?.userId ? (service.platformModifiedAt ?? lastShopChange(d.bundle)) : undefined;
  let answer: AddUserAnswer = await ctx.client.addUser(addUserParamsOf(d.info, memberNumber), { ifUnmodifiedSince: since });
  for (let attempt = 1; answer.preconditionFailed; attempt++) {
    const member = answer.user;
    const platformAt = parsePlatformDateTime(member.last_modified_date);
    if (platformAt === null) {
      throw new PlatformCallError(`POST /internal/add-user: the member's last_modified_date ${JSON.stringify(member.last_modified_date)} is no datetime`, "invalid_answer", 200);
    }
    if (platformAt > lastShopChange(d.bundle)) {
      await takePlatformVersion(ctx, member);
      return { outcome: "pulled" };
    }
    if (attempt >= MAX_CONDITIONAL_ATTEMPTS) {
      throw new PlatformCallError(`POST /internal/add-user: the member changed again during each of ${attempt} attempts; left to the next pass`, "refused", 200, "precondition_failed");
    }
    // The platform changed the member since the last sync, but the shop's change is newer: send it
    // again, conditional on the version just seen.
    since = platformAt;
    memberNumber = member.member_number ?? memberNumber;
    answer = await ctx.client.addUser(addUserParamsOf(d.info, memberNumber), { ifUnmodifiedSince: since });
  }
  return { outcome: "accepted", user: answer.user };
}

/**
 * Stores that the platform accepted `d` as `user` (sync-state.ts recordSynced, or ctx.record): the
 * hash that was sent as its last_hash, the member's user_id, member_number and last_modified_date.
 * @throws MemberLinkedElsewhereError (sync-state.ts); the database's errors
 */
export async function recordAccepted(ctx: CustomerSyncContext, d: DueCustomer, user: UserInfo): Promise<void> {
  const record = ctx.record ?? ((synced: SyncedCustomer) => recordSynced(ctx.db, synced));
  await record({
    customerId: d.bundle.customer.entityId,
    chainId: ctx.chainId,
    expectedLastHash: d.bundle.service?.lastHash ?? null,
    lastHash: d.hash,
    userId: user.id,
    memberNumber: user.member_number,
    platformModifiedAt: parsePlatformDateTime(user.last_modified_date),
    now: ctx.clock(),
  });
}

/**
 * The platform's change is the newer one: the shop takes it, as `update` would.
 * @throws PlatformCallError `invalid_answer` when the member is nothing `update` takes (named in the message)
 */
async function takePlatformVersion(ctx: CustomerSyncContext, member: UserInfo): Promise<void> {
  const request = updateCustomerRequestSchema.safeParse({ user_info: member, create_if_not_exists: false, service_chain_id: ctx.chainId });
  if (!request.success) {
    const why = request.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new PlatformCallError(`POST /internal/add-user: the member the platform answered with cannot be written into the shop (${why})`, "invalid_answer", 200);
  }
  await updateCustomerFromUserInfo({ db: ctx.db, clock: ctx.clock }, request.data);
}
