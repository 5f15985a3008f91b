/**
 * Group commit of sales (baskets/sale-batch.ts): concurrent add-basket calls share a transaction,
 * sales naming their member by id written together, the others each after a savepoint. A sale's
 * own error (910, 68, a duplicate code) is its answer alone and leaves nothing of it; the others of
 * its batch are written. A batch failing on a statement written for several sales (a trigger here
 * refuses one voucher's UPDATE) is written again sale by sale. With GROUP_COMMIT=off every sale is
 * a transaction of its own (no savepoint ever sent), with the same answers.
 */
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { baskets } from "../db/schema.ts";
import { addUserAsAdmin, call, usersWorldForFile } from "../users/user-test-support.ts";
import { seedVoucher, voucherRow } from "./basket-test-support.ts";
import { useSaleGroupCommit } from "./sale-batch.ts";

const w = usersWorldForFile();

let seq = 0;
const newUser = async () => (await addUserAsAdmin(w, { username: `batch-${++seq}@example.com` })).body.results.user as { id: number; username: string };
const sell = (params: Record<string, unknown>) => call(w.core, "POST", "/internal/add-basket", w.token, { chain_id: w.core.chainId, ...params } as never);
const basketsOf = (userId: number) => w.core.db.select().from(baskets).where(and(eq(baskets.chainId, w.core.chainId), eq(baskets.userId, userId)));

/**
 * One round of 14 sales sent at once: 8 of their own (200 each), 4 racing for one voucher (one
 * 200, three 910; two of them name the member by username, so a batch may hold sales written
 * together and sales at savepoints), one naming no voucher of its member (68) and one copy of an
 * own sale's code with other content (914, or the first of the two when it came first). Checks
 * every answer and every row.
 */
async function round(tag: string): Promise<void> {
  const own = await Promise.all(Array.from({ length: 8 }, async () => {
    const user = await newUser();
    return { user, voucher: await seedVoucher(w.core, user.id, "basket", { amount: 2 }) };
  }));
  const racer = await newUser();
  const shared = await seedVoucher(w.core, racer.id, "basket", { amount: 5 });
  const stranger = await newUser();
  // Only the sales' statements from here (and the replays' reads after them).
  w.core.statements.reset();
  const answers = await Promise.all([
    ...own.map((o, i) => sell({ user_id: o.user.id, basket_total_price: 10, retailer_basket_code: `${tag}-own-${i}`, basket_vouchers: [o.voucher.key] })),
    ...[0, 1, 2, 3].map((i) => sell({ ...(i % 2 ? { username: racer.username } : { user_id: racer.id }), basket_total_price: 10 + i, retailer_basket_code: `${tag}-race-${i}`, basket_vouchers: [shared.key] })),
    sell({ user_id: stranger.id, basket_total_price: 10, retailer_basket_code: `${tag}-stranger`, basket_vouchers: [own[0]!.voucher.key] }),
    sell({ user_id: own[1]!.user.id, basket_total_price: 99, retailer_basket_code: `${tag}-own-1` }),
  ]);
  const bodies = JSON.stringify(answers.map((a) => a.body));
  for (const [i, o] of own.entries()) {
    if (i === 1) continue; // its code is contested below
    expect(answers[i]!.status, bodies).toBe(200);
    const stored = await basketsOf(o.user.id);
    expect(stored.map((b) => b.id)).toEqual([answers[i]!.body.results.basket.id]);
    expect(await voucherRow(w.core, o.voucher.id)).toMatchObject({ status: "redeemed", basketId: stored[0]!.id });
  }
  const race = answers.slice(8, 12);
  expect(race.filter((a) => a.status === 200), bodies).toHaveLength(1);
  expect(race.filter((a) => a.status !== 200).map((a) => a.body.error?.code)).toEqual([910, 910, 910]);
  const winner = race.find((a) => a.status === 200)!.body.results.basket.id;
  expect((await basketsOf(racer.id)).map((b) => b.id)).toEqual([winner]);
  expect(await voucherRow(w.core, shared.id)).toMatchObject({ status: "redeemed", basketId: winner });
  expect(answers[12]!.body.error?.code, bodies).toBe(68);
  expect(await basketsOf(stranger.id)).toEqual([]);
  // The two sales of one code: whichever came first is stored; the other is 914.
  const contested = [answers[1]!, answers[13]!];
  expect(contested.map((a) => a.status).sort(), bodies).toEqual([200, 409]);
  expect(contested.find((a) => a.status === 409)!.body.error.code).toBe(914);
  const stored = await basketsOf(own[1]!.user.id);
  expect(stored.map((b) => b.id)).toEqual([contested.find((a) => a.status === 200)!.body.results.basket.id]);
}

