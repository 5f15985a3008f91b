/**
 * requireCallAccess (auth/context.ts): the internal calls' rows of the access table, checked
 * directly on a RequestAuth, each in the one authentication query of a request.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminUsers, allowedIpRanges, chains } from "../db/schema.ts";
import { ServiceError } from "../http/service-error.ts";
import { ADD_ADMIN_USER, CALL_ACCESS, type CallName } from "./access-table.ts";
import { requireCallAccess } from "./context.ts";
import type { Credentials } from "./credentials.ts";
import { ShopperTokenVerifier } from "./jwt.ts";
import { RequestAuth } from "./request-auth.ts";
import { APP_A, startTwoChains, type TwoChains } from "./two-chains.test-support.ts";

let w: TwoChains;
const CALLS = Object.keys(CALL_ACCESS) as CallName[];
const READS: CallName[] = ["get-businesses", "get-campaign", "get-campaign-groups", "get-tags", "get-user"];
/** The tag calls: "user and privileged authentication not permitted" (spec, delete-tag); alter-chain: super-user admins, as PUT on Chain. */
const ADMIN_ONLY: CallName[] = ["add-tag", "get-tags", "delete-tag", ADD_ADMIN_USER, "alter-chain"];
/** The calls a shopper may attempt at all (their handlers confine the shopper to their own profile). */
const SHOPPER_CALLS: CallName[] = ["get-user", "alter-user", "verify-phone-number", "get-basket-price", "apply-referral-code"];

beforeAll(async () => {
  w = await startTwoChains();
}, 60_000);
afterAll(() => w.core.close());

/** A RequestAuth for `credentials`, as the middleware builds it; client address 203.0.113.9. */
const authOf = (credentials: Credentials) =>
  new RequestAuth(credentials, { db: w.core.db, now: w.now, clientIp: "203.0.113.9", shopperTokens: new ShopperTokenVerifier() });

const session = (h: Record<string, string>) => ({ userId: Number(h["X-Service-Session-User-ID"]), key: h["X-Service-Session-Key"]! });
const adminCredentials = (h: Record<string, string>): Credentials => ({ kind: "admin", session: session(h) });
const tokenCredentials = (h: Record<string, string>): Credentials => {
  const [tokenId, secret] = h.Authorization!.slice("Bearer ".length).split(":");
  return { kind: "privileged", tokenId: tokenId!, secret: secret! };
};

/** The error name and description requireCallAccess raises, or "ok". */
async function outcome(credentials: Credentials, call: CallName, chainId: number): Promise<string> {
  try {
    await requireCallAccess(authOf(credentials), call, chainId);
    return "ok";
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err;
    return err.errorName;
  }
}

