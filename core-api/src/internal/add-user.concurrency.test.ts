/**
 * add-user under concurrent requests ("20 parallel add-user calls with one username and
 * update_if_exists all succeed with one user; 20 parallel calls without it give one 200 and 19
 * user_already_exists; 1,000 parallel signups never share a member number"). Requests go through
 * app.request() all at once (Promise.all; the pool's connections bound what the database sees).
 */
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chains, memberNumberRanges, users } from "../db/schema.ts";
import { addUserAsAdmin, call, seedRange, startUsersWorld, type UsersWorld } from "../users/user-test-support.ts";

let w: UsersWorld;
let rangeId: number;
beforeAll(async () => {
  // 1,000 requests at once queue on the pool's 10 connections far longer than one request's
  // deadline (REQUEST_DEADLINE_MS, 5 s): this test is about the numbers handed out, not latency.
  w = await startUsersWorld({ REQUEST_DEADLINE_MS: "120000" });
  rangeId = await seedRange(w.core, w.core.chainId, "generated", 1_000_000n, 9_999_999n);
}, 60_000);
afterAll(() => w.core.close());

const usersNamed = async (username: string) => w.core.db.select().from(users).where(and(eq(users.chainId, w.core.chainId), eq(users.username, username)));

describe("one username, 20 requests at once", () => {
  it("with update_if_exists: all succeed, on one user", async () => {
    const username = "same-update@example.com";
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => addUserAsAdmin(w, { username, update_if_exists: true, first_name: `N${i}` })));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const ids = new Set(results.map((r) => r.body.results.user.id));
    expect(ids.size).toBe(1);
    expect(results.filter((r) => r.body.results.user_type === "new")).toHaveLength(1);
    expect(results.filter((r) => r.body.results.updated_existing_user)).toHaveLength(19);
    expect(await usersNamed(username)).toHaveLength(1);
  });

  it("without it: one 200 and 19 user_already_exists", async () => {
    const username = "same-plain@example.com";
    const results = await Promise.all(Array.from({ length: 20 }, () => addUserAsAdmin(w, { username })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    const refused = results.filter((r) => r.status !== 200);
    expect(refused.map((r) => [r.status, r.body.error.name])).toEqual(Array(19).fill([400, "user_already_exists"]));
    expect(await usersNamed(username)).toHaveLength(1);
  });
});

describe("1,000 signups at once", () => {
  it("never share a member number, and the counter moves by exactly the numbers handed out", async () => {
    const [before] = await w.core.db.select().from(memberNumberRanges).where(eq(memberNumberRanges.id, rangeId));
    const results = await Promise.all(Array.from({ length: 1000 }, (_, i) => addUserAsAdmin(w, { username: `signup-${i}@example.com` })));
    expect(results.filter((r) => r.status !== 200).map((r) => r.body)).toEqual([]);
    const numbers = results.map((r) => r.body.results.user.member_number as string);
    expect(new Set(numbers).size).toBe(1000);
    const [after] = await w.core.db.select().from(memberNumberRanges).where(eq(memberNumberRanges.id, rangeId));
    expect(after!.nextNumber - before!.nextNumber).toBe(1000n);
    const stored = (await w.core.db.execute(sql`SELECT COUNT(DISTINCT member_number) AS n, COUNT(*) AS c FROM users WHERE chain_id = ${w.core.chainId} AND username LIKE 'signup-%'`)) as unknown as [Array<{ n: number; c: number }>];
    expect([Number(stored[0][0]!.n), Number(stored[0][0]!.c)]).toEqual([1000, 1000]);
    const sorted = numbers.map(Number).sort((a, b) => a - b);
    expect(sorted[999]! - sorted[0]!).toBe(999);
  }, 180_000);
});

describe("first users of a chain without a generated range, at once", () => {
  it("create the default range once and never share a member number", async () => {
    const chainId = await w.core.createChain("Racing");
    const admin = await w.core.admin({ assign: true }, chainId);
    const { "X-Service-Chain-ID": _c, ...headers } = admin.headers;
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      call(w.core, "POST", "/internal/add-user", headers, { chain_id: chainId, username: `racer-${i}@example.com` })));
    expect(results.filter((r) => r.status !== 200).map((r) => r.body)).toEqual([]);
    const numbers = results.map((r) => r.body.results.user.member_number as string).sort();
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => String(10_000_000 + i)));
    const ranges = await w.core.db.select().from(memberNumberRanges).where(eq(memberNumberRanges.chainId, chainId));
    expect(ranges.map((r) => [r.kind, r.first, r.nextNumber])).toEqual([["generated", 10_000_000n, 10_000_020n]]);
    // The creation wrote the chain's row (users/range-write-lock.ts): on a Galera cluster two
    // creations through different nodes conflict at certification, as a row lock alone would not.
    const [chain] = await w.core.db.select({ version: chains.memberNumberRangesVersion }).from(chains).where(eq(chains.id, chainId));
    expect(chain!.version).toBeGreaterThanOrEqual(1);
  }, 60_000);
});
