/**
 * Group commit of sales (add-basket): sales that arrive while a transaction of sales is being
 * written wait and go together into the next one (db/group-commit.ts, as add-business's new
 * businesses do). A transaction per sale cost more than the sale itself: its own connection taken
 * from the pool, BEGIN, the runner's marker row and COMMIT, each a round trip (see
 * docs/performance.md, "Group commit of sales").
 *
 * In a transaction of several sales, each sale runs after a `SAVEPOINT`, in arrival order, exactly
 * the statements it runs alone (baskets/sale.ts, writeSale). A sale that fails on its own error (a
 * ServiceError such as 910 or 68, a duplicate key such as `baskets_by_retailer_code`) is rolled
 * back to its savepoint and answers that error alone, once the transaction has committed; the
 * others are written. What each sale guarantees alone holds in the batch:
 *
 * - Exactly once: its basket and its vouchers' redemption commit together or not at all (one
 *   transaction; the runner's marker row tells a COMMIT lost on the way).
 * - Isolation between sales: a later sale of the batch sees what the earlier ones wrote, as it
 *   would after their commits: a voucher an earlier sale redeemed is 910, a retailer_basket_code
 *   it stored is a duplicate (add-basket answers it as the replay, read after the commit).
 * - Locks: each sale locks its member, then its vouchers in key order. A failed sale's locks stay
 *   until the batch ends (a rollback to a savepoint keeps InnoDB's row locks). Two batches whose
 *   sales lock rows in opposite orders may deadlock: the engine rolls one back (1213) and the
 *   runner writes that batch again, whole, as it does for a Galera certification conflict; so
 *   does a sale's conflict, which never stays with the sale that met it (the engine rolled the
 *   whole transaction back).
 * - Errors that are no sale's own (the database unreachable, conflicts until the deadline, the
 *   outcome of the COMMIT unknown) are every sale's of the batch, as they would have been alone.
 *
 * A batch runs under the soonest deadline of the requests it holds. A batch of one sale is the
 * sale's own transaction (no savepoint): one sale at a time sends exactly what confirmSale sends.
 */
import { isDatabaseUnavailable, isTransactionConflict, runTransaction } from "@service/shared/node";
import { sql } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { WriteBatcher } from "../db/group-commit.ts";
import { baseDatabase, databaseUntil, deadlineOf } from "../db/request-database.ts";
import type { CoreTx } from "../users/member-numbers.ts";
import { confirmSale, writeSale, type Sale, type SaleOutcome } from "./sale.ts";

/** Most sales in one group-commit transaction. */
const MAX_BATCH = 16;
/**
 * Group-commit transactions of sales one process writes at once. A batch's sales run one after
 * another on its connection (a sale's statements depend on the one before), so one batch at a
 * time would make every sale wait for the round trips of all before it; two let one batch
 * gather while the other writes.
 */
const IN_FLIGHT = 2;

/** A sale's answer from its batch: its outcome, or the error that was its own. */
type Settled = { ok: true; outcome: SaleOutcome } | { ok: false; error: unknown };

/** Databases whose sales each write a transaction of their own (GROUP_COMMIT=off). */
const alone = new WeakSet<CoreDb>();

/** One group committer per shared database client (a process has one; tests one per database). */
const committers = new WeakMap<CoreDb, WriteBatcher<Sale, Settled>>();

/**
 * Turns group commit of sales on `db` on (the default) or off (GROUP_COMMIT=off: each sale its own
 * transaction, to measure what group commit saves).
 */
export function useSaleGroupCommit(db: CoreDb, on: boolean): void {
  if (on) alone.delete(baseDatabase(db));
  else alone.add(baseDatabase(db));
}

/**
 * Confirms a sale (baskets/sale.ts, confirmSale) in the next group-commit transaction of sales;
 * see the module comment. Answers only once that transaction has committed.
 * @returns what confirmSale answers
 * @throws what confirmSale throws (nothing of this sale is written then); the batch's error when
 *   it is none of its sales' own (503 for an unavailable database or conflicts until the
 *   deadline; nothing of the batch is written then)
 */
export async function confirmSaleGrouped(db: CoreDb, sale: Sale): Promise<SaleOutcome> {
  const base = baseDatabase(db);
  if (alone.has(base)) return confirmSale(db, sale);
  const settled = await committerOf(base).add(sale, deadlineOf(db));
  if (!settled.ok) throw settled.error;
  return settled.outcome;
}

function committerOf(base: CoreDb): WriteBatcher<Sale, Settled> {
  let committer = committers.get(base);
  if (!committer) {
    const write = (sales: Sale[], at: number | undefined) => writeSales(at === undefined ? base : databaseUntil(base, at), sales);
    // A batch fails whole only on errors no sale owns: writing its sales one by one would not help.
    committer = new WriteBatcher(write, { maxBatch: MAX_BATCH, maxInFlight: IN_FLIGHT, retryAlone: () => false });
    committers.set(base, committer);
  }
  return committer;
}

/**
 * Writes `sales` in one transaction of the runner, each after a savepoint (one sale: its own
 * transaction, no savepoint).
 * @returns one answer per sale, in order
 * @throws the error of a lone sale; in a batch, an error no sale owns (nothing written)
 */
async function writeSales(db: CoreDb, sales: readonly Sale[]): Promise<Settled[]> {
  if (sales.length === 1) return [{ ok: true, outcome: await confirmSale(db, sales[0]!) }];
  return runTransaction(db, async (tx) => {
    const answers: Settled[] = [];
    for (const sale of sales) answers.push(await writeSaleAtSavepoint(tx, sale));
    return answers;
  });
}

/**
 * One sale of a batch: a savepoint, the sale, and back to the savepoint when the sale failed on
 * its own error.
 * @throws a conflict or an unavailable database (the whole batch's)
 */
async function writeSaleAtSavepoint(tx: CoreTx, sale: Sale): Promise<Settled> {
  await tx.execute(sql`savepoint sale`);
  try {
    return { ok: true, outcome: await writeSale(tx, sale) };
  } catch (error) {
    if (isTransactionConflict(error) || isDatabaseUnavailable(error)) throw error;
    await tx.execute(sql`rollback to savepoint sale`);
    return { ok: false, error };
  }
}