describe("requireCallAccess", () => {
  it("a super-user admin passes every call on the chain, and gets every level but none it lacks", async () => {
    for (const call of CALLS) expect(await outcome(adminCredentials(w.adminA.headers), call, w.chainA), call).toBe("ok");
    const levels = await requireCallAccess(authOf(adminCredentials(w.adminA.headers)), "add-business", w.chainA);
    expect(levels).toMatchObject({ read: true, write: true, super_user: true });
  });

  it("an admin needs the row's level on that very chain", async () => {
    const reader = await w.core.admin({ read: true });
    for (const call of CALLS) expect(await outcome(adminCredentials(reader.headers), call, w.chainA), call).toBe(READS.includes(call) ? "ok" : "permission_denied_or_non_existent");
    for (const call of CALLS) expect(await outcome(adminCredentials(w.adminB.headers), call, w.chainA), call).toBe("permission_denied_or_non_existent");
    expect(await outcome(adminCredentials(w.adminA.headers), "get-businesses", 2_000_000_000)).toBe("permission_denied_or_non_existent");
  });

  it("delete-campaign needs the campaign level besides write (permissions_business_chain_campaign)", async () => {
    const writer = await w.core.admin({ write: true, read: true });
    const campaigner = await w.core.admin({ campaign: true, read: true });
    const both = await w.core.admin({ write: true, campaign: true });
    expect(await outcome(adminCredentials(writer.headers), "delete-campaign", w.chainA)).toBe("permission_denied_or_non_existent");
    expect(await outcome(adminCredentials(campaigner.headers), "delete-campaign", w.chainA)).toBe("permission_denied_or_non_existent");
    expect(await outcome(adminCredentials(both.headers), "delete-campaign", w.chainA)).toBe("ok");
  });

  it("an admin outside the chain's allowed IP ranges gets 68 naming the address", async () => {
    const chainId = await w.core.createChain("Ranged");
    const admin = await w.core.admin({ write: true, read: true }, chainId);
    await w.core.db.insert(allowedIpRanges).values({ chainId, cidr: "10.0.0.0/8" });
    const error = await requireCallAccess(authOf(adminCredentials(admin.headers)), "add-business", chainId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ errorName: "permission_denied_or_non_existent", message: expect.stringContaining("203.0.113.9") });
  });

  it("a chain-scope token passes every call but the tag calls and creating an admin user; a read_businesses token only get-businesses, reading", async () => {
    for (const call of CALLS) expect(await outcome(tokenCredentials(w.tokenA), call, w.chainA), call).toBe(ADMIN_ONLY.includes(call) ? "permission_denied_or_non_existent" : "ok");
    expect(await requireCallAccess(authOf(tokenCredentials(w.tokenA)), "alter-business", w.chainA)).toMatchObject({ write: true, super_user: false });
    for (const call of CALLS) expect(await outcome(tokenCredentials(w.readBusinessesA), call, w.chainA), call).toBe(call === "get-businesses" ? "ok" : "permission_denied_or_non_existent");
    const levels = await requireCallAccess(authOf(tokenCredentials(w.readBusinessesA)), "get-businesses", w.chainA);
    expect(Object.entries(levels).filter(([, held]) => held).map(([l]) => l)).toEqual(["read"]);
    for (const call of CALLS) expect(await outcome(tokenCredentials(w.tokenA), call, w.b.chainId), call).toBe("permission_denied_or_non_existent");
  });

  it("shoppers hold nothing but get-user and alter-user; missing or bad credentials are 6, a bad token 266", async () => {
    const shopper: Credentials = { kind: "app_session", hostname: APP_A, session: session(w.shopperA) };
    for (const call of CALLS) expect(await outcome(shopper, call, w.chainA), call).toBe(SHOPPER_CALLS.includes(call) ? "ok" : "permission_denied_or_non_existent");
    for (const call of SHOPPER_CALLS) expect(await outcome(shopper, call, w.b.chainId), call).toBe("permission_denied_or_non_existent");
    expect(await outcome({ kind: "anonymous" }, "get-businesses", w.chainA)).toBe("no_valid_session");
    const stale = { kind: "admin", session: { ...session(w.adminA.headers), key: "not-the-key" } } as const;
    expect(await outcome(stale, "get-businesses", w.chainA)).toBe("no_valid_session");
    const wrong = { ...(tokenCredentials(w.tokenA) as { kind: "privileged"; tokenId: string; secret: string }), secret: "wrong" };
    expect(await outcome(wrong, "get-businesses", w.chainA)).toBe("access_token_invalid");
  });

  it("a deleted chain is refused like a missing one; a deactivated admin's session is dead", async () => {
    const chainId = await w.core.createChain("Soon deleted");
    const admin = await w.core.admin({ super_user: true }, chainId);
    expect(await outcome(adminCredentials(admin.headers), "add-campaign", chainId)).toBe("ok");
    await w.core.db.update(chains).set({ deleted: true }).where(eq(chains.id, chainId));
    expect(await outcome(adminCredentials(admin.headers), "add-campaign", chainId)).toBe("permission_denied_or_non_existent");
    await w.core.db.update(adminUsers).set({ active: false }).where(eq(adminUsers.id, admin.id));
    expect(await outcome(adminCredentials(admin.headers), "get-businesses", chainId)).toBe("no_valid_session");
  });

  it("costs one query, and none when asked again in the same request", async () => {
    const auth = authOf(adminCredentials(w.adminA.headers));
    w.core.statements.reset();
    await requireCallAccess(auth, "alter-business", w.chainA);
    await requireCallAccess(auth, "get-businesses", w.chainA);
    expect(w.core.statements.statements).toHaveLength(1);
  });
});
