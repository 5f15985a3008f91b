/**
 * A shopper's credentials and chain in one query (spec, "Common request headers":
 * `X-Service-App-Hostname` identifies the chain for end-user requests): the app by hostname, its
 * live chain (the shopper's chain, with its JWT settings), and the session by its key or, for an
 * access token, the user its `sub` names, with the user's `active` flag (a deactivated shopper's
 * session or token fails its next request).
 *
 * An access token's `sub` is read from the token before the token is verified, only to fetch that
 * user in the same query; the user counts only once the verified `sub` is the same (auth/jwt.ts).
 */
import { and, eq, gt, sql } from "drizzle-orm";
import { decodeJwt } from "jose";
import type { CoreDb } from "../db/client.ts";
import { chainColumns } from "../chains/chain-columns.ts";
import { apps, chains, sessions, users } from "../db/schema.ts";
import { ServiceError } from "../http/service-error.ts";
import { UNKNOWN_APP } from "./apps.ts";
import type { SessionClaim } from "./credentials.ts";
import type { ChainGrant } from "./identity.ts";
import type { ShopperTokenVerifier } from "./jwt.ts";
import { sha256Hex, timingSafeEqualString } from "./secrets.ts";

/** A shopper's credentials: a session or an access token, through app `hostname`. */
export type ShopperClaim = { hostname: string } & ({ session: SessionClaim } | { token: string });

const USER_ID = /^[1-9]\d{0,9}$/;
const REFUSED_SUBJECT = "Access token refused: its subject is no shopper of this chain.";

/**
 * Checks a shopper's credentials.
 * @param now sessions expiring at or before it are dead; the token's exp / nbf are checked at it
 * @returns the grant on the app's chain (kinds `["end_user"]`, no levels)
 * @throws ServiceError no_valid_session (6, 401) for an unknown app hostname, a session that is
 *   unknown, expired, another user's or opened through another chain's app, a token the chain
 *   does not accept, or a user who is not an active shopper of the chain; the description says which
 */
export async function loadShopperGrant(db: CoreDb, claim: ShopperClaim, now: Date, tokens: ShopperTokenVerifier): Promise<ChainGrant> {
  const keyHash = "session" in claim ? await sha256Hex(claim.session.key) : null;
  const hinted = "token" in claim ? subjectOf(claim.token) : null;
  const [row] = await db
    .select({
      // the chain as its resource reads it (with app and currency), so a nested chain needs no query
      chain: chainColumns.selection,
      session: { id: sessions.id, userId: sessions.userId, chainId: sessions.chainId, keyHash: sessions.keyHash },
      user: { id: users.id, active: users.active },
    })
    .from(apps)
    .innerJoin(chains, and(eq(chains.id, apps.chainId), eq(chains.deleted, false)))
    .leftJoin(sessions, keyHash === null ? sql`false` : and(eq(sessions.keyHash, keyHash), eq(sessions.kind, "end_user"), gt(sessions.expiresAt, now)))
    .leftJoin(users, and(eq(users.chainId, apps.chainId), keyHash === null ? eq(users.id, hinted ?? 0) : eq(users.id, sessions.userId)))
    .where(eq(apps.hostname, claim.hostname))
    .limit(1);
  if (!row) throw new ServiceError("no_valid_session", UNKNOWN_APP);
  const { chain, session, user } = row;
  let sessionId: number | null = null;
  if ("session" in claim) {
    if (!session || session.userId !== claim.session.userId || !timingSafeEqualString(session.keyHash, keyHash!)) {
      throw new ServiceError("no_valid_session");
    }
    // A shopper session is good only through an app of the chain it was opened for.
    if (session.chainId !== chain.id) throw new ServiceError("no_valid_session", "The session belongs to another app's chain.");
    if (!user?.active) throw new ServiceError("no_valid_session", "The shopper's account is not active.");
    sessionId = session.id;
  } else {
    const jwt = { issuer: chain.jwtIssuer, audience: chain.jwtAudience, jwksUrl: chain.jwtJwksUrl };
    const check = await tokens.verify(claim.token, jwt, now);
    if (!check.ok) throw new ServiceError("no_valid_session", `Access token refused: ${check.reason}.`);
    if (hinted === null || check.subject !== String(hinted) || !user?.active) throw new ServiceError("no_valid_session", REFUSED_SUBJECT);
  }
  return {
    auth: { kind: "end_user", userId: user.id, chainId: chain.id, sessionId },
    chain,
    kinds: ["end_user"],
    levels: null,
    addressAllowed: true,
  };
}

/** The users.id an unverified token's `sub` names, or null when it names none. */
function subjectOf(token: string): number | null {
  try {
    const sub = decodeJwt(token).sub;
    return sub !== undefined && USER_ID.test(sub) ? Number(sub) : null;
  } catch {
    return null;
  }
}
