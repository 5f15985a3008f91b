/**
 * Group commit of sales (add-basket): sales that arrive while a transaction of sales is being
 * written wait and go together into the next one (db/group-commit.ts, as add-business's new
 * businesses do). A transaction per sale cost more than the sale itself: its own connection taken
 * from the pool, BEGIN, the runner's marker row and COMMIT, each a round trip (see
 * docs/performance.md, "Group commit of sales").
 *
 * A transaction of several sales writes them in arrival order. Each run of consecutive plain
 * sales (the member named by id, no return line, not setting the member's stores: writesTogether)
 * is written together: one locking read of all their members and named vouchers, their baskets in
 * one multi-row INSERT (ids read back by retailer_basket_code), and one UPDATE redeeming all their
 * vouchers. Any other sale runs its own statements (baskets/sale.ts, writeSale) after a
 * `SAVEPOINT`. A sale that fails on its own error (a ServiceError such as 910 or 68, a duplicate
 * key such as `baskets_by_retailer_code`) answers that error alone, once the transaction has
 * committed, and leaves nothing: a plain sale fails before its basket is stored or on its own
 * INSERT (a refused statement leaves no row), another is rolled back to its savepoint. The others
 * are written. What each sale guarantees alone holds in the batch:
 *
 * - Exactly once: its basket and its vouchers' redemption commit together or not at all (one
 *   transaction; the runner's marker row tells a COMMIT lost on the way).
 * - Isolation between sales: a later sale of the batch sees what the earlier ones wrote, as it
 *   would after their commits: a voucher an earlier sale redeemed is 910, a retailer_basket_code
 *   it stored is a duplicate (add-basket answers it as the replay, read after the commit).
 * - Locks: the members and vouchers of a run of plain sales are locked before any of them is
 *   written; a sale at a savepoint locks its own member, then its vouchers in key order. Two batches
 *   locking rows in opposite orders may deadlock: the engine rolls one back (1213) and the runner
 *   writes that batch again, whole, as it does for a Galera certification conflict; so does a
 *   sale's conflict, which never stays with the sale that met it (the engine rolled the whole
 *   transaction back).
 * - A statement written for several sales that fails (the one UPDATE of their vouchers, say)
 *   fails the batch: nothing of it is written, and the batcher writes its sales again, each in a
 *   transaction of its own, so each gets its own answer.
 * - Errors that are no sale's own (the database unreachable, conflicts until the deadline, the
 *   outcome of the COMMIT unknown) are every sale's of the batch, as they would have been alone.
 *
 * A batch runs under the soonest deadline of the requests it holds. A batch of one sale is the
 * sale's own transaction (no savepoint): one sale at a time sends exactly what confirmSale sends.
 */
import { isDatabaseUnavailable, isTransactionConflict, runTransaction } from "@service/shared/node";
import { and, eq, getTableColumns, inArray, sql } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { WriteBatcher } from "../db/group-commit.ts";
import { baseDatabase, databaseUntil, deadlineOf } from "../db/request-database.ts";
import type { CoreTx } from "../users/member-numbers.ts";
import { baskets } from "../db/schema.ts";
import { isDuplicateKey } from "../db/duplicate-key.ts";
import { ServiceError } from "../http/service-error.ts";
import { confirmSale, priceSale, redeemSales, setsStores, writeSale, type BasketRow, type Redemption, type Sale, type SaleOutcome } from "./sale.ts";
import { lockedFor, lockMembersAndVouchers, type LockedMembers } from "./sale-reads.ts";

/** Most sales in one group-commit transaction. */
const MAX_BATCH = 16;
/**
 * Group-commit transactions of sales one process writes at once. A batch of plain sales takes
 * about the round trips of one sale (one locking read, one multi-row INSERT and the read of its
 * ids, one UPDATE), so one batch at a time keeps latency low, and the sales arriving meanwhile
 * make the next batch bigger: fewer statements per sale (docs/performance.md, "Group commit of
 * sales").
 */
const IN_FLIGHT = 1;

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
    // A batch that failed on an error no sale owns, with the database still there (a statement
    // written for several sales refused), is written again sale by sale: each gets its own answer.
    committer = new WriteBatcher(write, { maxBatch: MAX_BATCH, maxInFlight: IN_FLIGHT, retryAlone: (err) => !isDatabaseUnavailable(err) });
    committers.set(base, committer);
  }
  return committer;
}

