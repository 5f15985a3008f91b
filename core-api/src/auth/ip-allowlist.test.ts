/**
 * Allowed IP ranges on admin login and on every admin request (auth/ip-allowlist.ts), over HTTP
 * with a fake socket address (the `x-test-peer` header stands for the runtime's getConnInfo).
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestCore } from "../../../test/helpers/core.ts";
import { allowedIpRanges, chains, sessions } from "../db/schema.ts";
import { createAdmin, grantAccess } from "../db/seed.ts";
import { normaliseCidr } from "../ip-ranges/cidr.ts";
import type { AccessLevels } from "../db/permissions.ts";

let core: TestCore;
beforeAll(async () => {
  core = await startCore({
    clientAddress: (c) => c.req.header("x-test-peer"),
    env: { TRUSTED_PROXIES: "10.0.0.0/8" },
    sleep: async () => {},
  });
});
afterAll(() => core.close());

let seq = 0;
async function newChain(cidrs: string[], options: { exemption?: boolean; deleted?: string[] } = {}): Promise<number> {
  const chainId = await core.createChain(`Chain ${++seq}`);
  if (options.exemption) await core.db.update(chains).set({ ipWhitelistSuperUserExemption: true }).where(eq(chains.id, chainId));
  for (const cidr of cidrs) await core.db.insert(allowedIpRanges).values({ chainId, cidr: normaliseCidr(cidr) });
  for (const cidr of options.deleted ?? []) await core.db.insert(allowedIpRanges).values({ chainId, cidr: normaliseCidr(cidr), deleted: true });
  return chainId;
}

async function newAdmin(grants: Array<[number, Partial<AccessLevels>]>) {
  const username = `ip-admin-${++seq}@example.com`;
  const id = await createAdmin(core.db, { username, password: "pw-secret" });
  for (const [chainId, levels] of grants) await grantAccess(core.db, id, chainId, levels);
  return { id, username };
}

async function login(username: string, headers: Record<string, string>) {
  return core.json("/auth/login", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ username, password: "pw-secret" }),
  });
}

async function sessionCount(adminId: number): Promise<number> {
  const rows = await core.db.select().from(sessions).where(and(eq(sessions.userId, adminId), eq(sessions.kind, "admin")));
  return rows.length;
}

function sessionHeaders(body: any): Record<string, string> {
  return {
    "X-Service-Session-User-ID": String(body.results.session_info.session_user_id),
    "X-Service-Session-Key": body.results.session_info.session_key,
  };
}

function expectAddressRefused(res: { status: number; body: any }, address: string) {
  expect(res.status).toBe(403);
  expect(res.body.error).toMatchObject({ code: 68, name: "permission_denied_or_non_existent" });
  expect(res.body.error.description).toContain(address);
  expect(res.body.error.description).toMatch(/allowed IP ranges/);
}

/**
 * A login refused for its address: the same 401 a wrong password gets (a distinct answer for the
 * right password made login a password oracle outside the ranges).
 */
function expectLoginRefused(res: { status: number; body: any }) {
  expect(res.status).toBe(401);
  expect(res.body.error).toEqual({ code: 6, name: "no_valid_session", description: ADMIN_REFUSED });
}
const ADMIN_REFUSED = "Invalid username or password, or login from this address is not allowed.";

