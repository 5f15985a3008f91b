/**
 * A shopper's access token and chain in one query (spec, "Common request headers":
 * `X-Service-App-Hostname` identifies the chain for end-user requests): the app by hostname, its
 * live chain (the shopper's chain, with its JWT settings), and the user the token's `sub` names,
 * with the user's `active` flag (a deactivated shopper's token fails its next request). A
 * shopper's session is checked with admin sessions instead (auth/session-grant.ts): only the
 * stored session knows whose it is.
 *
 * An access token's `sub` is read from the token before the token is verified, only to fetch that
 * user in the same query; the user counts only once the verified `sub` is the same (auth/jwt.ts).
 */
import { and, eq, sql } from "drizzle-orm";
import { decodeJwt } from "jose";
import type { CoreDb } from "../db/client.ts";
import { compileSelect, qb } from "../db/compiled-select.ts";
import { chainHeadSelection } from "../chains/chain-columns.ts";
import { apps, chains, users } from "../db/schema.ts";
import { ServiceError } from "../http/service-error.ts";
import { UNKNOWN_APP } from "./apps.ts";
import type { ChainGrant } from "./identity.ts";
import type { ShopperTokenVerifier } from "./jwt.ts";

/** A shopper's access token, sent through app `hostname`. */
export interface ShopperTokenClaim {
  hostname: string;
  /** the JWT as sent */
  token: string;
}

const USER_ID = /^[1-9]\d{0,9}$/;
const REFUSED_SUBJECT = "Access token refused: its subject is no shopper of this chain.";

/** The app, its live chain and the hinted user, compiled once (db/compiled-select.ts). */
const APP_CHAIN_AND_USER = compileSelect(
  qb
    .select({
      // the chain's head: what access checks read and a chain nested at the default level shows
      chain: chainHeadSelection,
      jwtIssuer: chains.jwtIssuer,
      jwtAudience: chains.jwtAudience,
      jwtJwksUrl: chains.jwtJwksUrl,
      user: { id: users.id, active: users.active },
    })
    .from(apps)
    .innerJoin(chains, and(eq(chains.id, apps.chainId), eq(chains.deleted, false)))
    .leftJoin(users, and(eq(users.chainId, apps.chainId), eq(users.id, sql.placeholder("userId"))))
    .where(eq(apps.hostname, sql.placeholder("hostname")))
    .limit(1),
  ["hostname", "userId"],
);

/**
 * Checks a shopper's access token.
 * @param now the token's exp / nbf are checked at it
 * @returns the grant on the app's chain (kinds `["end_user"]`, no levels, no session)
 * @throws ServiceError no_valid_session (6, 401) for an unknown app hostname, a token the chain
 *   does not accept, or a subject that is no active shopper of the chain; the description says which
 */
export async function loadShopperTokenGrant(db: CoreDb, claim: ShopperTokenClaim, now: Date, tokens: ShopperTokenVerifier): Promise<ChainGrant> {
  const hinted = subjectOf(claim.token);
  const [row] = await APP_CHAIN_AND_USER.run(db, { hostname: claim.hostname, userId: hinted ?? 0 });
  if (!row) throw new ServiceError("no_valid_session", UNKNOWN_APP);
  const { chain, user } = row;
  const jwt = { issuer: row.jwtIssuer, audience: row.jwtAudience, jwksUrl: row.jwtJwksUrl };
  const check = await tokens.verify(claim.token, jwt, now);
  if (!check.ok) throw new ServiceError("no_valid_session", `Access token refused: ${check.reason}.`);
  if (hinted === null || check.subject !== String(hinted) || !user?.active) throw new ServiceError("no_valid_session", REFUSED_SUBJECT);
  return {
    auth: { kind: "end_user", userId: user.id, chainId: chain.id, sessionId: null },
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
