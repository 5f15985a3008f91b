/**
 * The range-write lock (users/range-write-lock.ts) is a write of the chain's row: creating and
 * changing a member-number range and creating the default range each bump
 * chains.member_number_ranges_version once, and only for their own chain. (That the write makes
 * two creations on different Galera nodes conflict is tested on the cluster:
 * test/cluster/member-number-ranges.test.ts.)
 */
import { runTransaction } from "@service/shared/node";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestCore } from "../../../test/helpers/core.ts";
import { chains } from "../db/schema.ts";
import { insertMemberNumberRange, updateMemberNumberRange } from "./member-number-range-repository.ts";
import { takeGeneratedNumber } from "./member-numbers.ts";

let core: TestCore;
const NOW = new Date("2026-03-01T00:00:00Z");
beforeAll(async () => {
  core = await startCore();
});
afterAll(() => core.close());

const versionOf = async (chainId: number) =>
  (await core.db.select({ v: chains.memberNumberRangesVersion }).from(chains).where(eq(chains.id, chainId)))[0]!.v;

describe("the range-write lock writes the chain's row", () => {
  it("a new range and a changed range bump the chain's version once each; another chain's stays", async () => {
    const chainId = await core.createChain("Locked ranges");
    const other = await core.createChain("Untouched");
    expect(await versionOf(chainId)).toBe(0);
    const range = await insertMemberNumberRange(core.db, { chainId, kind: "custom", first: 100n, last: 199n, lastUpdatedBy: null }, NOW);
    expect(await versionOf(chainId)).toBe(1);
    await updateMemberNumberRange(core.db, chainId, range.id, { last: 299n, lastUpdatedBy: null }, NOW);
    expect(await versionOf(chainId)).toBe(2);
    expect(await versionOf(other)).toBe(0);
  });

  it("creating the default range bumps it; a chain that has its generated range takes numbers without it", async () => {
    const chainId = await core.createChain("Default range");
    expect(await runTransaction(core.db, (tx) => takeGeneratedNumber(tx, chainId, NOW))).toBe("10000000");
    expect(await versionOf(chainId)).toBe(1);
    expect(await runTransaction(core.db, (tx) => takeGeneratedNumber(tx, chainId, NOW))).toBe("10000001");
    expect(await versionOf(chainId)).toBe(1);
  });
});
