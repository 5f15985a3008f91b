/**
 * The user a user call changes (alter-user, verify-phone-number; handbook "The user"): a shopper
 * always acts on themselves, anyone else names the user by `user_id`.
 */
import type { RequestAuth } from "../auth/request-auth.ts";
import { shopperOf } from "../auth/context.ts";
import type { CoreDb } from "../db/client.ts";
import { ServiceError } from "../http/service-error.ts";
import { findUserById } from "../users/user-repository.ts";

const DENIED = "permission_denied_or_non_existent";

/**
 * @param userIdParam the call's `user_id`, if given
 * @returns the user's id and chain, and whether the caller is that shopper
 * @throws ServiceError permission_denied_or_non_existent (544) for a shopper naming another user or
 *   an unknown user_id; parameter_missing (when not a shopper) without user_id. Access to the chain
 *   is the caller's to check next (requireAccess).
 */
export async function userActedOn(auth: RequestAuth, db: CoreDb, userIdParam: number | undefined): Promise<{ userId: number; chainId: number; byShopper: boolean }> {
  const me = await shopperOf(auth);
  if (me) {
    if (userIdParam !== undefined && userIdParam !== me.userId) throw new ServiceError(DENIED);
    return { userId: me.userId, chainId: me.chainId, byShopper: true };
  }
  if (userIdParam === undefined) throw new ServiceError("parameter_missing", "user_id is required.");
  const target = await findUserById(db, userIdParam);
  if (!target) throw new ServiceError(DENIED);
  return { userId: target.id, chainId: target.chainId, byShopper: false };
}
