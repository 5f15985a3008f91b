/**
 * The caller of one request, checked lazily: authentication, chain access levels and the
 * allowlist check in one query per request. The middleware reads the credential headers only
 * (auth/credentials.ts); the first handler that needs the caller names the chain it needs
 * (X-Service-Chain-ID on the Resources API, chain_id or the target's chain on internal calls), and
 * one query then checks the credentials and reads what they hold on that chain: a session (the
 * stored session decides whose: an admin's, with account, permission row, the chain and its
 * allowed IP ranges; a shopper's, with the app's chain and the user: auth/session-grant.ts); a
 * token, its client and the chain (auth/privileged.ts); a shopper's access token, app, chain and
 * user (auth/shopper-grant.ts). Answers are kept for the rest of the request; a shopper's grant
 * (always on the app's chain) answers every chain asked afterwards.
 *
 * Credentials no handler needed are still checked before the response leaves (app.ts), and a
 * request refused for any other reason first gets its credentials checked (`refusal`), so bad
 * credentials are 6 / 266 whatever else the request got wrong, as when they were checked upfront.
 *
 * Concurrent requests with the same credentials share one query through the app's coalescer
 * (auth/check-coalescer.ts): only with a query sent after the request arrived, so a revocation is
 * effective on the next request as before.
 */
import type { CoreDb } from "../db/client.ts";
import { ServiceError } from "../http/service-error.ts";
import type { ClaimedKind } from "./access-table.ts";
import type { CheckCoalescer } from "./check-coalescer.ts";
import type { Credentials } from "./credentials.ts";
import type { AuthContext, ChainGrant, VerifiedCaller } from "./identity.ts";
import type { ShopperTokenVerifier } from "./jwt.ts";
import { loadPrivilegedGrant } from "./privileged.ts";
import { loadSessionGrant } from "./session-grant.ts";
import { loadShopperTokenGrant } from "./shopper-grant.ts";

/** What checking credentials needs besides the credentials. */
export interface AuthEnv {
  db: CoreDb;
  /** the request's clock */
  now: Date;
  /** the request's canonical client address (auth/client-ip.ts); null when unknown */
  clientIp: string | null;
  shopperTokens: ShopperTokenVerifier;
  /**
   * the app's coalescer of identical checks (auth/check-coalescer.ts); absent: every check runs
   * its own query
   */
  coalescer?: CheckCoalescer<ChainGrant>;
}

/** The key of a shopper's one query: a shopper's chain is always the app's. */
const OWN_CHAIN = "own";
/** The key of a check without a chain. */
const NO_CHAIN = "none";

/** The caller of one request; see the module comment. */
export class RequestAuth {
  readonly #credentials: Credentials;
  readonly #env: AuthEnv;
  readonly #grants = new Map<number | string, Promise<ChainGrant>>();
  #verified: VerifiedCaller | undefined;
  #appHostnameAccepted = false;

  constructor(credentials: Credentials, env: AuthEnv) {
    this.#credentials = credentials;
    this.#env = env;
  }

  /**
   * What the credentials claim to be, unchecked; anonymous without credentials. `app_session`
   * (session headers with an app) is an admin or a shopper: ask `identity()` or `onChain()`.
   */
  get kind(): ClaimedKind | "anonymous" {
    return this.#credentials.kind;
  }

