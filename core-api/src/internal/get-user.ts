/**
 * `GET /internal/get-user` (handbook, "The user": get-user): one user as the user info object.
 * Contract: `@service/shared/internal/get-user`. Response `results`: `{user, result_type: "get-user"}`.
 *
 * Who: admins with read access to the user's chain and chain-scope tokens name the user by
 * exactly one of user_id, username, member_number, authentication_point_identifier (the last three
 * with chain_id); a shopper reads their own profile (no parameter needed; a parameter naming
 * anyone else, or another chain, is refused).
 *
 * Checks, in order: credentials (6 / 266); the parameters' own errors (76, 419, 482); none of the
 * identifiers (admins and tokens) 441 parameter_missing, more than one 419; chain_id missing where
 * needed 3 http_vars_missing; then the user: a user that does not exist, one of a chain the caller
 * cannot read, and (for a shopper) anyone but themselves all answer 68
 * permission_denied_or_non_existent alike, so nothing reveals another chain's users.
 */
import { okBody } from "@service/shared";
import { getUserCall, USER_IDENTIFIERS, type GetUserResults } from "@service/shared/internal/get-user";
import type { Context } from "hono";
import { CALL_ACCESS } from "../auth/access-table.ts";
import { requireAccess, requireSession, shopperOf } from "../auth/context.ts";
import type { CoreDb } from "../db/client.ts";
import { readCallParams } from "../http/coerce.ts";
import { allParams } from "../http/params.ts";
import type { AppEnv } from "../auth/request-context.ts";
import { ServiceError } from "../http/service-error.ts";
import { userInfoOf } from "../users/user-info-record.ts";
import { findUser, findUserById, type UserRow } from "../users/user-repository.ts";

type Identifier = (typeof USER_IDENTIFIERS)[number];
const DENIED = "permission_denied_or_non_existent";

/** Handles get-user; see the module comment. */
export async function getUser(c: Context<AppEnv>): Promise<Response> {
  const { db, auth, version } = c.var.ctx;
  requireSession(auth);
  const values = readCallParams(getUserCall, await allParams(c));
  const named = USER_IDENTIFIERS.filter((k) => values[k] !== undefined && values[k] !== "");
  if (named.length > 1) throw new ServiceError("parameter_invalid", `Name the user by one of ${USER_IDENTIFIERS.join(", ")}, not several.`);
  const key = named[0];
  const row = CALL_ACCESS["get-user"];

  let user: UserRow | null;
  const me = await shopperOf(auth);
  if (me) {
    if (values.chain_id !== undefined && values.chain_id !== me.chainId) throw new ServiceError(DENIED);
    await requireAccess(auth, row, me.chainId, DENIED);
    user = await findUser(db, me.chainId, { id: me.userId });
    if (key && !(await names(db, user, key, values[key]!))) throw new ServiceError(DENIED);
  } else {
    if (!key) throw new ServiceError("parameter_missing", `Name the user by one of ${USER_IDENTIFIERS.join(", ")}.`);
    if (key === "user_id") {
      const target = await findUserById(db, values.user_id!);
      if (!target || (values.chain_id !== undefined && values.chain_id !== target.chainId)) throw new ServiceError(DENIED);
      await requireAccess(auth, row, target.chainId, DENIED);
      user = target;
    } else {
      if (values.chain_id === undefined) throw new ServiceError("http_vars_missing", `chain_id is required with ${key}.`);
      await requireAccess(auth, row, values.chain_id, DENIED);
      user = await findByKey(db, values.chain_id, key, String(values[key]));
    }
  }
  if (!user) throw new ServiceError(DENIED);
  const results: GetUserResults = { user: userInfoOf(user, version), result_type: "get-user" };
  return c.json(okBody(results));
}

function findByKey(db: CoreDb, chainId: number, key: Exclude<Identifier, "user_id">, value: string): Promise<UserRow | null> {
  if (key === "username") return findUser(db, chainId, { username: value });
  if (key === "member_number") return findUser(db, chainId, { memberNumber: value });
  return findUser(db, chainId, { authenticationPointIdentifier: value });
}

/** Whether identifier `key` = `value` names `user` (a shopper naming themselves). */
async function names(db: CoreDb, user: UserRow | null, key: Identifier, value: string | number): Promise<boolean> {
  if (!user) return false;
  if (key === "user_id") return value === user.id;
  const found = await findByKey(db, user.chainId, key, String(value));
  return found?.id === user.id;
}
