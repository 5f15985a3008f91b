/**
 * Who is calling: the authentication context every handler receives (spec, "Authentication").
 * Handlers never read credentials themselves; they ask the context for access to a chain.
 *
 * Which credentials mean what:
 * - session headers alone: an admin session;
 * - `X-Service-App-Hostname` plus session headers: a shopper session, which must belong to that
 *   app's chain (the hostname marks an end-user request; an admin session is not accepted there);
 * - `X-Service-App-Hostname` plus `Authorization: Bearer <JWT>`: a shopper access token, validated
 *   with the app's chain settings (auth/jwt.ts). Its `sub` is the shopper's users.id as a decimal
 *   string: stable, never reused, and no personal data in the token (usernames may be emails and
 *   may change).
 * - `Authorization: Bearer {uuid}:{secret}` alone: a privileged service-client token
 *   (auth/privileged.ts), verified on every request.
 * Conflicting credentials (session headers together with any bearer token, or a privileged token
 * with X-Service-App-Hostname) are no_valid_session (6): the caller must say who it is once.
 */
import { and, eq } from "drizzle-orm";
import type { Context } from "hono";
import type { CoreDb } from "../db/client.ts";
import { users } from "../db/schema.ts";
import { ServiceError } from "../http/service-error.ts";
import { findAppChain, readAppHostname, UNKNOWN_APP } from "./apps.ts";
import { requireChainAddress } from "./ip-allowlist.ts";
import type { ShopperTokenVerifier } from "./jwt.ts";
import { ACCESS_LEVELS, loadAccessLevels, type AccessLevel, type AccessLevels } from "./permissions.ts";
import { authenticatePrivileged, parseAuthorization, privilegedGrant, type PrivilegedAuth } from "./privileged.ts";
import { findSession } from "./sessions.ts";

export type AuthContext =
  | { kind: "anonymous" }
  /** clientIp: the request's canonical client address, for the chains' allowed IP ranges; null or absent: unknown */
  | { kind: "admin"; userId: number; sessionId: number; clientIp?: string | null }
  /** a shopper (users.id) of chain `chainId`; sessionId null when authenticated by an access token */
  | { kind: "end_user"; userId: number; chainId: number; sessionId: number | null }
  /** a service client's access token; what it may do is decided per chain by its scopes */
  | PrivilegedAuth;

/** What authenticate needs besides the request. */
export interface AuthInput {
  db: CoreDb;
  now: Date;
  clientIp: string | null;
  shopperTokens: ShopperTokenVerifier;
}

const USER_ID = "x-service-session-user-id";
const SESSION_KEY = "x-service-session-key";

/**
 * Resolves the caller from the request headers (see the module comment).
 * @returns anonymous when no credentials are sent
 * @throws ServiceError no_valid_session (6, 401) when credentials are sent but do not name a live
 *   session or valid token of the right kind and chain, name an unknown app, or conflict;
 *   access_token_invalid (266, 401) for a malformed Authorization header or a privileged token
 *   that does not verify (auth/privileged.ts); the description says which
 */
export async function authenticate(c: Context, input: AuthInput): Promise<AuthContext> {
  const userIdHeader = c.req.header(USER_ID);
  const key = c.req.header(SESSION_KEY);
  const hasSession = userIdHeader !== undefined || key !== undefined;
  const hostname = readAppHostname(c);
  const bearer = parseAuthorization(c.req.header("authorization"));
  if (hasSession && bearer.kind !== "none") {
    throw new ServiceError("no_valid_session", "Send either session headers or an access token, not both.");
  }
  if (bearer.kind === "privileged") {
    // add-user (the one call that takes both) is not built: elsewhere the pair is a contradiction.
    if (hostname !== undefined) {
      throw new ServiceError("no_valid_session", "A privileged access token is not accepted with X-Service-App-Hostname.");
    }
    return authenticatePrivileged(input.db, bearer.tokenId, bearer.secret);
  }
  const jwt = bearer.kind === "jwt" ? bearer.token : undefined;
  if (jwt !== undefined && hostname === undefined) {
    throw new ServiceError("no_valid_session", "A shopper access token needs X-Service-App-Hostname.");
  }
  if (!hasSession && jwt === undefined) return { kind: "anonymous" };

  let chainId: number | null = null;
  if (hostname !== undefined) {
    const app = await findAppChain(input.db, hostname);
    if (!app) throw new ServiceError("no_valid_session", UNKNOWN_APP);
    chainId = app.chainId;
    if (jwt !== undefined) {
      const check = await input.shopperTokens.verify(jwt, app.jwt, input.now);
      if (!check.ok) throw new ServiceError("no_valid_session", `Access token refused: ${check.reason}.`);
      return { kind: "end_user", userId: await shopperOfSubject(input.db, app.chainId, check.subject), chainId, sessionId: null };
    }
  }

  if (!userIdHeader || !key || !/^\d{1,10}$/.test(userIdHeader.trim())) {
    throw new ServiceError("no_valid_session", "The session headers are incomplete or malformed.");
  }
  const kind = chainId === null ? "admin" : "end_user";
  const session = await findSession(input.db, kind, Number(userIdHeader.trim()), key.trim(), input.now);
  if (!session) throw new ServiceError("no_valid_session");
  if (chainId === null) return { kind: "admin", userId: session.userId, sessionId: session.id, clientIp: input.clientIp };
  // A shopper session is good only through an app of the chain it was opened for.
  if (session.chainId !== chainId) throw new ServiceError("no_valid_session", "The session belongs to another app's chain.");
  return { kind: "end_user", userId: session.userId, chainId, sessionId: session.id };
}

