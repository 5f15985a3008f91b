/**
 * COMPILED_SELECTS=off (useCompiledSelects): the callers of compiled selects read the same
 * results through drizzle's own prepared queries (text protocol) as through the compiled
 * statements (server-side prepared), on the shared client and on a request's handle of it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTwoChains, APP_A, type TwoChains } from "../auth/two-chains.test-support.ts";
import { loadSessionGrant } from "../auth/session-grant.ts";
import { pricingInputs } from "../baskets/pricing-inputs.ts";
import { findBusinessById, findBusinessByOwnerCode, findBusinessesByIds, insertBusiness } from "../businesses/business-repository.ts";
import { verifyAccessToken } from "../clients/verify.ts";
import { seedCampaign, seedVoucher } from "../vouchers/voucher-test-support.ts";
import type { CoreDb } from "./client.ts";
import { useCompiledSelects } from "./compiled-select.ts";
import { databaseUntil } from "./request-database.ts";

let w: TwoChains;
let businessId: number;

beforeAll(async () => {
  w = await startTwoChains();
  const stamp = new Date("2026-03-04T05:06:07Z");
  businessId = (await insertBusiness(w.core.db, { chainId: w.chainA, name: "Beide Wegen", ownerCode: "BW-1", latitude: 52.123456789, longitude: -4.5, isShutDown: true, openingTimes: '{"monday":null}' }, stamp)).id;
  const campaignId = await seedCampaign(w.core.db, w.chainA);
  for (let i = 0; i < 3; i++) await seedVoucher(w.core.db, { chainId: w.chainA, campaignId, userId: w.shopperAId, status: "claimed" }, w.now);
}, 60_000);
afterAll(async () => {
  useCompiledSelects(w.core.db, true);
  await w.core.close();
});

/** The session claim of session headers. */
const claimOf = (headers: Record<string, string>) => ({ userId: Number(headers["X-Service-Session-User-ID"]), key: headers["X-Service-Session-Key"]! });

/** `read`'s outcome (its value, or the error it threw) and how its statements were sent. */
async function outcome(read: () => Promise<unknown>): Promise<{ result: unknown; commands: string[] }> {
  w.core.statements.reset();
  const result = await read().then((value) => ({ value }), (error: Error) => ({ error: error.message }));
  return { result, commands: [...w.core.statements.commands] };
}

/**
 * Runs `read` on the shared client and on a request's handle, with compiled selects and then with
 * drizzle's prepared queries, and expects the same outcomes each way.
 */
async function sameBothWays(name: string, read: (db: CoreDb) => Promise<unknown>): Promise<unknown> {
  const handle = () => databaseUntil(w.core.db, performance.now() + 5_000);
  useCompiledSelects(w.core.db, true);
  const compiled = [await outcome(() => read(w.core.db)), await outcome(() => read(handle()))];
  useCompiledSelects(w.core.db, false);
  const drizzled = [await outcome(() => read(w.core.db)), await outcome(() => read(handle()))];
  useCompiledSelects(w.core.db, true);
  for (const [i, via] of ["shared client", "request handle"].entries()) {
    expect(drizzled[i]!.result, `${name} (${via})`).toEqual(compiled[i]!.result);
    expect(compiled[i]!.commands, `${name}: compiled (${via})`).toEqual(["Execute"]);
    expect(drizzled[i]!.commands, `${name}: drizzle (${via})`).toEqual(["Query"]);
  }
  return compiled[0]!.result;
}

describe("COMPILED_SELECTS=off: the callers read the same through drizzle's prepared queries", () => {
  it("the session check: an admin without and with an app, a shopper", async () => {
    const base = { now: w.now, clientIp: null };
    const cases: Array<[string, Parameters<typeof loadSessionGrant>[1], Parameters<typeof loadSessionGrant>[2]]> = [
      ["admin, chain only", claimOf(w.adminA.headers), { ...base, hostname: null, chainId: w.chainA }],
      ["admin, a chain without rights", claimOf(w.adminA.headers), { ...base, hostname: null, chainId: w.b.chainId }],
      ["admin through an app", claimOf(w.adminA.headers), { ...base, hostname: APP_A, chainId: w.chainA }],
      ["shopper through the app", claimOf(w.shopperA), { ...base, hostname: APP_A, chainId: null }],
      ["shopper without the app (refused)", claimOf(w.shopperA), { ...base, hostname: null, chainId: null }],
      ["a wrong session key (refused)", { ...claimOf(w.adminA.headers), key: "wrong" }, { ...base, hostname: null, chainId: w.chainA }],
    ];
    for (const [name, claim, query] of cases) await sameBothWays(name, (db) => loadSessionGrant(db, claim, query));
    const read = (await sameBothWays("admin, chain only", (db) => loadSessionGrant(db, claimOf(w.adminA.headers), cases[0]![2]))) as any;
    expect(read.value.chain.id).toBe(w.chainA);
    expect(read.value.levels.super_user).toBe(true);
  });

  it("the access token check, with its chain, and a wrong secret", async () => {
    const [tokenId, secret] = w.tokenA.Authorization!.slice("Bearer ".length).split(":") as [string, string];
    const read = (await sameBothWays("token", (db) => verifyAccessToken(db, tokenId, secret, w.chainA))) as any;
    expect(read.value.chain.id).toBe(w.chainA);
    await sameBothWays("token without a chain", (db) => verifyAccessToken(db, tokenId, secret));
    await sameBothWays("token, wrong secret", (db) => verifyAccessToken(db, tokenId, "wrong", w.chainA));
  });

  it("the business reads by id, owner code and ids, and get-basket-price's inputs", async () => {
    const found = (await sameBothWays("business by id", (db) => findBusinessById(db, w.chainA, businessId))) as any;
    expect(found.value).toMatchObject({ id: businessId, isShutDown: true, latitude: 52.123456789 });
    expect(found.value.createdDate).toEqual(new Date("2026-03-04T05:06:07Z"));
    await sameBothWays("business by id, another chain", (db) => findBusinessById(db, w.b.chainId, businessId));
    await sameBothWays("business by owner code", (db) => findBusinessByOwnerCode(db, w.chainA, "BW-1"));
    await sameBothWays("businesses by ids", (db) => findBusinessesByIds(db, [businessId, 999_999_999, w.b.businessId]));
    const inputs = (await sameBothWays("pricing inputs", (db) => pricingInputs(db, w.chainA, { column: "id", value: w.shopperAId }, null))) as any;
    expect(inputs.value.considered).toHaveLength(3);
    await sameBothWays("pricing inputs, anonymous", (db) => pricingInputs(db, w.chainA, null, null));
  });
});
