/**
 * A chain's jwt_jwks_url cannot make core-api fetch from a private address (SSRF), through the
 * whole app (createApp): refused with 419 when the setting is written; a key-set URL that is
 * stored anyway (written before the rule, or a name that now resolves privately) is not fetched
 * when a shopper token arrives, and the fetch of the Node entry refuses the address it would
 * connect to (DNS rebinding). WEBHOOK_ALLOW_PRIVATE lifts the rule, as for webhook targets.
 * The attempted targets are observed through an injected resolver and fetch: nothing is looked up
 * or connected to outside this process.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startCore, type TestAdmin, type TestCore } from "../../../test/helpers/core.ts";
import { chains } from "../db/schema.ts";
import { createAppHostname, createShopper } from "../db/seed.ts";
import { publicOnlyFetch } from "../net/public-fetch.node.ts";
import { FakeIdp, newKey, type IdpKey } from "./jwt.test-support.ts";

const ISSUER = "https://idp.example.com";
/** The stub resolver of the pre-request check: public names, names of private addresses. */
const DNS: Record<string, string[]> = {
  "idp.example.com": ["93.184.216.34"],
  "metadata.example.com": ["169.254.169.254"],
  "intranet.example.com": ["10.0.0.1"],
  "compat.example.com": ["::7f00:1"],
  // the check sees a public address; the connect-time lookup below hands out a private one
  "rebind.example.com": ["93.184.216.34"],
};
const resolved: string[] = [];
const resolveHost = async (host: string) => {
  resolved.push(host);
  const found = DNS[host];
  if (!found) throw new Error(`getaddrinfo ENOTFOUND ${host}`);
  return found;
};

let key: IdpKey;
/** URLs the injected fetches were asked for (the stub answers with the key set, no socket). */
const fetched: string[] = [];
const serveKeySet = async (input: RequestInfo | URL) => {
  fetched.push(String(input instanceof Request ? input.url : input));
  return Response.json({ keys: [key.jwk] });
};
/** Names the Node entry's public-only fetch looked up at connect; it answers with a private address. */
const connectLookups: string[] = [];
const rebindingLookup = ((host: string, _o: unknown, cb: (e: null, a: Array<{ address: string; family: number }>) => void) => {
  connectLookups.push(host);
  cb(null, [{ address: "10.0.0.1", family: 4 }]);
}) as never;

let core: TestCore;
let open: TestCore;
let superUser: TestAdmin;
beforeAll(async () => {
  key = await newKey("k1", "ES256");
  // publicFetch is what main.node.ts passes (with the system resolver); the plain `fetch` (which
  // would serve the key set) must not be used for key sets unless WEBHOOK_ALLOW_PRIVATE.
  core = await startCore({ resolveHost, publicFetch: publicOnlyFetch({ lookup: rebindingLookup }), fetch: serveKeySet, env: { LOG_LEVEL: "error" } });
  open = await startCore({ resolveHost, fetch: serveKeySet, env: { WEBHOOK_ALLOW_PRIVATE: "true", LOG_LEVEL: "error" } });
  superUser = await core.admin({ super_user: true });
});
afterAll(async () => {
  await core.close();
  await open.close();
});
beforeEach(() => {
  resolved.length = 0;
  fetched.length = 0;
  connectLookups.length = 0;
});

const PRIVATE_URLS = [
  "https://169.254.169.254/latest/meta-data/",
  "https://10.0.0.1/jwks",
  "http://127.0.0.1/jwks",
  "https://[::127.0.0.1]/jwks",
  "https://[::7f00:1]/jwks",
  "https://[::ffff:10.0.0.1]/jwks",
  "https://[fd00::1]/jwks",
  "https://100.64.0.1/jwks",
  "https://metadata.example.com/jwks",
  "https://intranet.example.com/jwks",
  "https://compat.example.com/jwks",
];

/** A chain of `on` trusting ISSUER's tokens with key set `jwksUrl` (written straight to the table), its app and one shopper. */
async function chainTrusting(on: TestCore, jwksUrl: string, hostname: string) {
  const chainId = await on.createChain(hostname);
  await on.db.update(chains).set({ jwtIssuer: ISSUER, jwtAudience: "loyalty-api", jwtJwksUrl: jwksUrl }).where(eq(chains.id, chainId));
  await createAppHostname(on.db, chainId, hostname);
  const shopper = await createShopper(on.db, { chainId, username: `s@${hostname}`, password: "x" });
  return { chainId, hostname, shopper };
}