/**
 * Requires a logged-in caller.
 * @throws ServiceError no_valid_session (6, 401) for an anonymous caller
 */
export function requireSession(auth: AuthContext): Exclude<AuthContext, { kind: "anonymous" }> {
  if (auth.kind === "anonymous") throw new ServiceError("no_valid_session", "This call needs a valid session.");
  return auth;
}

/** What a chain operation needs: an admin access level, or the read_businesses grant of a token. */
export type ChainNeed = AccessLevel | "read_businesses";

/**
 * Requires access `need` on chain `chainId`:
 * - an admin needs the level (`read_businesses` means read) on the chain, from an address the
 *   chain allows (auth/ip-allowlist.ts);
 * - a privileged caller needs a scope naming the chain: `chain:{id}` grants every level but
 *   super_user, `read_businesses:{id}` only `read_businesses` (auth/privileged.ts);
 * - shoppers never hold chain access levels.
 * @param denied the error to raise when access is missing: internal calls use
 *   permission_denied_or_non_existent (68, 403), the Resources API resource_not_found (544, 404);
 *   a chain that does not exist is refused the same way, so nothing reveals its existence
 * @returns the caller's levels on the chain (all false but read for a read_businesses-only token)
 * @throws ServiceError no_valid_session (6) for an anonymous caller; `denied` for a shopper or when
 *   the access is missing; permission_denied_or_non_existent (68, 403) when the chain's allowed IP
 *   ranges exclude an admin's address
 */
export async function requireChainAccess(
  db: CoreDb,
  auth: AuthContext,
  chainId: number,
  need: ChainNeed,
  denied: "permission_denied_or_non_existent" | "resource_not_found" = "permission_denied_or_non_existent",
): Promise<AccessLevels> {
  const caller = requireSession(auth);
  // users.id and admin_users.id are different number spaces: never look a shopper up as an admin.
  // The default description for every refusal: another chain's object must read like a missing one.
  if (caller.kind === "end_user") throw new ServiceError(denied);
  const level: AccessLevel = need === "read_businesses" ? "read" : need;
  if (caller.kind === "privileged") {
    const grant = await privilegedGrant(db, caller, chainId);
    if (grant.levels?.[level]) return grant.levels;
    if (need === "read_businesses" && grant.readBusinesses) return { ...NO_LEVELS, read: true };
    throw new ServiceError(denied);
  }
  const levels = await loadAccessLevels(db, caller.userId, chainId);
  if (!levels || !levels[level]) throw new ServiceError(denied);
  await requireChainAddress(db, chainId, levels.super_user, caller.clientIp ?? null);
  return levels;
}

/**
 * The access levels `auth` holds on chain `chainId`, without raising: for checks that must
 * answer "not found" themselves (campaigns/access.ts). Admins: their stored levels (IP ranges are
 * not checked here); privileged: the levels of a `chain:{id}` scope; others: null.
 */
export async function chainLevelsOf(db: CoreDb, auth: AuthContext, chainId: number): Promise<AccessLevels | null> {
  if (auth.kind === "admin") return loadAccessLevels(db, auth.userId, chainId);
  if (auth.kind === "privileged") return (await privilegedGrant(db, auth, chainId)).levels;
  return null;
}

/** The admin recorded as last_updated_by / changed_by: the admin's id, else null (tokens, shoppers). */
export function actorAdminIdOf(auth: AuthContext): number | null {
  return auth.kind === "admin" ? auth.userId : null;
}

const NO_LEVELS = Object.fromEntries(ACCESS_LEVELS.map((l) => [l, false])) as AccessLevels;

/**
 * The shopper named by an access token's `sub` (users.id as a decimal string) in chain `chainId`.
 * @throws ServiceError no_valid_session (6) when no active shopper of the chain has that id
 */
async function shopperOfSubject(db: CoreDb, chainId: number, subject: string): Promise<number> {
  const id = /^[1-9]\d{0,9}$/.test(subject) ? Number(subject) : NaN;
  const [row] = Number.isSafeInteger(id)
    ? await db
        .select({ id: users.id, active: users.active })
        .from(users)
        .where(and(eq(users.id, id), eq(users.chainId, chainId)))
        .limit(1)
    : [];
  if (!row || !row.active) throw new ServiceError("no_valid_session", "Access token refused: its subject is no shopper of this chain.");
  return row.id;
}
