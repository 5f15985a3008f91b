/**
 * Test fixtures for shopper access tokens: a fake identity provider whose key set (JWKS) msw serves
 * at an https URL, token signing with jose, and a probe app that answers with the AuthContext.
 */
import { Hono } from "hono";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from "jose";
import { http, HttpResponse } from "msw";
import type { CoreDb } from "../db/client.ts";
import { ServiceError } from "../http/service-error.ts";
import { authenticate } from "./context.ts";
import type { TargetPolicy } from "../net/public-target.ts";
import type { ShopperTokenVerifier } from "./jwt.ts";

/**
 * Where the fake identity providers' key sets may be fetched from: every name resolves to one
 * public address (msw answers the fetch, so no socket opens), as a real provider's name would.
 */
export const PUBLIC_TARGETS: TargetPolicy = { allowPrivate: false, resolveHost: async () => ["93.184.216.34"] };

export interface IdpKey {
  kid: string;
  alg: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  jwk: JWK;
}

/** A key pair of `alg` named `kid`, with its public JWK. */
export async function newKey(kid: string, alg = "RS256"): Promise<IdpKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg);
  return { kid, alg, privateKey, publicKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: "sig" } };
}

/** A fake identity provider: publishes `published` at `jwksUrl`, counting fetches. */
export class FakeIdp {
  published: IdpKey[] = [];
  fetches = 0;
  /** status to answer with instead of the key set (simulates an outage) */
  failWith: number | null = null;

  readonly jwksUrl: string;
  readonly issuer: string;

  constructor(jwksUrl: string, issuer: string) {
    this.jwksUrl = jwksUrl;
    this.issuer = issuer;
  }

  /** The msw handler serving the key set. */
  handler() {
    return http.get(this.jwksUrl, () => {
      this.fetches++;
      if (this.failWith !== null) return new HttpResponse("down", { status: this.failWith });
      return HttpResponse.json({ keys: this.published.map((k) => k.jwk) });
    });
  }

  /**
   * A token signed by `key` for `sub`, issued now and valid 5 minutes unless `claims` say otherwise.
   * @param claims extra or overriding claims; `exp: undefined` leaves exp out
   */
  async sign(key: IdpKey, sub: string | undefined, now: Date, claims: JWTPayload = {}, header: Record<string, unknown> = {}): Promise<string> {
    const iat = Math.floor(now.getTime() / 1000);
    const payload: JWTPayload = { iss: this.issuer, aud: "loyalty-api", iat, exp: iat + 300, ...claims };
    if (sub !== undefined) payload.sub = sub;
    for (const k of Object.keys(payload)) if (payload[k] === undefined) delete payload[k];
    return new SignJWT(payload).setProtectedHeader({ alg: key.alg, kid: key.kid, ...header }).sign(key.privateKey);
  }
}

/**
 * An app answering GET / with the caller's AuthContext (200) or the ServiceError (its status,
 * `{name, description}`), so tests see exactly what authenticate decided.
 */
export function probeApp(db: CoreDb, shopperTokens: ShopperTokenVerifier, now: () => Date): Hono {
  const app = new Hono();
  app.get("/", async (c) => {
    try {
      return c.json(await authenticate(c, { db, now: now(), clientIp: null, shopperTokens }));
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      return c.json({ name: err.errorName, description: err.message }, err.status as 401);
    }
  });
  return app;
}
