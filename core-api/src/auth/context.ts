/**
 * Who is calling: the authentication context every handler receives (spec, "Authentication").
 * Handlers never read credentials themselves; they ask the context for access to a chain.
 * The privileged (bearer `id:secret`) context joins this union with the privileged-token work.
 *
 * Which credentials mean what:
 * - session headers alone: an admin session;
 * - `X-Service-App-Hostname` plus session headers: a shopper session, which must belong to that
 *   app's chain (the hostname marks an end-user request; an admin session is not accepted there);
 * - `X-Service-App-Hostname` plus `Authorization: Bearer <JWT>`: a shopper access token, validated
 *   with the app's chain settings (auth/jwt.ts). Its `sub` is the shopper's users.id as a decimal
 *   string: stable, never reused, and no personal data in the token (usernames may be emails and
 *   may change).
 */
import { and, eq } from "drizzle-orm";
import type { Context } from "hono";
import type { CoreDb } from "../db/client.ts";
import { users } from "../db/schema.ts";
import { ServiceError } from "../http/service-error.ts";
import { findAppChain, readAppHostname, UNKNOWN_APP } from "./apps.ts";
import { requireChainAddress } from "./ip-allowlist.ts";
import { looksLikeJwt, type ShopperTokenVerifier } from "./jwt.ts";
import { loadAccessLevels, type AccessLevel, type AccessLevels } from "./permissions.ts";
import { findSession } from "./sessions.ts";

export type AuthContext =
  | { kind: "anonymous" }
  /** clientIp: the request's canonical client address, for the chains' allowed IP ranges; null or absent: unknown */
  | { kind: "admin"; userId: number; sessionId: number; clientIp?: string | null }
  /** a shopper (users.id) of chain `chainId`; sessionId null when authenticated by an access token */
  | { kind: "end_user"; userId: number; chainId: number; sessionId: number | null };

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
 *   session or valid token of the right kind and chain, or name an unknown app; the description says which
 */
export async function authenticate(c: Context, input: AuthInput): Promise<AuthContext> {
  const userIdHeader = c.req.header(USER_ID);
  const key = c.req.header(SESSION_KEY);
  const hasSession = userIdHeader !== undefined || key !== undefined;
  const hostname = readAppHostname(c);
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header("authorization") ?? "")?.[1];
  const jwt = bearer !== undefined && looksLikeJwt(bearer) ? bearer : undefined;
  if (jwt !== undefined && hostname === undefined) {
    throw new ServiceError("no_valid_session", "A shopper access token needs X-Service-App-Hostname.");
  }
  if (!hasSession && jwt === undefined) return { kind: "anonymous" };
  if (hasSession && jwt !== undefined) {
    throw new ServiceError("no_valid_session", "Send either session headers or an access token, not both.");
  }

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

/**
 * Requires admin access level `level` on chain `chainId`, from an address the chain allows
 * (auth/ip-allowlist.ts). Shoppers never hold admin levels.
 * @param denied the error to raise when access is missing: internal calls use
 *   permission_denied_or_non_existent (68, 403), the Resources API resource_not_found (544, 404)
 * @returns the caller's access levels on the chain
 * @throws ServiceError no_valid_session (6) for an anonymous caller; `denied` for a shopper or when
 *   the level is missing; permission_denied_or_non_existent (68, 403) when the chain's allowed IP
 *   ranges exclude the request's address
 */
export async function requireChainAccess(
  db: CoreDb,
  auth: AuthContext,
  chainId: number,
  level: AccessLevel,
  denied: "permission_denied_or_non_existent" | "resource_not_found" = "permission_denied_or_non_existent",
): Promise<AccessLevels> {
  const caller = requireSession(auth);
  // users.id and admin_users.id are different number spaces: never look a shopper up as an admin.
  if (caller.kind !== "admin") throw new ServiceError(denied, "This operation is not available to shoppers.");
  const levels = await loadAccessLevels(db, caller.userId, chainId);
  if (!levels || !levels[level]) throw new ServiceError(denied);
  await requireChainAddress(db, chainId, levels.super_user, caller.clientIp ?? null);
  return levels;
}

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
