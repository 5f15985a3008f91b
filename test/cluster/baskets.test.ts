/**
 * add-basket on the Galera cluster, two sales sent to two different nodes at once: `FOR UPDATE`
 * does not lock across nodes, so both transactions may redeem the same voucher locally; the
 * losing commit fails certification (1213), the transaction runner re-runs it, and the re-run
 * finds the voucher redeemed and answers 910 with nothing of its basket written. Likewise one
 * retailer_basket_code sent to both nodes: one basket, the other answer the replay. Two returns
 * of one basket line sent to both nodes: their return rows carry the same line_return_number, so
 * the later commit fails certification, and its re-run sees the other's return: 419, nothing of
 * its basket written, one replacement voucher. Several sales on each node at once go into shared
 * transactions (group commit): a batch that loses certification is run again whole, its other
 * sales stored once.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { vouchers } from "../../core-api/src/db/schema.ts";
import { startCore, type TestAdmin, type TestCore } from "../helpers/core.ts";
import { encode } from "../helpers/internal-calls.ts";
import { coreOn, NODE_URLS, queryNode, type ClusterCore } from "./cluster-helpers.ts";

let core: TestCore;
let admin: TestAdmin;
let nodes: ClusterCore[];
beforeAll(async () => {
  core = await startCore();
  admin = await core.admin({ super_user: true });
  nodes = [coreOn(core, NODE_URLS[0]!), coreOn(core, NODE_URLS[1]!)];
});
afterAll(async () => {
  await Promise.all((nodes ?? []).map((n) => n.close()));
  await core?.close();
});

let seq = 0;
const post = (node: number, path: string, params: Record<string, unknown>) =>
  nodes[node]!.json(path, encode("json", "POST", admin.headers, { chain_id: core.chainId, ...params } as never));

async function memberWithVoucher(): Promise<{ userId: number; key: string; voucherId: number }> {
  const user = await post(0, "/internal/add-user", { username: `cluster-basket-${++seq}-${Date.now()}@example.com` });
  if (user.status !== 200) throw new Error(JSON.stringify(user.body));
  const key = randomBytes(32).toString("hex");
  const [res] = await core.db.insert(vouchers).values({ chainId: core.chainId, key, type: "basket", status: "claimed", campaignId: 1, userId: user.body.results.user.id, amount: 5, lockedUntil: new Date("2020-01-01T00:00:00Z") });
  return { userId: user.body.results.user.id, key, voucherId: Number(res.insertId) };
}

/** Certification failures node `url` has counted so far. */
async function certFailures(url: string): Promise<number> {
  const [row] = await queryNode<{ Value: string }>(url, core.dbName, "SHOW GLOBAL STATUS LIKE 'wsrep_local_cert_failures'");
  return Number(row?.Value ?? 0);
}

