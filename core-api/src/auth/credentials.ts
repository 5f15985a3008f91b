/**
 * What a request's credential headers claim (spec, "Authentication"; "Common request headers"),
 * read without the database. They are checked later, once, together with the caller's access to
 * the chain the request needs (auth/request-auth.ts), so a request costs one authentication query.
 *
 * Which credentials mean what:
 * - session headers alone: an admin session (a shopper session needs its app);
 * - `X-Service-App-Hostname` plus session headers: the stored session decides who is calling
 *   (auth/session-grant.ts): an admin session is served as that admin (the hostname is then
 *   ignored), a shopper session must belong to that app's chain;
 * - `X-Service-App-Hostname` plus `Authorization: Bearer <JWT>`: a shopper access token, validated
 *   with the app's chain settings (auth/jwt.ts). Its `sub` is the shopper's users.id as a decimal
 *   string: stable, never reused, and no personal data in the token;
 * - `Authorization: Bearer {uuid}:{secret}` alone: a privileged service-client token
 *   (auth/privileged.ts);
 * - none of these: anonymous (a hostname alone is no credential).
 * Conflicting credentials (session headers together with any bearer token, a shopper token
 * without X-Service-App-Hostname) are no_valid_session (6): the caller must say who it is once.
 * A privileged token with X-Service-App-Hostname is no_valid_session too, except on add-user,
 * whose handler accepts the app (RequestAuth.acceptAppHostname).
 */
import type { Context } from "hono";
import { ServiceError } from "../http/service-error.ts";
import { readAppHostname } from "./apps.ts";
import { parseAuthorization } from "./privileged.ts";
import { requestHeader } from "../http/request-headers.ts";

/** A session named by its headers. */
export interface SessionClaim {
  /** X-Service-Session-User-ID */
  userId: number;
  /** X-Service-Session-Key, trimmed */
  key: string;
}

/** The credentials of one request, unchecked. */
export type Credentials =
  | { kind: "anonymous" }
  /** session headers without an app: only an admin session passes */
  | { kind: "admin"; session: SessionClaim }
  /** session headers with an app: an admin's session, or a shopper's of that app's chain */
  | { kind: "app_session"; hostname: string; session: SessionClaim }
  /** a shopper access token through an app */
  | { kind: "end_user"; hostname: string; token: string }
  /** hostname: X-Service-App-Hostname sent along, accepted only where a handler asks for it (add-user) */
  | { kind: "privileged"; tokenId: string; secret: string; hostname?: string };

const USER_ID = "x-service-session-user-id";
const SESSION_KEY = "x-service-session-key";

/**
 * Reads the credential headers of `c` (see the module comment).
 * @throws ServiceError access_token_invalid (266, 401) for a malformed Authorization header
 *   (auth/privileged.ts parseAuthorization); no_valid_session (6, 401) for conflicting
 *   credentials or incomplete or malformed session headers; the description says which
 */
export function readCredentials(c: Context): Credentials {
  const userIdHeader = requestHeader(c, USER_ID);
  const keyHeader = requestHeader(c, SESSION_KEY);
  const hasSession = userIdHeader !== undefined || keyHeader !== undefined;
  const hostname = readAppHostname(c);
  const bearer = parseAuthorization(requestHeader(c, "authorization"));
  if (hasSession && bearer.kind !== "none") {
    throw new ServiceError("no_valid_session", "Send either session headers or an access token, not both.");
  }
  if (bearer.kind === "privileged") {
    // add-user is the one call that takes both (the app names the user's chain and signup
    // channel); everywhere else the pair is refused when the token is checked (request-auth.ts).
    const app = hostname === undefined ? {} : { hostname };
    return { kind: "privileged", tokenId: bearer.tokenId, secret: bearer.secret, ...app };
  }
  if (bearer.kind === "jwt") {
    if (hostname === undefined) throw new ServiceError("no_valid_session", "A shopper access token needs X-Service-App-Hostname.");
    return { kind: "end_user", hostname, token: bearer.token };
  }
  if (!hasSession) return { kind: "anonymous" };
  const userId = userIdHeader?.trim() ?? "";
  const key = keyHeader?.trim() ?? "";
  if (key === "" || !/^\d{1,10}$/.test(userId)) {
    throw new ServiceError("no_valid_session", "The session headers are incomplete or malformed.");
  }
  const session = { userId: Number(userId), key };
  return hostname === undefined ? { kind: "admin", session } : { kind: "app_session", hostname, session };
}