/**
 * Writes `sales` in one transaction of the runner (one sale: its own transaction, confirmSale), in
 * arrival order: each run of consecutive plain sales written together (writesTogether), each
 * other sale after a savepoint.
 * @returns one answer per sale, in order
 * @throws the error of a lone sale; in a batch, an error no sale owns (nothing written): the
 *   batcher then writes each sale alone when the database is still there
 */
async function writeSales(db: CoreDb, sales: readonly Sale[]): Promise<Settled[]> {
  if (sales.length === 1) return [{ ok: true, outcome: await confirmSale(db, sales[0]!) }];
  return runTransaction(db, async (tx) => {
    const answers = new Array<Settled | undefined>(sales.length);
    let plain: number[] = [];
    for (const [i, sale] of sales.entries()) {
      if (writesTogether(sale)) {
        plain.push(i);
        continue;
      }
      await writeTogether(tx, sales, plain, answers);
      plain = [];
      answers[i] = await writeSaleAtSavepoint(tx, sale);
    }
    await writeTogether(tx, sales, plain, answers);
    return answers as Settled[];
  });
}

/**
 * Whether `sale` is written with the others of its batch (writeTogether): a plain sale, naming its
 * member by id, with no return line and not setting its member's stores. Any other sale runs its
 * own statements after a savepoint (writeSale).
 */
function writesTogether(sale: Sale): boolean {
  return sale.member.column === "id" && !setsStores(sale) && !(sale.basket.pricingLines ?? []).some((l) => l.returnItem);
}

/**
 * A sale of a batch priced and ready to store: its place in the batch, its row, its redemption
 * once stored, and whether an earlier sale of the batch names its retailer_basket_code.
 */
type Ready = Omit<Redemption, "basketId"> & { index: number; row: Omit<BasketRow, "id">; repeatsCode: boolean };

/**
 * The sales `indexes` of `sales`, written together: one locking read of their members and named
 * vouchers per chain (lockMembersAndVouchers), each sale priced in order (priceTogether), their
 * baskets stored (storeTogether), then one UPDATE redeeming every stored sale's vouchers
 * (redeemSales). A sale's own error is its answer (see priceTogether, storeTogether), and it
 * writes nothing.
 * @throws what a statement written for several sales meets (the batch's: the batcher writes its
 *   sales again, one by one), conflicts and an unavailable database
 */
async function writeTogether(tx: CoreTx, sales: readonly Sale[], indexes: readonly number[], answers: Array<Settled | undefined>): Promise<void> {
  if (indexes.length === 0) return;
  const reads = new Map<number, LockedMembers>();
  for (const chainId of new Set(indexes.map((i) => sales[i]!.chainId))) {
    const ofChain = indexes.map((i) => sales[i]!).filter((sale) => sale.chainId === chainId);
    const keys = new Set(ofChain.flatMap((sale) => (sale.basket.entries ?? []).map((e) => e.key)));
    reads.set(chainId, await lockMembersAndVouchers(tx, chainId, [...new Set(ofChain.map(memberId))], [...keys]));
  }
  const stored = await storeTogether(tx, priceTogether(sales, indexes, reads, answers), answers);
  const issued = await redeemSales(tx, stored);
  stored.forEach((s, k) => (answers[s.index] = { ok: true, outcome: { basket: { id: s.basketId, ...s.row }, duplicate: false, issuedVouchers: issued[k]! > 0 } }));
}

/**
 * Prices the sales `indexes` in order out of what the locking read found. A sale's own error (68,
 * 419, 909-916, and 910 for a voucher an earlier sale of the batch redeems) is its answer. A sale
 * repeating an earlier one's retailer_basket_code will be refused by the index (storeTogether):
 * its vouchers stay free for the later sales.
 * @returns the sales ready to store, in order
 */
