/**
 * Who is calling: the authentication context every handler receives (spec, "Authentication").
 * Handlers never read credentials themselves; they ask the context for access to a chain.
 * Privileged (bearer) and end-user contexts join this union with the authentication issue.
 */
import type { Context } from "hono";
import type { CoreDb } from "../db/client.ts";
import { ServiceError } from "../http/service-error.ts";
import { loadAccessLevels, type AccessLevel, type AccessLevels } from "./permissions.ts";
import { findSession } from "./sessions.ts";

export type AuthContext = { kind: "anonymous" } | { kind: "admin"; userId: number; sessionId: number };

const USER_ID = "x-service-session-user-id";
const SESSION_KEY = "x-service-session-key";

/**
 * Resolves the caller from the request headers.
 * @returns anonymous when no credentials are sent
 * @throws ServiceError no_valid_session (6, 401) when session headers are sent but do not name a live session
 */
export async function authenticate(c: Context, db: CoreDb, now: Date): Promise<AuthContext> {
  const userIdHeader = c.req.header(USER_ID);
  const key = c.req.header(SESSION_KEY);
  if (userIdHeader === undefined && key === undefined) return { kind: "anonymous" };
  if (!userIdHeader || !key || !/^\d{1,10}$/.test(userIdHeader.trim())) {
    throw new ServiceError("no_valid_session", "The session headers are incomplete or malformed.");
  }
  const session = await findSession(db, "admin", Number(userIdHeader.trim()), key.trim(), now);
  if (!session) throw new ServiceError("no_valid_session");
  return { kind: "admin", userId: session.userId, sessionId: session.id };
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
 * Requires access level `level` on chain `chainId`.
 * @param denied the error to raise when access is missing: internal calls use
 *   permission_denied_or_non_existent (68, 403), the Resources API resource_not_found (544, 404)
 * @returns the caller's access levels on the chain
 * @throws ServiceError no_valid_session (6) for an anonymous caller; `denied` when the level is missing
 */
export async function requireChainAccess(
  db: CoreDb,
  auth: AuthContext,
  chainId: number,
  level: AccessLevel,
  denied: "permission_denied_or_non_existent" | "resource_not_found" = "permission_denied_or_non_existent",
): Promise<AccessLevels> {
  const caller = requireSession(auth);
  const levels = await loadAccessLevels(db, caller.userId, chainId);
  if (!levels || !levels[level]) throw new ServiceError(denied);
  return levels;
}
