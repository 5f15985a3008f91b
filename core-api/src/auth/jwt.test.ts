/**
 * Shopper access tokens (auth/jwt.ts, auth/context.ts): what is accepted, and every way a token is
 * refused. The key set is served by msw; tokens are signed with jose.
 */
import { eq } from "drizzle-orm";
import { base64url, exportSPKI, SignJWT, UnsecuredJWT } from "jose";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestCore } from "../../../test/helpers/core.ts";
import { chains, users } from "../db/schema.ts";
import { createAppHostname, createShopper } from "../db/seed.ts";
import { ShopperTokenVerifier } from "./jwt.ts";
import { FakeIdp, newKey, probeApp, PUBLIC_TARGETS, type IdpKey } from "./jwt.test-support.ts";

const idp = new FakeIdp("https://idp.example.test/.well-known/jwks.json", "https://idp.example.test/");
const server = setupServer(idp.handler());
const now = new Date("2026-03-01T12:00:00Z");
const APP = "jwt-shop.example.test";

let core: TestCore;
let probe: ReturnType<typeof probeApp>;
let rsa: IdpKey;
let shopperId: number;
let otherShopperId: number;

async function chainWith(jwt: { issuer?: string; audience?: string | null; jwksUrl?: string } | null, hostname: string) {
  const chainId = await core.createChain(hostname);
  if (jwt) {
    await core.db
      .update(chains)
      .set({ jwtIssuer: jwt.issuer ?? idp.issuer, jwtAudience: jwt.audience === undefined ? "loyalty-api" : jwt.audience, jwtJwksUrl: jwt.jwksUrl ?? idp.jwksUrl })
      .where(eq(chains.id, chainId));
  }
  await createAppHostname(core.db, chainId, hostname);
  return chainId;
}

beforeAll(async () => {
  server.listen({ onUnhandledRequest: "error" });
  core = await startCore();
  rsa = await newKey("rsa-1", "RS256");
  idp.published = [rsa, await newKey("ec-1", "ES256"), await newKey("ed-1", "EdDSA")];
  const chainId = await chainWith({}, APP);
  shopperId = await createShopper(core.db, { chainId, username: "jwt-shopper@example.com", password: "x" });
  // a chain that trusts the same identity provider: its shoppers are not this chain's
  const sibling = await chainWith({}, "sibling.example.test");
  otherShopperId = await createShopper(core.db, { chainId: sibling, username: "sibling@example.com", password: "x" });
  await chainWith(null, "no-jwt.example.test");
  await chainWith({ jwksUrl: "http://idp.example.test/.well-known/jwks.json" }, "plain-http.example.test");
  await chainWith({ audience: null }, "any-audience.example.test");
  probe = probeApp(core.db, new ShopperTokenVerifier({ targets: PUBLIC_TARGETS }), () => now);
});
afterAll(async () => {
  server.close();
  await core.close();
});

async function call(token: string, hostname: string | null = APP) {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  if (hostname !== null) headers["X-Service-App-Hostname"] = hostname;
  const res = await probe.request("/", { headers });
  return { status: res.status, body: (await res.json()) as any };
}

async function expectRefused(token: string, reason: RegExp, hostname: string | null = APP) {
  const res = await call(token, hostname);
  expect(res.status).toBe(401);
  expect(res.body.name).toBe("no_valid_session");
  expect(res.body.description).toMatch(reason);
}

describe("accepted shopper tokens", () => {
  it("an RS256, ES256 or EdDSA token of the chain's issuer and audience names the shopper", async () => {
    for (const key of idp.published) {
      const res = await call(await idp.sign(key, String(shopperId), now));
      expect(res.status, key.alg).toBe(200);
      expect(res.body).toEqual({ kind: "end_user", userId: shopperId, chainId: expect.any(Number), sessionId: null });
    }
  });

  it("tolerates 30 s of clock skew, and any audience when the chain sets none", async () => {
    const skewed = await idp.sign(rsa, String(shopperId), now, { exp: now.getTime() / 1000 - 20, nbf: now.getTime() / 1000 + 20 });
    expect((await call(skewed)).status).toBe(200);
    const [chain] = await core.db.select().from(chains).where(eq(chains.name, "any-audience.example.test"));
    const id = await createShopper(core.db, { chainId: chain!.id, username: "free@example.com", password: "x" });
    expect((await call(await idp.sign(rsa, String(id), now, { aud: "someone-else" }), "any-audience.example.test")).status).toBe(200);
  });
});

