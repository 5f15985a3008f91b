/**
 * Member-number ranges on the Galera cluster, written through two nodes at once: the first
 * members of a chain without a generated range, added through node 1 and node 2 together, create
 * the default range once (users/range-write-lock.ts: the creation writes the chain's row, so two
 * creations on different nodes conflict at certification and the later one is run again, when it
 * finds the other's range) and never share a member number; no call answers 500.
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