describe("admin login and allowed IP ranges", () => {
  it("a chain without live ranges accepts any address (a deleted range does not restrict)", async () => {
    const chainId = await newChain([], { deleted: ["192.0.2.0/24"] });
    const admin = await newAdmin([[chainId, { read: true }]]);
    expect((await login(admin.username, { "x-test-peer": "203.0.113.50" })).status).toBe(200);
  });

  it("IPv4: inside the range logs in; outside is refused with 6 / 401 and no session", async () => {
    const chainId = await newChain(["192.0.2.0/24", "198.51.100.7"]);
    const admin = await newAdmin([[chainId, { read: true }]]);
    expect((await login(admin.username, { "x-test-peer": "192.0.2.200" })).status).toBe(200);
    expect((await login(admin.username, { "x-test-peer": "198.51.100.7" })).status).toBe(200);
    const before = await sessionCount(admin.id);
    expectLoginRefused(await login(admin.username, { "x-test-peer": "192.0.3.1" }));
    expectLoginRefused(await login(admin.username, { "x-test-peer": "198.51.100.8" }));
    expect(await sessionCount(admin.id)).toBe(before);
  });

  it("IPv6 ranges, and IPv4-mapped IPv6 socket addresses matched as IPv4", async () => {
    const chainId = await newChain(["2001:db8:1::/48", "192.0.2.0/24"]);
    const admin = await newAdmin([[chainId, { read: true }]]);
    expect((await login(admin.username, { "x-test-peer": "2001:db8:1:ffff::9" })).status).toBe(200);
    expect((await login(admin.username, { "x-test-peer": "::ffff:192.0.2.9" })).status).toBe(200);
    expectLoginRefused(await login(admin.username, { "x-test-peer": "2001:db8:2::9" }));
    expectLoginRefused(await login(admin.username, { "x-test-peer": "::ffff:192.0.3.9" }));
  });

  it("an IPv4-mapped range matches a plain IPv4 client", async () => {
    const chainId = await newChain(["::ffff:192.0.2.0/120"]);
    const admin = await newAdmin([[chainId, { read: true }]]);
    expect((await login(admin.username, { "x-test-peer": "192.0.2.1" })).status).toBe(200);
  });

  it("an unknown client address is inside no range", async () => {
    const chainId = await newChain(["0.0.0.0/0", "::/0"]);
    const admin = await newAdmin([[chainId, { read: true }]]);
    expect((await login(admin.username, { "x-test-peer": "203.0.113.1" })).status).toBe(200);
    expectLoginRefused(await login(admin.username, {}));
  });

  it("super users are exempt only when the chain sets ip_whitelist_super_user_exemption", async () => {
    const exempting = await newChain(["192.0.2.0/24"], { exemption: true });
    const strict = await newChain(["192.0.2.0/24"]);
    const superExempt = await newAdmin([[exempting, { super_user: true }]]);
    const plainAdmin = await newAdmin([[exempting, { read: true, write: true, delete: true }]]);
    const superStrict = await newAdmin([[strict, { super_user: true }]]);
    const outside = { "x-test-peer": "203.0.113.1" };
    expect((await login(superExempt.username, outside)).status).toBe(200);
    expectLoginRefused(await login(plainAdmin.username, outside));
    expectLoginRefused(await login(superStrict.username, outside));
  });

  it("X-Forwarded-For counts only from a trusted proxy (right-most untrusted entry)", async () => {
    const chainId = await newChain(["192.0.2.0/24"]);
    const admin = await newAdmin([[chainId, { read: true }]]);
    const viaProxy = await login(admin.username, { "x-test-peer": "10.1.1.1", "x-forwarded-for": "192.0.2.77" });
    expect(viaProxy.status).toBe(200);
    // a client outside the range that puts an allowed address in front of its own
    expectLoginRefused(await login(admin.username, { "x-test-peer": "10.1.1.1", "x-forwarded-for": "192.0.2.77, 203.0.113.5" }));
    // an untrusted peer cannot claim anything
    expectLoginRefused(await login(admin.username, { "x-test-peer": "203.0.113.5", "x-forwarded-for": "192.0.2.77" }));
  });
});

