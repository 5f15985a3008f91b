/**
 * Shopper access tokens (spec, "Authentication": chains can trust shopper JWTs validated by the
 * chain settings jwt_issuer, jwt_audience and jwt_jwks_url).
 *
 * A token is accepted only when all hold: signed with an asymmetric algorithm of
 * SHOPPER_TOKEN_ALGORITHMS (so `alg: none` and an HMAC "signed" with the public key are refused);
 * signed by a key of the chain's key set, picked by `kid`; `iss` equals jwt_issuer; `aud` contains
 * jwt_audience when the chain sets one; `exp` present and not passed, `nbf` (when present) reached,
 * both with CLOCK_TOLERANCE_S of skew; `sub` present. The key-set URL must be https.
 *
 * Key sets are fetched through the injected fetch and kept in memory per URL by jose's
 * createRemoteJWKSet: public keys are not security state, so a per-worker cache is fine (handbook,
 * "Scale beyond one machine" is about state that matters). A token whose `kid` is not in the cached
 * set triggers one refetch, at most once per `cooldownMs`, so a rotated key is picked up within
 * seconds while a flood of made-up kids cannot turn into a flood of fetches.
 *
 * The key-set URL is a chain setting, so fetching it is a request the service makes on a chain's
 * word (SSRF): before every fetch its host must be, and resolve only to, public addresses
 * (net/public-target.ts, the webhook targets' rule; WEBHOOK_ALLOW_PRIVATE lifts it), and the
 * fetch the Node entry passes checks the address again where the socket connects (DNS rebinding).
 * A refused key set is logged with the reason; the caller only learns that it could not be fetched.
 */
import { createRemoteJWKSet, customFetch, errors, jwtVerify, type JWTVerifyGetKey } from "jose";
import type { Logger } from "../logger.ts";
import { assessTarget, resolvesNothing, type TargetPolicy } from "../net/public-target.ts";

/** Asymmetric JWS algorithms a shopper token may use (RFC 7518, RFC 8037; jose's "Ed25519"). */
export const SHOPPER_TOKEN_ALGORITHMS = [
  "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "Ed25519",
];
/** Accepted clock skew between the identity provider and us, in seconds. */
export const CLOCK_TOLERANCE_S = 30;
/** Key sets kept at most (one per distinct jwt_jwks_url); the oldest is dropped beyond this. */
const MAX_KEY_SETS = 256;

/** A chain's JWT settings (Chain jwt_issuer, jwt_audience, jwt_jwks_url). */
export interface ChainJwtSettings {
  issuer: string | null;
  audience: string | null;
  jwksUrl: string | null;
}

/** The outcome of checking a token: the subject, or why it was refused (for the error description). */
export type ShopperTokenCheck = { ok: true; subject: string } | { ok: false; reason: string };

export interface ShopperTokenOptions {
  /** outbound HTTP for the key sets (AppDeps.publicFetch); default globalThis.fetch */
  fetch?: typeof fetch;
  /**
   * where key sets may be fetched from (net/public-target.ts); default: public IP literals only
   * (no resolver, so no name passes)
   */
  targets?: TargetPolicy;
  /** where an unusable key set is reported (AppDeps.logger); not logged without one */
  logger?: Pick<Logger, "warn">;
  /** least time between two fetches of one key set triggered by an unknown kid, ms (default 30 s) */
  cooldownMs?: number;
  /** refetch a key set at the latest after this long, ms (default 10 min) */
  cacheMaxAgeMs?: number;
  /** give up on a key-set fetch after this long, ms (default 5 s) */
  timeoutMs?: number;
}

/** Verifies shopper tokens against chains' key sets; one per app (createApp), holding the key cache. */
export class ShopperTokenVerifier {
  readonly #keySets = new Map<string, JWTVerifyGetKey>();
  readonly #options: ShopperTokenOptions;

  constructor(options: ShopperTokenOptions = {}) {
    this.#options = options;
  }

  /**
   * Checks `token` for a chain.
   * @param now the request's clock, for exp / nbf
   * @returns the token's `sub`, or the reason it is refused (never throws for a bad token; a key
   *   set that cannot be fetched is a refusal too, logged)
   */
  async verify(token: string, chain: ChainJwtSettings, now: Date): Promise<ShopperTokenCheck> {
    if (!chain.issuer || !chain.jwksUrl) return { ok: false, reason: "this chain does not accept shopper access tokens" };
    let url: URL;
    try {
      url = new URL(chain.jwksUrl);
    } catch {
      return { ok: false, reason: "the chain's jwt_jwks_url is not a URL" };
    }
    if (url.protocol !== "https:") return { ok: false, reason: "the chain's jwt_jwks_url must be an https URL" };
    try {
      const { payload } = await jwtVerify(token, this.#keySet(url), {
        algorithms: SHOPPER_TOKEN_ALGORITHMS,
        issuer: chain.issuer,
        ...(chain.audience ? { audience: chain.audience } : {}),
        requiredClaims: ["exp", "sub"],
        clockTolerance: CLOCK_TOLERANCE_S,
        currentDate: now,
      });
      return { ok: true, subject: payload.sub! };
    } catch (err) {
      return { ok: false, reason: describe(err, url, this.#options.logger) };
    }
  }

  #keySet(url: URL): JWTVerifyGetKey {
    let keySet = this.#keySets.get(url.href);
    if (!keySet) {
      if (this.#keySets.size >= MAX_KEY_SETS) this.#keySets.delete(this.#keySets.keys().next().value!);
      const fetchImpl = this.#options.fetch ?? globalThis.fetch;
      const targets = this.#options.targets ?? { allowPrivate: false, resolveHost: resolvesNothing };
      keySet = createRemoteJWKSet(url, {
        cooldownDuration: this.#options.cooldownMs ?? 30_000,
        cacheMaxAge: this.#options.cacheMaxAgeMs ?? 600_000,
        timeoutDuration: this.#options.timeoutMs ?? 5_000,
        [customFetch]: async (input, init) => {
          const verdict = await assessTarget(url.href, targets, "jwt_jwks_url");
          if (!verdict.ok) throw new Error(`key set refused: ${verdict.reason}`);
          return fetchImpl(input, init);
        },
      });
      this.#keySets.set(url.href, keySet);
    }
    return keySet;
  }
}

/** A token that looks like a JWS compact serialisation (three base64url parts), as opposed to a privileged `id:secret` token. */
export function looksLikeJwt(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/.test(token);
}

function describe(err: unknown, url: URL, logger: Pick<Logger, "warn"> | undefined): string {
  if (err instanceof errors.JWTExpired) return "the access token has expired";
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === "nbf") return "the access token is not valid yet (nbf)";
    if (err.claim === "iss") return "the access token has the wrong issuer";
    if (err.claim === "aud") return "the access token has the wrong audience";
    return `the access token's ${err.claim} claim is missing or invalid`;
  }
  if (err instanceof errors.JOSEAlgNotAllowed) return "the access token's algorithm is not allowed";
  if (err instanceof errors.JWKSNoMatchingKey) return "no key of the chain's key set matches the access token (kid)";
  if (err instanceof errors.JWKSMultipleMatchingKeys) return "the access token does not name its key (kid)";
  if (err instanceof errors.JWSSignatureVerificationFailed) return "the access token's signature is invalid";
  if (err instanceof errors.JWSInvalid || err instanceof errors.JWTInvalid) return "the access token is malformed";
  // Anything else is the key set itself: unreachable, not JSON, not a key set, timed out.
  logger?.warn({ jwksUrl: url.href, err }, "shopper token: key set unusable");
  return "the chain's key set could not be fetched";
}