describe("group commit of sales", () => {
  it("sales sent at once share transactions: each gets its own answer, a failed sale leaves nothing, the others are written", async () => {
    let shared = false;
    let atSavepoint = false;
    for (let r = 0; r < 8 && !(shared && atSavepoint); r++) {
      await round(`gc-${r}-${seq}`);
      const sent = w.core.statements.statements;
      // Fewer transactions than sales: some transaction held several of the 14.
      shared ||= sent.filter((s) => /^\s*begin\b/i.test(s)).length < 14;
      // A sale naming its member by username ran at a savepoint, in a batch with others.
      atSavepoint ||= sent.some((s) => /^\s*savepoint\b/i.test(s));
    }
    expect(shared).toBe(true);
    expect(atSavepoint).toBe(true);
  });

  it("a sale whose code is stored already gives up the voucher it named to a later sale of its batch (914 and 200, as alone)", async () => {
    let batched = false;
    for (let r = 0; r < 5 && !batched; r++) {
      const [owner, member] = await Promise.all([newUser(), newUser()]);
      const code = `taken-${r}-${seq}`;
      expect((await sell({ user_id: owner.id, basket_total_price: 5, retailer_basket_code: code })).status).toBe(200);
      const voucher = await seedVoucher(w.core, member.id, "basket", { amount: 2 });
      const fillers = await Promise.all(Array.from({ length: 3 }, () => newUser()));
      w.core.statements.reset();
      const [, stale, fresh] = await Promise.all([
        ...fillers.slice(0, 1).map((f) => sell({ user_id: f.id, basket_total_price: 10 })),
        sell({ user_id: member.id, basket_total_price: 10, retailer_basket_code: code, basket_vouchers: [voucher.key] }),
        sell({ user_id: member.id, basket_total_price: 12, basket_vouchers: [voucher.key] }),
        ...fillers.slice(1).map((f) => sell({ user_id: f.id, basket_total_price: 10 })),
      ]);
      batched = w.core.statements.statements.some((s) => /^\s*rollback\s*$/i.test(s));
      expect(stale!.body.error?.code, JSON.stringify(stale!.body)).toBe(914);
      expect(fresh!.status, JSON.stringify(fresh!.body)).toBe(200);
      expect(await voucherRow(w.core, voucher.id)).toMatchObject({ status: "redeemed", basketId: fresh!.body.results.basket.id });
    }
    expect(batched).toBe(true);
  });

  it("a batch whose voucher UPDATE fails is written again sale by sale: the failing sale's basket is not stored, the others are", async () => {
    await w.core.db.execute(sql.raw("CREATE TRIGGER refuse_voucher BEFORE UPDATE ON vouchers FOR EACH ROW BEGIN IF OLD.description = 'refuse' THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'refused by the test'; END IF; END"));
    try {
      let rewritten = false;
      for (let r = 0; r < 5 && !rewritten; r++) {
        const users = await Promise.all(Array.from({ length: 7 }, () => newUser()));
        const keys = await Promise.all(users.map((u, i) => seedVoucher(w.core, u.id, "basket", { amount: 2, description: i === 3 ? "refuse" : null })));
        w.core.statements.reset();
        const answers = await Promise.all(users.map((u, i) => sell({ user_id: u.id, basket_total_price: 10, retailer_basket_code: `refuse-${r}-${i}-${seq}`, basket_vouchers: [keys[i]!.key] })));
        // More basket INSERTs than sales: a batch's were sent again, one sale at a time.
        rewritten = w.core.statements.statements.filter((s) => /^\s*insert into `baskets`/i.test(s)).length > users.length;
        for (const [i, u] of users.entries()) {
          const stored = await basketsOf(u.id);
          if (i === 3) {
            expect(answers[i]!.status).toBe(500);
            expect(stored).toEqual([]);
            expect(await voucherRow(w.core, keys[i]!.id)).toMatchObject({ status: "claimed", basketId: null });
          } else {
            expect(answers[i]!.status, JSON.stringify(answers[i]!.body)).toBe(200);
            expect(stored.map((b) => b.id)).toEqual([answers[i]!.body.results.basket.id]);
          }
        }
      }
      // Some round held the refused sale in a batch with others.
      expect(rewritten).toBe(true);
    } finally {
      await w.core.db.execute(sql.raw("DROP TRIGGER refuse_voucher"));
    }
  });

  it("a replay in a batch stored in one multi-row INSERT: the batch is written again sale by sale; the replay answers the stored basket, the others are stored once", async () => {
    let multiRow = false;
    let rewritten = false;
    for (let r = 0; r < 5 && !(multiRow && rewritten); r++) {
      const users = await Promise.all(Array.from({ length: 6 }, () => newUser()));
      const keys = await Promise.all(users.map((u) => seedVoucher(w.core, u.id, "basket", { amount: 2 })));
      // The last sale names no voucher: its copy reaches the INSERT, where the code is refused.
      const body = (i: number) => ({ user_id: users[i]!.id, basket_total_price: 10, retailer_basket_code: `replay-${r}-${i}-${seq}`, ...(i === 5 ? {} : { basket_vouchers: [keys[i]!.key] }) });
      const first = await sell(body(5));
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      w.core.statements.reset();
      const answers = await Promise.all(users.map((_u, i) => sell(body(i))));
      const sent = w.core.statements.statements;
      multiRow ||= sent.some((s) => /^\s*insert into `baskets`.*\), \(/is.test(s));
      rewritten ||= sent.some((s) => /^\s*rollback\s*$/i.test(s)) && sent.filter((s) => /^\s*insert into `baskets`/i.test(s)).length > 5;
      expect(answers[5]!.body.results, JSON.stringify(answers[5]!.body)).toEqual({ ...first.body.results, duplicate: true });
      for (const [i, u] of users.entries()) {
        const stored = await basketsOf(u.id);
        expect(stored, JSON.stringify(answers[i]!.body)).toHaveLength(1);
        expect(answers[i]!.body.results.basket.id).toBe(stored[0]!.id);
        if (i < 5) expect(await voucherRow(w.core, keys[i]!.id)).toMatchObject({ status: "redeemed", basketId: stored[0]!.id });
      }
    }
    expect(multiRow && rewritten).toBe(true);
  });

  it("GROUP_COMMIT=off: a transaction per sale, no savepoint, the same answers", async () => {
    useSaleGroupCommit(w.core.db, false);
    try {
      w.core.statements.reset();
      await round(`solo-${seq}`);
      expect(w.core.statements.statements.filter((s) => /savepoint/i.test(s))).toEqual([]);
    } finally {
      useSaleGroupCommit(w.core.db, true);
    }
  });
});