describe("refused shopper tokens (no_valid_session, 6 / 401)", () => {
  const sub = () => String(shopperId);
  const s = (claims: Record<string, unknown> = {}) => idp.sign(rsa, sub(), now, claims);
  const t = now.getTime() / 1000;

  it("expired, not yet valid, or without exp", async () => {
    await expectRefused(await s({ exp: t - 31 }), /expired/);
    await expectRefused(await s({ nbf: t + 31 }), /not valid yet/);
    await expectRefused(await s({ exp: undefined }), /exp claim/);
  });

  it("wrong issuer or audience", async () => {
    await expectRefused(await s({ iss: "https://evil.example.test/" }), /wrong issuer/);
    await expectRefused(await s({ iss: undefined }), /issuer|iss/);
    await expectRefused(await s({ aud: "another-api" }), /wrong audience/);
    await expectRefused(await s({ aud: undefined }), /audience|aud/);
  });

  it("a kid the key set does not have, or a key the token only claims", async () => {
    const stranger = await newKey("stranger", "RS256");
    await expectRefused(await idp.sign(stranger, sub(), now), /no key .* matches/);
    // signed by another key under the published kid
    await expectRefused(await idp.sign({ ...stranger, kid: rsa.kid }, sub(), now), /signature is invalid/);
  });

  it("alg none", async () => {
    const unsigned = new UnsecuredJWT({ iss: idp.issuer, aud: "loyalty-api", sub: sub(), exp: t + 300 }).encode();
    await expectRefused(unsigned, /algorithm is not allowed/);
    // and with a kid, as some libraries accept
    const [, payload] = unsigned.split(".");
    const header = base64url.encode(JSON.stringify({ alg: "none", kid: rsa.kid }));
    await expectRefused(`${header}.${payload}.`, /algorithm is not allowed/);
  });

  it("HMAC signed with the public key (algorithm confusion)", async () => {
    const pem = new TextEncoder().encode(await exportSPKI(rsa.publicKey));
    const claims = { iss: idp.issuer, aud: "loyalty-api", sub: sub(), exp: t + 300 };
    for (const secret of [pem, new TextEncoder().encode(JSON.stringify(rsa.jwk))]) {
      const forged = await new SignJWT(claims).setProtectedHeader({ alg: "HS256", kid: rsa.kid }).sign(secret);
      await expectRefused(forged, /algorithm is not allowed/);
    }
  });

  it("a tampered payload", async () => {
    const [h, , sig] = (await s()).split(".");
    const payload = base64url.encode(JSON.stringify({ iss: idp.issuer, aud: "loyalty-api", sub: String(otherShopperId), exp: t + 300 }));
    await expectRefused(`${h}.${payload}.${sig}`, /signature is invalid/);
    await expectRefused("not-a.jwt.at-all", /malformed/);
  });

  it("a subject that is no active shopper of the app's chain", async () => {
    await expectRefused(await idp.sign(rsa, undefined, now), /sub claim/);
    for (const subject of ["999999", "jwt-shopper@example.com", "0", "01", String(otherShopperId)]) {
      await expectRefused(await idp.sign(rsa, subject, now), /subject is no shopper of this chain/);
    }
    const inactive = await createShopper(core.db, { chainId: (await chainOf(shopperId)), username: "gone@example.com", password: "x" });
    await core.db.update(users).set({ active: false }).where(eq(users.id, inactive));
    await expectRefused(await idp.sign(rsa, String(inactive), now), /subject is no shopper/);
  });

  it("the right token through the wrong app, or without an app", async () => {
    await expectRefused(await s(), /subject is no shopper of this chain/, "sibling.example.test");
    await expectRefused(await s(), /does not accept shopper access tokens/, "no-jwt.example.test");
    await expectRefused(await s(), /https/, "plain-http.example.test");
    await expectRefused(await s(), /names no app/, "unknown.example.test");
    await expectRefused(await s(), /needs X-Service-App-Hostname/, null);
  });
});

async function chainOf(userId: number): Promise<number> {
  const [row] = await core.db.select({ chainId: users.chainId }).from(users).where(eq(users.id, userId));
  return row!.chainId;
}
