/**
 * A nested resource shows only what the caller may read of it directly (spec, "Authentication":
 * availability per resource; "Resource-specific behaviour"): a shopper and a read_businesses
 * token, which both get 544 for GET /resources/chain, read a business at every response level and
 * find its chain as a bare `{id}`: none of the chain's allowed IP ranges, authentication point,
 * identity-source service client, JWT settings or IP exemption flag. The chain-scope token, which
 * may GET the chain, still finds it in full (its identity-source client, which it may not GET, as
 * `{id}`).
 */
import { eq } from "drizzle-orm";
import { openSecretBox } from "@service/shared/secret-box";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_SECRET_KEY } from "../../../test/helpers/core.ts";
import { startTwoChains, type TwoChains } from "../auth/two-chains.test-support.ts";
import { setAuthenticationPoint } from "../authentication-points/authentication-point-repository.ts";
import { insertBusiness } from "../businesses/business-repository.ts";
import { seedClient } from "../clients/client-test-support.ts";
import { chains } from "../db/schema.ts";
import { insertIpRange } from "../ip-ranges/ip-range-repository.ts";

let w: TwoChains;
let businessId: number;
let identityClientId: number;

/** What chain A keeps to itself: every one of these must stay out of a shopper's or read_businesses token's response. */
const PRIVATE = {
  cidr: "198.51.100.0/24",
  notes: "head-office-vpn",
  baseUrl: "https://webshop-connector.internal.example.test",
  clientName: "Identity Source Client",
  jwtIssuer: "https://issuer.private.example.test",
  jwtAudience: "private-audience",
  jwksUrl: "https://issuer.private.example.test/jwks.json",
};

beforeAll(async () => {
  w = await startTwoChains();
  const db = w.core.db;
  await db.update(chains).set({
    ipWhitelistSuperUserExemption: true, jwtIssuer: PRIVATE.jwtIssuer, jwtAudience: PRIVATE.jwtAudience, jwtJwksUrl: PRIVATE.jwksUrl,
  }).where(eq(chains.id, w.chainA));
  await insertIpRange(db, { chainId: w.chainA, cidr: PRIVATE.cidr, notes: PRIVATE.notes, lastUpdatedBy: null }, w.now);
  identityClientId = (await seedClient(db, w.chainA, w.now, { name: PRIVATE.clientName, isIdentitySource: true })).id;
  const box = await openSecretBox(TEST_SECRET_KEY);
  await setAuthenticationPoint(db, box, { chainId: w.chainA, baseUrl: PRIVATE.baseUrl, integrationToken: "integration-token-a", actor: null }, w.now);
  businessId = (await insertBusiness(db, { chainId: w.chainA, name: "A Store", ownerCode: "A-STORE" }, w.now)).id;
}, 60_000);
afterAll(() => w.core.close());

const chainHeader = () => ({ "X-Service-Chain-ID": String(w.chainA) });
const get = (path: string, headers: Record<string, string>, level: number) =>
  w.core.json(path, { headers: { ...headers, "X-Service-Response-Recursion-Level": String(level) } });

describe("the chain nested in a business", () => {
  it.each(["shopper", "read_businesses"] as const)("a %s, refused GET /resources/chain, gets the business's chain as {id} at every level", async (kind) => {
    const headers = kind === "shopper" ? w.shopperA : { ...w.readBusinessesA, ...chainHeader() };
    expect((await get("/resources/chain", headers, 2)).status).toBe(404);
    for (const level of [1, 2, 3, 4]) {
      const res = await get(`/resources/business/${businessId}`, headers, level);
      expect(res.status).toBe(200);
      expect({ level, chain: res.body.results.chain }).toEqual({ level, chain: { id: w.chainA } });
      const text = JSON.stringify(res.body);
      for (const secret of Object.values(PRIVATE)) expect(text, `level ${level}`).not.toContain(secret);
      for (const name of ["allowed_ip_ranges", "authentication_point", "jwt_", "ip_whitelist_super_user_exemption"]) expect(text).not.toContain(name);
    }
  });

  it("the same in the list and by owner code", async () => {
    for (const headers of [w.shopperA, { ...w.readBusinessesA, ...chainHeader() }]) {
      const list = await get("/resources/businesses", headers, 4);
      expect(list.status).toBe(200);
      expect(list.body.results.resources.map((b: any) => b.chain)).toEqual([{ id: w.chainA }]);
      const one = await get("/resources/business?owner_code=A-STORE", headers, 4);
      expect(one.body.results.chain).toEqual({ id: w.chainA });
    }
  });

  it("a chain-scope token, which may GET the chain, sees it nested in full, but the identity-source client it may not GET as {id}", async () => {
    const res = await get(`/resources/business/${businessId}`, { ...w.tokenA, ...chainHeader() }, 4);
    const chain = res.body.results.chain;
    expect(chain.allowed_ip_ranges.map((r: any) => [r.cidr, r.notes])).toEqual([[PRIVATE.cidr, PRIVATE.notes]]);
    expect(chain).toMatchObject({ jwt_issuer: PRIVATE.jwtIssuer, ip_whitelist_super_user_exemption: true });
    expect(chain.authentication_point).toEqual({ id: expect.any(Number), type: "webshop", base_url: PRIVATE.baseUrl, service_client: { id: identityClientId } });
  });

  it("a super-user admin sees everything, the identity-source client included", async () => {
    const res = await get(`/resources/business/${businessId}`, w.adminA.headers, 4);
    expect(res.body.results.chain.authentication_point.service_client).toMatchObject({ id: identityClientId, name: PRIVATE.clientName });
  });
});