describe("add-basket through two nodes at once", () => {
  it("two sales for one voucher: one 200, one 910; one basket and one redemption on every node", async () => {
    const failuresBefore = (await Promise.all(NODE_URLS.map(certFailures))).reduce((a, b) => a + b, 0);
    for (let round = 0; round < 20; round++) {
      const { userId, key, voucherId } = await memberWithVoucher();
      const answers = await Promise.all([0, 1].map((node) => post(node, "/internal/add-basket", { user_id: userId, basket_total_price: 20 + node, retailer_basket_code: `cluster-race-${round}-${node}-${seq}`, basket_vouchers: [key] })));
      expect(answers.map((a) => a.status).sort(), JSON.stringify(answers.map((a) => a.body))).toEqual([200, 409]);
      const winner = answers.find((a) => a.status === 200)!;
      expect(answers.find((a) => a.status === 409)!.body.error.code).toBe(910);
      for (const url of NODE_URLS) {
        const stored = await queryNode<{ id: number }>(url, core.dbName, "SELECT id FROM baskets WHERE chain_id = ? AND user_id = ?", [core.chainId, userId]);
        expect(stored.map((s) => s.id), url).toEqual([winner.body.results.basket.id]);
        const [v] = await queryNode<{ status: string; basket_id: number }>(url, core.dbName, "SELECT status, basket_id FROM vouchers WHERE id = ?", [voucherId]);
        expect(v, url).toEqual({ status: "redeemed", basket_id: winner.body.results.basket.id });
      }
    }
    const failuresAfter = (await Promise.all(NODE_URLS.map(certFailures))).reduce((a, b) => a + b, 0);
    // How many rounds met a certification conflict (rather than one node seeing the other's commit first).
    console.info(`baskets cluster race: ${failuresAfter - failuresBefore} certification failures in 20 rounds`);
  });

  it("batches of sales on both nodes sharing one voucher: the contested one 200 on one node and 910 on the other, every other sale stored once", async () => {
    const failuresBefore = (await Promise.all(NODE_URLS.map(certFailures))).reduce((a, b) => a + b, 0);
    for (let round = 0; round < 6; round++) {
      const contested = await memberWithVoucher();
      const own = await Promise.all(Array.from({ length: 8 }, () => memberWithVoucher()));
      // Each node gets four sales of their own and the contested one at once: group commit puts
      // several in one transaction, whose certification conflict runs the whole batch again.
      const answers = await Promise.all([
        ...[0, 1].map((node) => post(node, "/internal/add-basket", { user_id: contested.userId, basket_total_price: 20 + node, retailer_basket_code: `cluster-batch-${round}-c${node}-${seq}`, basket_vouchers: [contested.key] })),
        ...own.map((o, i) => post(i % 2, "/internal/add-basket", { user_id: o.userId, basket_total_price: 20, retailer_basket_code: `cluster-batch-${round}-${i}-${seq}`, basket_vouchers: [o.key] })),
      ]);
      const bodies = JSON.stringify(answers.map((a) => a.body));
      expect(answers.slice(0, 2).map((a) => a.status).sort(), bodies).toEqual([200, 409]);
      expect(answers.slice(0, 2).find((a) => a.status === 409)!.body.error.code).toBe(910);
      expect(answers.slice(2).map((a) => a.status), bodies).toEqual(own.map(() => 200));
      const winner = answers.slice(0, 2).find((a) => a.status === 200)!.body.results.basket.id;
      for (const url of NODE_URLS) {
        for (const [i, m] of [contested, ...own].entries()) {
          const stored = await queryNode<{ id: number }>(url, core.dbName, "SELECT id FROM baskets WHERE chain_id = ? AND user_id = ?", [core.chainId, m.userId]);
          const expected = i === 0 ? winner : answers[i + 1]!.body.results.basket.id;
          expect(stored.map((s) => s.id), url).toEqual([expected]);
          const [v] = await queryNode<{ status: string; basket_id: number }>(url, core.dbName, "SELECT status, basket_id FROM vouchers WHERE id = ?", [m.voucherId]);
          expect(v, url).toEqual({ status: "redeemed", basket_id: expected });
        }
      }
    }
    const failuresAfter = (await Promise.all(NODE_URLS.map(certFailures))).reduce((a, b) => a + b, 0);
    console.info(`baskets cluster batches: ${failuresAfter - failuresBefore} certification failures in 6 rounds`);
  });

  it("one retailer_basket_code sent to both nodes: one basket, one redemption, the other answer the replay", async () => {
    for (let round = 0; round < 4; round++) {
      const { userId, key, voucherId } = await memberWithVoucher();
      const params = { user_id: userId, basket_total_price: 20, retailer_basket_code: `cluster-idem-${round}-${seq}`, basket_vouchers: [key] };
      const answers = await Promise.all([0, 1].map((node) => post(node, "/internal/add-basket", params)));
      expect(answers.map((a) => a.status), JSON.stringify(answers.map((a) => a.body))).toEqual([200, 200]);
      expect(answers.map((a) => a.body.results.duplicate).sort()).toEqual([false, true]);
      expect(answers[0]!.body.results.basket).toEqual(answers[1]!.body.results.basket);
      for (const url of NODE_URLS) {
        const stored = await queryNode(url, core.dbName, "SELECT id FROM baskets WHERE chain_id = ? AND user_id = ?", [core.chainId, userId]);
        expect(stored, url).toHaveLength(1);
        const [v] = await queryNode<{ status: string }>(url, core.dbName, "SELECT status FROM vouchers WHERE id = ?", [voucherId]);
        expect(v!.status).toBe("redeemed");
      }
    }
  });

  it("two returns of one line sent to both nodes: one 200, one 419; one return row and one replacement on every node", async () => {
    const failuresBefore = (await Promise.all(NODE_URLS.map(certFailures))).reduce((a, b) => a + b, 0);
    for (let round = 0; round < 12; round++) {
      const { userId, key, voucherId } = await memberWithVoucher();
      const code = `cluster-orig-${round}-${seq}`;
      const sale = await post(0, "/internal/add-basket", { user_id: userId, basket_total_price: 30, retailer_basket_code: code, basket_vouchers: [key], basket_items: [{ retailer_item_code: "A", item_quantity: 2, item_price: 20 }, { retailer_item_code: "B", item_quantity: 1, item_price: 10 }] });
      expect(sale.status, JSON.stringify(sale.body)).toBe(200);
      const originalId = sale.body.results.basket.id as number;
      const returnOn = (node: number) => post(node, "/internal/add-basket", {
        user_id: userId, basket_total_price: -20, retailer_basket_code: `${code}-ret-${node}`,
        basket_items: [{ retailer_item_code: "A", item_quantity: -2, item_price: -20, return_item: true, original_retailer_basket_code: code }],
      });
      const answers = await Promise.all([0, 1].map(returnOn));
      expect(answers.map((a) => a.status).sort(), JSON.stringify(answers.map((a) => a.body))).toEqual([200, 400]);
      const winner = answers.find((a) => a.status === 200)!;
      expect(answers.find((a) => a.status === 400)!.body.error.code).toBe(419);
      const winnerId = winner.body.results.basket.id as number;
      for (const url of NODE_URLS) {
        const stored = await queryNode<{ id: number }>(url, core.dbName, "SELECT id FROM baskets WHERE chain_id = ? AND user_id = ? ORDER BY id", [core.chainId, userId]);
        expect(stored.map((s) => s.id), url).toEqual([originalId, winnerId]);
        const returned = await queryNode(url, core.dbName, "SELECT return_basket_id, quantity, line_return_number FROM basket_returns WHERE original_basket_id = ?", [originalId]);
        expect(returned, url).toEqual([{ return_basket_id: winnerId, quantity: 2, line_return_number: 1 }]);
        const replacements = await queryNode(url, core.dbName, "SELECT generating_return_transaction_id AS basket, status FROM vouchers WHERE parent_voucher_id = ?", [voucherId]);
        expect(replacements, url).toEqual([{ basket: winnerId, status: "claimed" }]);
      }
    }
    const failuresAfter = (await Promise.all(NODE_URLS.map(certFailures))).reduce((a, b) => a + b, 0);
    console.info(`basket returns cluster race: ${failuresAfter - failuresBefore} certification failures in 12 rounds`);
  });
});
