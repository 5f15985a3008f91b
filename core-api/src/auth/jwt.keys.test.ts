/**
 * The shopper key sets (auth/jwt.ts): cached by kid, refetched for an unknown kid at most once per
 * cooldown (key rotation), refetched when old, an outage refused; and the whole path over HTTP
 * through createApp with the injected fetch.
 */
import { eq } from "drizzle-orm";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startCore, type TestCore } from "../../../test/helpers/core.ts";
import { chains } from "../db/schema.ts";
import { createAppHostname, createShopper } from "../db/seed.ts";
import { ShopperTokenVerifier } from "./jwt.ts";
import { FakeIdp, newKey, probeApp, PUBLIC_TARGETS, type IdpKey } from "./jwt.test-support.ts";

const idp = new FakeIdp("https://keys.example.test/jwks", "https://keys.example.test");
const server = setupServer(idp.handler());
const APP = "keys-shop.example.test";
let core: TestCore;
let shopper: string;
let keyA: IdpKey;
let keyB: IdpKey;
const fetched: string[] = [];

beforeAll(async () => {
  server.listen({ onUnhandledRequest: "error" });
  core = await startCore({
    resolveHost: PUBLIC_TARGETS.resolveHost,
    fetch: (input, init) => {
      fetched.push(String(input));
      return fetch(input, init);
    },
  });
  await core.db
    .update(chains)
    .set({ jwtIssuer: idp.issuer, jwtAudience: "loyalty-api", jwtJwksUrl: idp.jwksUrl })
    .where(eq(chains.id, core.chainId));
  await createAppHostname(core.db, core.chainId, APP);
  shopper = String(await createShopper(core.db, { chainId: core.chainId, username: "keys@example.com", password: "x" }));
  [keyA, keyB] = [await newKey("2026-a"), await newKey("2026-b", "ES256")];
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  idp.failWith = null;
});
afterAll(async () => {
  server.close();
  await core.close();
});

/** A fresh verifier (empty cache) and a probe around it; `status(token)` answers 200 or 401. */
function fresh(logger?: { error: () => void; warn: (fields: object, message: string) => void }) {
  const probe = probeApp(core.db, new ShopperTokenVerifier({ logger, targets: PUBLIC_TARGETS }), () => new Date());
  return async (token: string) => {
    const res = await probe.request("/", { headers: { Authorization: `Bearer ${token}`, "X-Service-App-Hostname": APP } });
    return { status: res.status, body: (await res.json()) as any };
  };
}

describe("key sets", () => {
  it("are fetched once and then served from the cache", async () => {
    idp.published = [keyA];
    const check = fresh();
    const before = idp.fetches;
    for (let i = 0; i < 5; i++) expect((await check(await idp.sign(keyA, shopper, new Date()))).status).toBe(200);
    expect(idp.fetches - before).toBe(1);
  });

  it("pick up a rotated key after the cooldown, and never refetch more than once per cooldown", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-05-01T00:00:00Z"));
    idp.published = [keyA];
    const check = fresh();
    const before = idp.fetches;
    expect((await check(await idp.sign(keyA, shopper, new Date()))).status).toBe(200);

    idp.published = [keyB]; // the provider rotates: A retired, B new
    const tokenB = await idp.sign(keyB, shopper, new Date());
    const early = await check(tokenB);
    expect(early.status).toBe(401);
    expect(early.body.description).toMatch(/no key .* matches/);
    // a flood of made-up kids inside the cooldown costs no fetch
    for (let i = 0; i < 10; i++) expect((await check(await idp.sign({ ...keyB, kid: `made-up-${i}` }, shopper, new Date()))).status).toBe(401);
    expect(idp.fetches - before).toBe(1);

    vi.setSystemTime(new Date(Date.now() + 31_000));
    expect((await check(tokenB)).status).toBe(200);
    expect(idp.fetches - before).toBe(2);
    // the retired key is gone with the refetch
    const retired = await check(await idp.sign(keyA, shopper, new Date()));
    expect(retired.status).toBe(401);
    expect(idp.fetches - before).toBe(2);

    // after the cache's maximum age (10 min) even a known kid refetches
    vi.setSystemTime(new Date(Date.now() + 601_000));
    expect((await check(await idp.sign(keyB, shopper, new Date()))).status).toBe(200);
    expect(idp.fetches - before).toBe(3);
  });

  it("that cannot be fetched refuse the token", async () => {
    const logger = { error: vi.fn(), warn: vi.fn() };
    idp.published = [keyA];
    idp.failWith = 500;
    const res = await fresh(logger)(await idp.sign(keyA, shopper, new Date()));
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ name: "no_valid_session", description: expect.stringMatching(/key set could not be fetched/) });
    expect(logger.warn).toHaveBeenCalledWith(expect.objectContaining({ jwksUrl: expect.stringContaining("http") }), "shopper token: key set unusable");
  });
});

describe("over HTTP", () => {
  it("a valid token authenticates a shopper through the app's deps.fetch; a bad one is 6 / 401", async () => {
    idp.published = [keyA, keyB];
    const headers = (token: string) => ({ Authorization: `Bearer ${token}`, "X-Service-App-Hostname": APP });
    const good = await idp.sign(keyB, shopper, new Date());
    const call = await core.json(`/internal/get-businesses?chain_id=${core.chainId}`, { headers: headers(good) });
    // authenticated as a shopper (not 401), who has no admin operations
    expect(call.status).toBe(403);
    expect(call.body.error.code).toBe(68);
    expect(fetched).toContain(idp.jwksUrl);

    const expired = await idp.sign(keyB, shopper, new Date(Date.now() - 3_600_000));
    const bad = await core.json(`/internal/get-businesses?chain_id=${core.chainId}`, { headers: headers(expired) });
    expect(bad.status).toBe(401);
    expect(bad.body.error).toMatchObject({ code: 6, name: "no_valid_session" });
    expect(bad.body.error.description).toMatch(/expired/);

    // a token has no server-side session to end
    const out = await core.json("/auth/logout", { method: "DELETE", headers: headers(good) });
    expect(out.status).toBe(401);
  });
});