function priceTogether(sales: readonly Sale[], indexes: readonly number[], reads: ReadonlyMap<number, LockedMembers>, answers: Array<Settled | undefined>): Ready[] {
  // The vouchers of the sales ready so far: redeemed by them, once the batch commits.
  const taken = new Set<number>();
  const codes = new Set<string>();
  const ready: Ready[] = [];
  for (const index of indexes) {
    const sale = sales[index]!;
    try {
      const { user, locked } = lockedFor(reads.get(sale.chainId)!, memberId(sale), sale.basket.entries ?? []);
      const spent = locked.find((c) => taken.has(c.voucher.id));
      if (spent) throw new ServiceError("voucher_already_redeemed", `Voucher ${spent.voucher.key} has already been redeemed.`);
      const { priced, row } = priceSale(sale, user, locked);
      const code = row.retailerBasketCode === null ? null : `${row.chainId}:${row.retailerBasketCode}`;
      const repeatsCode = code !== null && codes.has(code);
      if (code !== null) codes.add(code);
      if (!repeatsCode) for (const c of locked) taken.add(c.voucher.id);
      ready.push({ index, sale, priced, locked, row, repeatsCode });
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      answers[index] = { ok: false, error };
    }
  }
  return ready;
}

/**
 * Stores the baskets of `ready`: those with a retailer_basket_code of their own in the batch in
 * one multi-row INSERT per chain, their ids read back by code (unique in the chain; never
 * assumed consecutive), the others one INSERT each (one statement built for the batch). A basket
 * whose code an earlier one of the batch names meets the index on its own INSERT: that duplicate
 * key is its answer (a refused statement leaves no row), and its vouchers stay as they were; so
 * is the duplicate key of a sale naming no voucher.
 * @returns the stored sales with their basket ids, in order
 * @throws the multi-row INSERT's error (a code stored before, by a replay, say), and the duplicate
 *   key of a sale holding vouchers a later sale of the batch may have been refused: the batch's
 */
async function storeTogether(tx: CoreTx, ready: readonly Ready[], answers: Array<Settled | undefined>): Promise<Array<Ready & Redemption>> {
  const ids = new Map<Ready, number>();
  const coded = ready.filter((r) => r.row.retailerBasketCode !== null && !r.repeatsCode);
  for (const chainId of new Set(coded.map((r) => r.row.chainId))) {
    const rows = coded.filter((r) => r.row.chainId === chainId);
    if (rows.length === 1) continue;
    await tx.insert(baskets).values(rows.map((r) => r.row));
    const found = await tx.select({ id: baskets.id, code: baskets.retailerBasketCode }).from(baskets)
      .where(and(eq(baskets.chainId, chainId), inArray(baskets.retailerBasketCode, rows.map((r) => r.row.retailerBasketCode!))));
    const idOf = new Map(found.map((f) => [f.code, f.id]));
    for (const r of rows) ids.set(r, idOf.get(r.row.retailerBasketCode)!);
  }
  let insertBasket: ReturnType<typeof preparedBasketInsert> | undefined;
  const stored: Array<Ready & Redemption> = [];
  for (const r of ready) {
    let basketId = ids.get(r);
    if (basketId === undefined) {
      try {
        insertBasket ??= preparedBasketInsert(tx);
        basketId = Number((await insertBasket.execute(r.row))[0].insertId);
      } catch (error) {
        // Its vouchers were taken from the later sales in priceTogether unless it repeats a code.
        if (!isDuplicateKey(error, "baskets_by_retailer_code") || (!r.repeatsCode && r.locked.length > 0)) throw error;
        answers[r.index] = { ok: false, error };
        continue;
      }
    }
    stored.push({ ...r, basketId });
  }
  return stored;
}

const memberId = (sale: Sale) => sale.member.value as number;

/** Every column of a basket row but its id, each as a placeholder of the same name. */
const BASKET_ROW_PLACEHOLDERS = Object.fromEntries(Object.keys(getTableColumns(baskets)).filter((k) => k !== "id").map((k) => [k, sql.placeholder(k)])) as unknown as Omit<BasketRow, "id">;

/** The INSERT of one basket row, built once for a transaction's sales (drizzle's prepared query: `.execute(row)`). */
const preparedBasketInsert = (tx: CoreTx) => tx.insert(baskets).values(BASKET_ROW_PLACEHOLDERS).prepare();

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