describe("login outside the ranges is no password oracle", () => {
  /** status, Retry-After and the exact body text of a login with `password` from `peer` */
  async function rawLogin(username: string, password: string, peer: string) {
    const res = await core.request("/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json", "x-test-peer": peer },
      body: JSON.stringify({ username, password }),
    });
    return { status: res.status, retryAfter: res.headers.get("retry-after"), body: await res.text() };
  }

  it("the right and a wrong password get byte-identical answers, the same as an unknown username", async () => {
    const chainId = await newChain(["192.0.2.0/24"]);
    const admin = await newAdmin([[chainId, { super_user: true }]]);
    const peer = "203.0.113.90";
    const right = await rawLogin(admin.username, "pw-secret", peer);
    const wrong = await rawLogin(admin.username, "not-the-password", peer);
    const unknown = await rawLogin(`nobody-${seq}@example.com`, "pw-secret", peer);
    expect(right.status).toBe(401);
    expect(JSON.parse(right.body).error).toEqual({ code: 6, name: "no_valid_session", description: ADMIN_REFUSED });
    expect(wrong).toEqual(right);
    expect(unknown).toEqual(right);
    expect(await sessionCount(admin.id)).toBe(0);
    // inside the range the same password opens a session
    expect((await rawLogin(admin.username, "pw-secret", "192.0.2.90")).status).toBe(200);
  });

  it("inside the ranges a wrong password gets that same answer", async () => {
    const chainId = await newChain(["192.0.2.0/24"]);
    const admin = await newAdmin([[chainId, { read: true }]]);
    const inside = await rawLogin(admin.username, "not-the-password", "192.0.2.91");
    const outside = await rawLogin(admin.username, "pw-secret", "203.0.113.91");
    expect(inside).toEqual(outside);
    expect(inside.status).toBe(401);
  });
});

describe("admin requests and allowed IP ranges", () => {
  const probe = (chainId: number, headers: Record<string, string>) =>
    core.json(`/internal/get-businesses?chain_id=${chainId}`, { headers });

  it("an admin of a restricted and an open chain logs in anywhere but reaches the restricted one only from inside", async () => {
    const restricted = await newChain(["192.0.2.0/24"]);
    const open = await newChain([]);
    const admin = await newAdmin([[restricted, { read: true }], [open, { read: true }]]);
    const outside = { "x-test-peer": "203.0.113.1" };
    const res = await login(admin.username, outside);
    expect(res.status).toBe(200);
    const headers = sessionHeaders(res.body);
    expect((await probe(open, { ...headers, ...outside })).status).toBe(200);
    expectAddressRefused(await probe(restricted, { ...headers, ...outside }), "203.0.113.1");
    expect((await probe(restricted, { ...headers, "x-test-peer": "192.0.2.1" })).status).toBe(200);
    // the Resources API applies the same rule
    const resource = await core.json("/resources/businesses", { headers: { ...headers, ...outside, "X-Service-Chain-ID": String(restricted) } });
    expectAddressRefused(resource, "203.0.113.1");
  });

  it("an admin whose every chain refuses the address gets no session at all", async () => {
    const a = await newChain(["192.0.2.0/24"]);
    const b = await newChain(["198.51.100.0/24"]);
    const admin = await newAdmin([[a, { read: true }], [b, { super_user: true }]]);
    expectLoginRefused(await login(admin.username, { "x-test-peer": "203.0.113.1" }));
    expect(await sessionCount(admin.id)).toBe(0);
    expect((await login(admin.username, { "x-test-peer": "198.51.100.1" })).status).toBe(200);
  });

  it("a session opened inside is refused from outside, and a new range applies to the very next request", async () => {
    const chainId = await newChain([]);
    const admin = await newAdmin([[chainId, { read: true }]]);
    const inside = { "x-test-peer": "192.0.2.1" };
    const headers = sessionHeaders((await login(admin.username, inside)).body);
    expect((await probe(chainId, { ...headers, "x-test-peer": "203.0.113.1" })).status).toBe(200);
    await core.db.insert(allowedIpRanges).values({ chainId, cidr: "192.0.2.0/24" });
    expect((await probe(chainId, { ...headers, ...inside })).status).toBe(200);
    expectAddressRefused(await probe(chainId, { ...headers, "x-test-peer": "203.0.113.1" }), "203.0.113.1");
  });
});
