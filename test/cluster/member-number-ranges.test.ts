/**
 * Member-number ranges on the Galera cluster, written through two nodes at once. Every write of a
 * chain's ranges takes the range-write lock (users/range-write-lock.ts), a write of the chain's
 * row, so two such writes on different nodes conflict at certification and the later one runs
 * again and sees the other's range; a `SELECT ... FOR UPDATE` alone holds only on its own node.
 * - Overlapping ranges created through the two nodes at once: one is stored, the other refused
 *   (parameter_invalid). With the row lock alone both were stored.
 * - The first members of a chain without a generated range, through both nodes: the default
 *   range is created once and no number is given twice. (Two such first members also collide on
 *   their equal member numbers, so this case held before the lock too; it guards it.)
 * No call answers 500.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestCore } from "../helpers/core.ts";
import { encode } from "../helpers/internal-calls.ts";
import { coreOn, NODE_URLS, queryNode, type ClusterCore } from "./cluster-helpers.ts";

let core: TestCore;
let nodes: ClusterCore[];
beforeAll(async () => {
  core = await startCore();
  nodes = [coreOn(core, NODE_URLS[0]!), coreOn(core, NODE_URLS[1]!)];
});
afterAll(async () => {
  await Promise.all((nodes ?? []).map((n) => n.close()));
  await core?.close();
});

describe("the default member-number range, first members through two nodes at once", () => {
  it("is created once per chain, and the members' numbers are all different (5 chains, 10 members each)", async () => {
    for (let round = 0; round < 5; round++) {
      const chainId = await core.createChain(`Two nodes ${round}`);
      const admin = await core.admin({ assign: true }, chainId);
      const { "X-Service-Chain-ID": _chain, ...headers } = admin.headers;
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) =>
        nodes[i % 2]!.json("/internal/add-user", encode("json", "POST", headers, { chain_id: chainId, username: `first-${round}-${i}@example.com` }))));
      expect(answers.filter((a) => a.status !== 200).map((a) => [a.status, a.body])).toEqual([]);
      const numbers = answers.map((a) => a.body.results.user.member_number as string).sort();
      expect(numbers, `round ${round}`).toEqual(Array.from({ length: 10 }, (_, i) => String(10_000_000 + i)));
      for (const url of NODE_URLS) {
        const ranges = await queryNode<{ first: unknown; next_number: unknown }>(url, core.dbName,
          "SELECT first, next_number FROM member_number_ranges WHERE chain_id = ? AND deleted = 0", [chainId]);
        expect(ranges.map((r) => [String(r.first), String(r.next_number)]), `round ${round}, ${url}`).toEqual([["10000000", "10000010"]]);
      }
    }
  }, 120_000);
});

describe("overlapping member-number ranges through two nodes at once", () => {
  it("one is created and the other refused (400, parameter_invalid 419), in each of 10 chains", async () => {
    for (let round = 0; round < 10; round++) {
      const chainId = await core.createChain(`Overlap ${round}`);
      const admin = await core.admin({ super_user: true }, chainId);
      const answers = await Promise.all([0, 1].map((i) =>
        nodes[i]!.json("/resources/member_number_range", encode("json", "POST", admin.headers, { kind: "custom", first: String(1000 + i * 50), last: String(1099 + i * 50) }))));
      const label = `round ${round}: ${JSON.stringify(answers.map((a) => [a.status, a.body?.error ?? a.body?.result]))}`;
      expect(answers.map((a) => a.status).sort(), label).toEqual([200, 400]);
      expect(answers.find((a) => a.status === 400)!.body.error, label).toMatchObject({ code: 419, name: "parameter_invalid" });
      for (const url of NODE_URLS) {
        const ranges = await queryNode(url, core.dbName, "SELECT id FROM member_number_ranges WHERE chain_id = ? AND deleted = 0", [chainId]);
        expect(ranges, `${label}, ${url}`).toHaveLength(1);
      }
    }
  }, 120_000);
});
