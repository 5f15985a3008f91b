/**
 * What handlers ask about their caller (spec, "Authentication"): a session at all, access to a
 * chain by the access table's row for what they do (auth/access-table.ts), and the admin to
 * record as the author of a change. Handlers never read credentials themselves; the request's
 * RequestAuth (auth/request-auth.ts) checks them once, with the chain.
 */
import type { Context } from "hono";
import type { ChainHead } from "../chains/chain-columns.ts";
import type { CoreDb } from "../db/client.ts";
import { ServiceError } from "../http/service-error.ts";
import { CALL_ACCESS, mayAttempt, verdictOf, type AccessRule, type CallName } from "./access-table.ts";
import { readCredentials } from "./credentials.ts";
import type { AuthContext, ChainGrant } from "./identity.ts";
import { addressRefused } from "./ip-allowlist.ts";
import { ACCESS_LEVELS, type AccessLevel, type AccessLevels } from "../db/permissions.ts";
import { RequestAuth, type AuthEnv } from "./request-auth.ts";

export type { AuthContext } from "./identity.ts";

/** The refusal a caller without access gets: 68 on internal calls, 544 on the Resources API. */
export type Denied = "permission_denied_or_non_existent" | "resource_not_found";

/**
 * Requires credentials (checked later, with the chain: auth/request-auth.ts).
 * @returns `auth`
 * @throws ServiceError no_valid_session (6, 401) for a request without any
 */
export function requireSession(auth: RequestAuth): RequestAuth {
  if (auth.kind === "anonymous") throw new ServiceError("no_valid_session", "This call needs a valid session.");
  return auth;
}

/**
 * Requires what `rule` asks on chain `chainId`: a caller kind the rule lists (refused before any
 * query when the credentials cannot be one), then, in the request's one authentication query,
 * valid credentials and the rule's level (admins: from an address the chain allows).
 * @param denied the error when access is missing; a chain that does not exist is refused the
 *   same way, so nothing reveals its existence
 * @returns the grant (the verified caller, the live chain's row, its levels)
 * @throws ServiceError no_valid_session (6) / access_token_invalid (266) for bad credentials;
 *   `denied` when the kind or level is missing; permission_denied_or_non_existent (68, 403)
 *   naming the address when the chain's allowed IP ranges exclude an admin's address
 */
export async function requireAccess(
  auth: RequestAuth,
  rule: AccessRule,
  chainId: number,
  denied: Denied,
): Promise<ChainGrant & { chain: ChainHead }> {
  requireSession(auth);
  if (auth.kind === "anonymous" || !mayAttempt(rule, auth.kind)) throw new ServiceError(denied);
  const grant = await auth.onChain(chainId);
  const verdict = verdictOf(rule, grant);
  if (verdict === "address_refused") throw addressRefused(grant.auth.kind === "admin" ? (grant.auth.clientIp ?? null) : null, `chain ${chainId}`);
  // The catalogue's description for every refusal: another chain's object must read like a missing one.
  if (verdict === "denied" || !grant.chain) throw new ServiceError(denied);
  return { ...grant, chain: grant.chain };
}

/**
 * Requires access for internal call `call` on chain `chainId`, by the call's row of the access
 * table (auth/access-table.ts CALL_ACCESS).
 * @returns the caller's levels on the chain (all false but read for a read_businesses-only token)
 * @throws ServiceError no_valid_session (6, 401) / access_token_invalid (266, 401) for missing or
 *   bad credentials; the row's refusal (68 permission_denied_or_non_existent, 403) for a caller
 *   kind or level the row does not allow, or a chain that does not exist; 68 naming the address
 *   when the chain's allowed IP ranges exclude an admin's address
 * @example const levels = await requireCallAccess(c.var.ctx.auth, "add-business", chainId);
 */
export async function requireCallAccess(auth: RequestAuth, call: CallName, chainId: number): Promise<AccessLevels> {
  const row = CALL_ACCESS[call];
  return levelsHeld(await requireAccess(auth, row, chainId, row.denied));
}

/**
 * The shopper making the request (a shopper session through an app, or a shopper access token),
 * or null for any other caller: the stored session decides, so an admin session sent with an app
 * hostname is no shopper. Costs no query for admin and privileged credentials.
 * @throws ServiceError no_valid_session (6, 401) for credentials that do not pass
 */
export async function shopperOf(auth: RequestAuth): Promise<{ userId: number; chainId: number } | null> {
  if (auth.kind !== "end_user" && auth.kind !== "app_session") return null;
  const me = await auth.identity();
  return me.kind === "end_user" ? { userId: me.userId, chainId: me.chainId } : null;
}

/**
 * The admin recorded as last_updated_by / changed_by: the admin's id, else null (tokens, shoppers).
 * @throws Error when a session's credentials have not been checked yet in this request (a
 *   handler asks only after requiring access)
 */
export function actorAdminIdOf(auth: RequestAuth): number | null {
  const caller = auth.verified;
  // A session sent with an app may be an admin's too: only its check tells.
  if ((auth.kind === "admin" || auth.kind === "app_session") && !caller) throw new Error("actorAdminIdOf: the session has not been checked yet");
  return caller?.kind === "admin" ? caller.userId : null;
}

/**
 * Checks the credentials of `c` without a chain: the caller as a handler would see it.
 * @throws ServiceError as RequestAuth.identity, and as readCredentials for bad headers
 */
export async function authenticate(c: Context, env: AuthEnv): Promise<AuthContext> {
  return new RequestAuth(readCredentials(c), env).identity();
}

const NO_LEVELS = Object.fromEntries(ACCESS_LEVELS.map((l) => [l, false])) as AccessLevels;

/** The levels a passed grant holds: a read_businesses-only token reads. */
function levelsHeld(grant: ChainGrant): AccessLevels {
  return grant.levels ? { ...grant.levels } : { ...NO_LEVELS, read: true };
}