  /**
   * The X-Service-App-Hostname a privileged token was sent with, accepted for this request: a
   * handler that takes the pair (add-user) calls it before the credentials are checked; elsewhere
   * the pair is refused with no_valid_session (6).
   * @returns the hostname, or undefined when the credentials are no privileged token or came without one
   */
  acceptAppHostname(): string | undefined {
    if (this.#credentials.kind !== "privileged") return undefined;
    this.#appHostnameAccepted = true;
    return this.#credentials.hostname;
  }

  /** The caller once its credentials passed a check in this request; undefined before (and for anonymous). */
  get verified(): VerifiedCaller | undefined {
    return this.#verified;
  }

  /**
   * Checks the credentials and reads what they hold on chain `chainId`, in one query (kept for
   * the request: asking again costs nothing).
   * @returns the grant; a shopper holds something only on the app's chain
   * @throws ServiceError no_valid_session (6, 401) without credentials or for credentials that
   *   name no live session (auth/session-grant.ts) or valid shopper token (auth/shopper-grant.ts); access_token_invalid
   *   (266, 401) for a privileged token that does not verify
   */
  async onChain(chainId: number): Promise<ChainGrant> {
    const grant = await this.#load(this.#keyOf(chainId));
    if (grant.auth.kind === "end_user" && grant.chain?.id !== chainId) return { ...grant, chain: null, kinds: [] };
    return grant;
  }

  /**
   * Checks the credentials without a chain (one query, or none when a chain was checked already).
   * @returns the caller; anonymous without credentials
   * @throws ServiceError as onChain for credentials that do not pass
   */
  async identity(): Promise<AuthContext> {
    if (this.#credentials.kind === "anonymous") return { kind: "anonymous" };
    const asked = this.#grants.values().next().value;
    return (await (asked ?? this.#load(this.#keyOf(null)))).auth;
  }

  /**
   * The error the credentials themselves earn, checking them when no handler has: what a
   * refused request answers instead of its own error, so that bad credentials always read alike.
   * @returns null for anonymous requests and credentials that pass
   */
  async refusal(): Promise<ServiceError | null> {
    if (this.#credentials.kind === "anonymous" || this.#verified) return null;
    try {
      await this.identity();
      return null;
    } catch (err) {
      if (err instanceof ServiceError) return err;
      throw err;
    }
  }

  /** The cache key of a check on `chainId`: a shopper's one grant is on the app's chain, whatever is asked. */
  #keyOf(chainId: number | null): number | string {
    if (this.#credentials.kind === "end_user" || this.#verified?.kind === "end_user") return OWN_CHAIN;
    return chainId ?? NO_CHAIN;
  }

  #load(key: number | string): Promise<ChainGrant> {
    let grant = this.#grants.get(key);
    if (!grant) {
      const loading = this.#query(typeof key === "number" ? key : null).then((g) => {
        this.#verified = g.auth;
        // A session sent with an app that turned out a shopper's: later questions reuse this grant.
        if (g.auth.kind === "end_user") this.#grants.set(OWN_CHAIN, loading);
        return g;
      });
      grant = loading;
      this.#grants.set(key, grant);
    }
    return grant;
  }

  /**
   * The check on `chainId`: through the coalescer when the credentials can share one (sessions
   * and privileged tokens; a shopper's token is verified per request), else its own query.
   */
  #query(chainId: number | null): Promise<ChainGrant> {
    const c = this.#credentials;
    const { coalescer, now } = this.#env;
    if (c.kind === "privileged" && c.hostname !== undefined && !this.#appHostnameAccepted) {
      return Promise.reject(new ServiceError("no_valid_session", "A privileged access token is not accepted with X-Service-App-Hostname."));
    }
    const key = coalescer && coalescingKey(c, chainId, this.#env.clientIp);
    if (!coalescer || key === undefined) return this.#run(now, chainId);
    return coalescer.check(key, now, (at) => this.#run(at, chainId));
  }

  /** Runs the check's one query at request time `now`. */
  async #run(now: Date, chainId: number | null): Promise<ChainGrant> {
    const c = this.#credentials;
    const { db, clientIp, shopperTokens } = this.#env;
    switch (c.kind) {
      case "anonymous":
        throw new ServiceError("no_valid_session", "This call needs a valid session.");
      case "admin":
        return loadSessionGrant(db, c.session, { hostname: null, now, chainId, clientIp });
      case "app_session":
        return loadSessionGrant(db, c.session, { hostname: c.hostname, now, chainId, clientIp });
      case "privileged":
        return loadPrivilegedGrant(db, c, chainId);
      case "end_user":
        return loadShopperTokenGrant(db, c, now, shopperTokens);
    }
  }
}

/**
 * What a check's answer depends on besides the time, as one key: the credentials as sent, the
 * chain asked for and, for a session, the client address (an admin's allowed IP ranges).
 * @returns undefined for credentials whose checks are not shared (none, a shopper's token)
 */
function coalescingKey(c: Credentials, chainId: number | null, clientIp: string | null): string | undefined {
  const chain = chainId ?? "";
  switch (c.kind) {
    case "admin":
      return `admin\u0000${c.session.userId}\u0000${c.session.key}\u0000${chain}\u0000${clientIp ?? ""}`;
    case "app_session":
      return `app\u0000${c.session.userId}\u0000${c.session.key}\u0000${c.hostname}\u0000${chain}\u0000${clientIp ?? ""}`;
    case "privileged":
      return `privileged\u0000${c.tokenId}\u0000${c.secret}\u0000${c.hostname ?? ""}\u0000${chain}`;
    default:
      return undefined;
  }
}