/** Presents a fresh shopper token of `chain` to the app: 403/68 means it authenticated (a shopper has no admin calls), 401/6 that it was refused. */
async function present(on: TestCore, chain: { chainId: number; hostname: string; shopper: number }) {
  const token = await new FakeIdp("unused", ISSUER).sign(key, String(chain.shopper), new Date());
  const res = await on.json(`/internal/get-businesses?chain_id=${chain.chainId}`, { headers: { Authorization: `Bearer ${token}`, "X-Service-App-Hostname": chain.hostname } });
  return { status: res.status, code: res.body?.error?.code as number, description: res.body?.error?.description as string };
}

describe("writing jwt_jwks_url", () => {
  const write = (method: string, url: string) =>
    core.json(`/resources/chain/${core.chainId}`, { method, headers: { ...superUser.headers, "content-type": "application/json" }, body: JSON.stringify({ jwt_jwks_url: url }) });
  const stored = async () => (await core.db.select({ url: chains.jwtJwksUrl }).from(chains).where(eq(chains.id, core.chainId)))[0]!.url;
  // Each test starts with no key-set URL stored on the chain (one test stores one).
  beforeEach(async () => {
    await core.db.update(chains).set({ jwtJwksUrl: null }).where(eq(chains.id, core.chainId));
  });

  it("refuses every non-public target with 419 naming the address; nothing is written", async () => {
    for (const method of ["PATCH", "PUT"]) {
      for (const url of PRIVATE_URLS) {
        const res = await write(method, url);
        expect({ method, url, status: res.status, code: res.body.error?.code, description: res.body.error?.description })
          .toEqual({ method, url, status: 400, code: 419, description: expect.stringMatching(/^jwt_jwks_url points at \S+, an? [\w -]+ address/) });
      }
    }
    expect(await write("PATCH", "https://nowhere.example.com/jwks")).toMatchObject({ status: 400, body: { error: { code: 419, description: expect.stringMatching(/does not resolve/) } } });
    expect(await stored()).toBeNull();
    expect(fetched).toEqual([]);
  });

  it("accepts a name that resolves only to public addresses", async () => {
    const res = await write("PATCH", "https://idp.example.com/.well-known/jwks.json");
    expect(res.status).toBe(200);
    expect(await stored()).toBe("https://idp.example.com/.well-known/jwks.json");
    expect(resolved).toEqual(["idp.example.com"]);
  });

  it("WEBHOOK_ALLOW_PRIVATE accepts a private target", async () => {
    const admin = await open.admin({ super_user: true });
    const res = await open.json(`/resources/chain/${open.chainId}`, { method: "PATCH", headers: { ...admin.headers, "content-type": "application/json" }, body: JSON.stringify({ jwt_jwks_url: "https://10.0.0.1/jwks" }) });
    expect(res.status).toBe(200);
  });
});

describe("a shopper token of a chain whose stored key set is not public", () => {
  it("is refused without fetching the key set (401, the reason not disclosed)", async () => {
    for (const [i, url] of PRIVATE_URLS.filter((u) => u.startsWith("https:")).entries()) {
      const chain = await chainTrusting(core, url, `private-${i}.example.test`);
      expect({ url, ...(await present(core, chain)) }).toEqual({ url, status: 401, code: 6, description: "Access token refused: the chain's key set could not be fetched." });
    }
    expect(fetched).toEqual([]);
    expect(connectLookups).toEqual([]);
  });

  it("is refused at connect when the name resolves to a private address by then (DNS rebinding): no connection", async () => {
    const chain = await chainTrusting(core, "https://rebind.example.com/jwks", "rebind-shop.example.test");
    expect(await present(core, chain)).toMatchObject({ status: 401, code: 6 });
    expect(resolved).toEqual(["rebind.example.com"]);
    expect(connectLookups).toEqual(["rebind.example.com"]);
    expect(fetched).toEqual([]);
  });

  it("is accepted with WEBHOOK_ALLOW_PRIVATE: the key set is fetched from the private address", async () => {
    const chain = await chainTrusting(open, "https://10.0.0.1/jwks", "open-shop.example.test");
    expect(await present(open, chain)).toMatchObject({ status: 403, code: 68 });
    expect(fetched).toEqual(["https://10.0.0.1/jwks"]);
    expect(resolved).toEqual([]);
  });
});
