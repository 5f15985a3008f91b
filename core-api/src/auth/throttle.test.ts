/**
 * Brute-force protection of POST /auth/login (auth/throttle.ts) with an injected clock and sleep.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestCore } from "../../../test/helpers/core.ts";
import { loginThrottle, sessions } from "../db/schema.ts";
import { createAdmin, createAppHostname, createShopper } from "../db/seed.ts";
import { sha256Hex } from "../crypto/secrets.ts";
import { accountDelayMs, beginLoginAttempt, failureDelayMs } from "./throttle.ts";

let core: TestCore;
let now = new Date("2026-06-01T08:00:00Z");
const slept: number[] = [];
const APP = "throttle-shop.example.test";
beforeAll(async () => {
  core = await startCore({
    clock: () => now,
    clientAddress: (c) => c.req.header("x-test-peer"),
    sleep: async (ms) => void slept.push(ms),
  });
  await createAppHostname(core.db, core.chainId, APP);
});
afterAll(() => core.close());

let seq = 0;
const newAddress = () => `198.51.100.${++seq}`;
async function newAdmin() {
  const username = `throttle${++seq}@example.com`;
  return { username, id: await createAdmin(core.db, { username, password: "right-password" }) };
}
function login(username: string, password: string, peer: string, hostname?: string) {
  return core.json("/auth/login", {
    method: "POST",
    headers: { "content-type": "application/json", "x-test-peer": peer, ...(hostname ? { "X-Service-App-Hostname": hostname } : {}) },
    body: JSON.stringify({ username, password }),
  });
}
const later = (ms: number) => (now = new Date(now.getTime() + ms));
const sessionsOf = async (userId: number, kind = "admin") =>
  (await core.db.select().from(sessions).where(and(eq(sessions.userId, userId), eq(sessions.kind, kind)))).length;

function expectLocked(res: { status: number; body: any }) {
  expect(res.status).toBe(429);
  expect(res.body.error).toMatchObject({ code: 903, name: "too_many_login_attempts" });
  expect(res.body.result.code).toBe(903);
  expect(res.body.error.description).toMatch(/try again in \d+ (minute|second)/);
}

describe("per account and address", () => {
  it("slows failures progressively, refuses that address after 5 for 15 minutes even with the right password, then lets in", async () => {
    const admin = await newAdmin();
    const peer = newAddress();
    slept.length = 0;
    for (let i = 0; i < 5; i++) {
      const res = await login(admin.username, "wrong", peer);
      expect(res.status).toBe(401);
      expect(res.body.error.name).toBe("no_valid_session");
      later(1000);
    }
    expect(slept).toEqual([500, 1000, 2000, 4000]); // the first failure is not delayed
    const res = await core.request("/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json", "x-test-peer": peer },
      body: JSON.stringify({ username: admin.username, password: "right-password" }),
    });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(14 * 60);
    expectLocked({ status: res.status, body: await res.json() });
    expect(await sessionsOf(admin.id)).toBe(0);
    expect(slept).toHaveLength(4); // refusals are immediate

    later(14 * 60_000);
    expectLocked(await login(admin.username, "right-password", peer));
    later(60_000);
    expect((await login(admin.username, "right-password", peer)).status).toBe(200);
  });

  it("the owner from another address gets in at once: the lock is the pair's, not the account's", async () => {
    const admin = await newAdmin();
    const attacker = newAddress();
    for (let i = 0; i < 5; i++) expect((await login(admin.username, "wrong", attacker)).status).toBe(401);
    expectLocked(await login(admin.username, "right-password", attacker));
    expect((await login(admin.username, "right-password", newAddress())).status).toBe(200);
  });

  it("a success resets the pair's counter", async () => {
    const admin = await newAdmin();
    const peer = newAddress();
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 4; i++) expect((await login(admin.username, "wrong", peer)).status).toBe(401);
      expect((await login(admin.username, "right-password", peer)).status).toBe(200);
    }
  });

  it("failures spread over more than 15 minutes do not add up", async () => {
    const admin = await newAdmin();
    const peer = newAddress();
    expect((await login(admin.username, "right-password", peer)).status).toBe(200); // its own address
    for (let i = 0; i < 4; i++) expect((await login(admin.username, "wrong", peer)).status).toBe(401);
    later(15 * 60_000);
    for (let i = 0; i < 4; i++) expect((await login(admin.username, "wrong", peer)).status).toBe(401);
    expect((await login(admin.username, "right-password", peer)).status).toBe(200);
  });

  it("spellings the database equates (case) count against one account", async () => {
    const admin = await newAdmin();
    const peer = newAddress();
    const variants = [admin.username, admin.username.toUpperCase(), ` ${admin.username}`, admin.username.replace("t", "T"), admin.username.toUpperCase()];
    for (const name of variants) expect((await login(name, "wrong", peer)).status).toBe(401);
    expectLocked(await login(admin.username, "right-password", peer));
  });

  it("shoppers are throttled the same way", async () => {
    const id = await createShopper(core.db, { chainId: core.chainId, username: "throttled-shopper@example.com", password: "right-password" });
    const peer = newAddress();
    for (let i = 0; i < 5; i++) expect((await login("throttled-shopper@example.com", "wrong", peer, APP)).status).toBe(401);
    expectLocked(await login("throttled-shopper@example.com", "right-password", peer, APP));
    expect(await sessionsOf(id, "end_user")).toBe(0);
    expect((await login("throttled-shopper@example.com", "right-password", newAddress(), APP)).status).toBe(200);
  });

  it("a burst of parallel guesses gets at most 5 password checks", async () => {
    const admin = await newAdmin();
    const peer = newAddress();
    const burst = await Promise.all(Array.from({ length: 12 }, () => login(admin.username, "wrong", peer)));
    const checked = burst.filter((r) => r.status === 401).length;
    expect(checked).toBeLessThanOrEqual(5);
    expect(burst.filter((r) => r.status === 429)).toHaveLength(12 - checked);
    // whatever the interleaving, the pair gets at most 5 checks in its window (a burst may
    // bring the lock earlier, never later), and then it is locked
    let more = 0;
    for (let r = await login(admin.username, "wrong", peer); r.status === 401; r = await login(admin.username, "wrong", peer)) more++;
    expect(checked + more).toBeLessThanOrEqual(5);
    expectLocked(await login(admin.username, "right-password", peer));
  });
});

describe("per account, over all addresses", () => {
  it("50 failures from 5 other addresses: the owner from their own address with the right password gets in at once", async () => {
    const admin = await newAdmin();
    const home = newAddress();
    expect((await login(admin.username, "right-password", home)).status).toBe(200); // the owner's usual address
    const attackers = Array.from({ length: 5 }, newAddress);
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) {
      statuses.push((await login(admin.username, "wrong", attackers[i % 5]!)).status);
      later(1000);
    }
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    slept.length = 0;
    const owner = await login(admin.username, "right-password", home);
    expect(owner.status).toBe(200);
    expect(slept).toEqual([]);
    // and the owner's own typo there is answered, not refused
    expect((await login(admin.username, "typo", home)).status).toBe(401);
  });

  it("failures spread over many addresses slow the account down with a growing Retry-After, never a lock", async () => {
    const admin = await newAdmin();
    const waits: number[] = [];
    let checked = 0;
    for (let i = 0; i < 40; i++) {
      const res = await core.request("/auth/login", {
        method: "POST",
        headers: { "content-type": "application/json", "x-test-peer": newAddress() },
        body: JSON.stringify({ username: admin.username, password: "wrong" }),
      });
      if (res.status === 401) {
        checked++;
        continue;
      }
      expect(res.status).toBe(429);
      const body = (await res.json()) as any;
      expect(body.error).toMatchObject({ code: 903, name: "too_many_login_attempts" });
      const seconds = Number(res.headers.get("retry-after"));
      waits.push(seconds);
      later(seconds * 1000); // a patient attacker waits exactly as told
    }
    // 5 free failures, then one turn per wait: 1 s, 2 s, 4 s, ... at most 5 minutes
    expect(waits.slice(0, 9)).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256]);
    expect(waits.slice(9).every((w) => w === 300)).toBe(true);
    expect(Math.max(...waits)).toBeLessThan(15 * 60);
    expect(checked).toBe(40 - waits.length);
    // someone from a new address with the right password gets in once the turn is free
    const owner = await core.request("/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json", "x-test-peer": newAddress() },
      body: JSON.stringify({ username: admin.username, password: "right-password" }),
    });
    expect(owner.status).toBe(429);
    later(Number(owner.headers.get("retry-after")) * 1000);
    expect((await login(admin.username, "right-password", newAddress())).status).toBe(200);
    // the success started the account afresh
    for (let i = 0; i < 5; i++) expect((await login(admin.username, "wrong", newAddress())).status).toBe(401);
  });

  it("of simultaneous attempts from new addresses on a paced account, one reaches the password check", async () => {
    const admin = await newAdmin();
    for (let i = 0; i < 5; i++) expect((await login(admin.username, "wrong", newAddress())).status).toBe(401);
    const burst = await Promise.all(Array.from({ length: 10 }, () => login(admin.username, "wrong", newAddress())));
    expect(burst.filter((r) => r.status === 401)).toHaveLength(1);
    expect(burst.filter((r) => r.status === 429)).toHaveLength(9);
  });
});

describe("beginLoginAttempt", () => {
  it("lets at most 5 of 12 simultaneous attempts of one account and address through to the password check", async () => {
    const keys = { account: `admin-name:simultaneous-${++seq}`, address: newAddress() };
    const verdicts = await Promise.all(Array.from({ length: 12 }, () => beginLoginAttempt(core.db, keys, now)));
    const through = verdicts.filter((v) => !v.refused);
    expect(through.length).toBeLessThanOrEqual(5);
    for (const v of verdicts) if (v.refused) expect(v.retryAfterMs).toBeGreaterThan(0);
    // refused attempts take their count back: the counters hold exactly the attempts let through
    for (const key of [`pair:${keys.account}|${keys.address}`, `account:${keys.account}`]) {
      const [row] = await core.db.select().from(loginThrottle).where(eq(loginThrottle.keyHash, sha256Hex(key)));
      expect(row!.failures).toBe(through.length);
    }
  });
});

describe("per address", () => {
  it("20 failures from one address lock that address, whatever the usernames; other addresses are not affected", async () => {
    const peer = newAddress();
    for (let i = 0; i < 20; i++) expect((await login(`nobody${i}@example.com`, "x", peer)).status).toBe(401);
    const admin = await newAdmin();
    expectLocked(await login(admin.username, "right-password", peer));
    expect(await sessionsOf(admin.id)).toBe(0);
    expect((await login(admin.username, "right-password", newAddress())).status).toBe(200);
    later(15 * 60_000);
    expect((await login(admin.username, "right-password", peer)).status).toBe(200);
  });

  it("strangers' failures on a shared address do not slow an honest typo", async () => {
    const peer = newAddress();
    for (let i = 0; i < 10; i++) expect((await login(`stranger${i}@example.com`, "x", peer)).status).toBe(401);
    const admin = await newAdmin();
    slept.length = 0;
    expect((await login(admin.username, "typo", peer)).status).toBe(401);
    expect(slept).toEqual([]);
  });

  it("a success does not wipe the address's record, and unknown app hostnames count too", async () => {
    const peer = newAddress();
    const admin = await newAdmin();
    for (let i = 0; i < 10; i++) expect((await login(`nobody${i}@example.com`, "x", peer)).status).toBe(401);
    expect((await login(admin.username, "right-password", peer)).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await login("someone", "x", peer, "nowhere.example.test")).status).toBe(401);
    expectLocked(await login(admin.username, "right-password", peer));
  });
});

describe("storage", () => {
  it("keeps only hashes of the keys (a typed username may be a password)", async () => {
    await login("my-password-typed-as-username", "x", newAddress());
    const rows = await core.db.select().from(loginThrottle).where(eq(loginThrottle.scope, "account"));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.keyHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("failureDelayMs doubles from the second failure up to 4 s", () => {
    expect([1, 2, 3, 4, 5, 6, 20].map(failureDelayMs)).toEqual([0, 500, 1000, 2000, 4000, 4000, 4000]);
  });

  it("accountDelayMs is nothing for 5 failures, then 1 s doubling up to 5 minutes", () => {
    expect([1, 5, 6, 7, 8, 14, 15, 1000].map(accountDelayMs)).toEqual([0, 0, 1000, 2000, 4000, 256_000, 300_000, 300_000]);
  });
});
