/**
 * The user a user call changes (alter-user, verify-phone-number; handbook "The user"): a shopper
 * always acts on themselves, anyone else names the user by `user_id` (alter-user also as get-user
 * does: userNamedBy).
 */
import { USER_IDENTIFIERS } from "@service/shared/internal/get-user";
import type { RequestAuth } from "../auth/request-auth.ts";
import { shopperOf } from "../auth/context.ts";
import type { CoreDb } from "../db/client.ts";
import { ServiceError } from "../http/service-error.ts";
import { findUser, findUserById } from "../users/user-repository.ts";

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

/** The keys besides user_id that name a user (get-user's), with the chain they are looked up in. */
export interface UserNaming {
  user_id?: number;
  chain_id?: number;
  username?: string | null;
  member_number?: string | null;
  authentication_point_identifier?: string | null;
}
type OtherKey = Exclude<(typeof USER_IDENTIFIERS)[number], "user_id">;
const OTHER_KEYS: readonly OtherKey[] = ["username", "member_number", "authentication_point_identifier"];

/**
 * The user alter-user changes, named as get-user names one: a shopper always themselves; anyone
 * else by `user_id`, or else by exactly one of username, member_number,
 * authentication_point_identifier in `chain_id`'s chain. With user_id given the other keys are no
 * names but changes (a new username, ...).
 * @returns as userActedOn, plus `namedBy`: the key that named the user (not a change), if not user_id
 * @throws ServiceError parameter_missing (441) when nothing names the user, parameter_invalid
 *   (419) when several keys do, http_vars_missing (3) without chain_id,
 *   permission_denied_or_non_existent (68) when no user of that chain has the value
 */
export async function userNamedBy(auth: RequestAuth, db: CoreDb, naming: UserNaming):
  Promise<{ userId: number; chainId: number; byShopper: boolean; namedBy?: OtherKey }> {
  if (naming.user_id !== undefined || (await shopperOf(auth))) return userActedOn(auth, db, naming.user_id);
  const named = OTHER_KEYS.filter((k) => naming[k] != null && naming[k] !== "");
  const keys = USER_IDENTIFIERS.join(", ");
  if (named.length === 0) throw new ServiceError("parameter_missing", `Name the user by one of ${keys}.`);
  if (named.length > 1) throw new ServiceError("parameter_invalid", `Name the user by one of ${keys}, not several.`);
  const key = named[0]!;
  if (naming.chain_id === undefined) throw new ServiceError("http_vars_missing", `chain_id is required with ${key}.`);
  const value = naming[key]!;
  const by = key === "username" ? { username: value } : key === "member_number" ? { memberNumber: value } : { authenticationPointIdentifier: value };
  const target = await findUser(db, naming.chain_id, by);
  if (!target) throw new ServiceError(DENIED);
  return { userId: target.id, chainId: target.chainId, byShopper: false, namedBy: key };
}
