/**
 * add-user on the Galera cluster, written through two nodes at once: one username with
 * update_if_exists from both nodes leaves one user, and new members from both nodes never share
 * a member number; no call answers 500 (a certification conflict between the nodes is retried).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memberNumberRanges } from "../../core-api/src/db/schema.ts";
import { startCore, type TestAdmin, type TestCore } from "../helpers/core.ts";
import { encode } from "../helpers/internal-calls.ts";
import { coreOn, NODE_URLS, queryNode, type ClusterCore } from "./cluster-helpers.ts";

let core: TestCore;
let admin: TestAdmin;
let nodes: ClusterCore[];
beforeAll(async () => {
  core = await startCore();
  admin = await core.admin({ super_user: true });
  await core.db.insert(memberNumberRanges).values({ chainId: core.chainId, kind: "generated", first: 1_000_000n, last: 9_999_999n, nextNumber: 1_000_000n });
  nodes = [coreOn(core, NODE_URLS[0]!), coreOn(core, NODE_URLS[1]!)];
});
afterAll(async () => {
  await Promise.all((nodes ?? []).map((n) => n.close()));
  await core?.close();
});

/** add-user through node `i % 2` with `params` (chain_id added). */
const addUser = (i: number, params: Record<string, string | boolean>) =>
  nodes[i % 2]!.json("/internal/add-user", encode("json", "POST", admin.headers, { chain_id: core.chainId, ...params }));

describe("add-user through two nodes at once", () => {
  it("one username with update_if_exists, 20 calls from two nodes: all 200, one user", async () => {
    for (let round = 0; round < 3; round++) {
      const username = `both-nodes-${round}@example.com`;
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => addUser(i, { username, update_if_exists: true, first_name: `N${i}` })));
      expect(answers.filter((a) => a.status !== 200).map((a) => [a.status, a.body])).toEqual([]);
      expect(new Set(answers.map((a) => a.body.results.user.id)).size).toBe(1);
      expect(answers.filter((a) => a.body.results.user_type === "new")).toHaveLength(1);
      for (const url of NODE_URLS) {
        const rows = await queryNode(url, core.dbName, "SELECT id FROM users WHERE chain_id = ? AND username = ?", [core.chainId, username]);
        expect(rows, url).toHaveLength(1);
      }
    }
  });

  it("200 new members from two nodes: unique member numbers, no 500", async () => {
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => addUser(i, { username: `member-${i}@example.com` })));
    expect(answers.filter((a) => a.status !== 200).map((a) => [a.status, a.body])).toEqual([]);
    const numbers = answers.map((a) => a.body.results.user.member_number as string);
    expect(new Set(numbers).size).toBe(200);
    for (const url of NODE_URLS) {
      const [stored] = await queryNode<{ n: unknown; c: unknown }>(url, core.dbName,
        "SELECT COUNT(DISTINCT member_number) AS n, COUNT(*) AS c FROM users WHERE chain_id = ? AND username LIKE 'member-%'", [core.chainId]);
      expect([Number(stored!.n), Number(stored!.c)], url).toEqual([200, 200]);
    }
  });
});
