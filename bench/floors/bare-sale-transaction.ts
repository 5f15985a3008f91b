/**
 * add-basket's floor in the throughput section: one bare mysql2 transaction that inserts a basket
 * row and updates two voucher rows, what a sale writes at the least, on tables built like the
 * product's own: the basket row carries its retailer_basket_code (under the same unique index as
 * the product's) and its lines, and each voucher goes from claimed to redeemed in a copy of the
 * vouchers table with its secondary indexes, so the floor's writes cost the database what the
 * product's writes of the same rows cost. A floor measures the bare driver, so this file opens its
 * transaction itself: the one file the layout test lets do so besides the transaction runner
 * (never product code; nothing here is retried).
 */
import type { Pool } from "mysql2/promise";

/** Floor voucher rows: two per operation, more than a bench run's operations (each redeemed once). */
const FLOOR_ROWS = 400_000;
const SEED_BATCH = 10_000;
const FLOOR_BASKETS = "bench_floor_baskets";
const FLOOR_VOUCHERS = "bench_floor_vouchers";
const LINES = JSON.stringify([{ retailer_item_code: "A", item_price: "12.50" }, { retailer_item_code: "B", item_price: "7.50" }]);

/** Creates the floor's two tables afresh: copies of baskets and vouchers, every voucher claimed. */
export async function prepareBasketFloor(pool: Pool): Promise<void> {
  await pool.query(`DROP TABLE IF EXISTS ${FLOOR_BASKETS}`);
  await pool.query(`CREATE TABLE ${FLOOR_BASKETS} LIKE baskets`);
  await pool.query(`DROP TABLE IF EXISTS ${FLOOR_VOUCHERS}`);
  await pool.query(`CREATE TABLE ${FLOOR_VOUCHERS} LIKE vouchers`);
  for (let i = 0; i < FLOOR_ROWS; i += SEED_BATCH) {
    const rows = Array.from({ length: SEED_BATCH }, (_, j) => {
      const id = i + j + 1;
      return [id, 1, `floor${String(id).padStart(12, "0")}`.padEnd(64, "x"), "basket_pct", "claimed", 1, 1 + (id % 200), 0.1];
    });
    await pool.query(`INSERT INTO ${FLOOR_VOUCHERS} (id, chain_id, \`key\`, type, status, campaign_id, user_id, discount_ratio) VALUES ?`, [rows]);
  }
}

/** The floor's operation `n`: one transaction inserting a basket row and redeeming two voucher rows. */
export async function bareSaleTransaction(pool: Pool, chainId: number, n: number): Promise<void> {
  const conn = await pool.getConnection();
  try {
    await conn.beginTransaction();
    const [res] = await conn.execute(
      `INSERT INTO ${FLOOR_BASKETS} (chain_id, user_id, basket_total_price, retailer_basket_code, items) VALUES (?, ?, ?, ?, ?)`,
      [chainId, 1 + (n % 200), "20.00", `FLOOR-${n}-${Date.now()}`, LINES],
    );
    const basketId = (res as { insertId: number }).insertId;
    for (const id of [1 + ((2 * n) % FLOOR_ROWS), 1 + ((2 * n + 1) % FLOOR_ROWS)]) {
      await conn.execute(
        `UPDATE ${FLOOR_VOUCHERS} SET status = 'redeemed', basket_id = ?, amount_redeemed = ?, redeemed_date = NOW(), db_redeemed_date = NOW() WHERE id = ? AND status = 'claimed'`,
        [basketId, 1.25, id],
      );
    }
    await conn.commit();
  } catch (err) {
    await conn.rollback();
    throw err;
  } finally {
    conn.release();
  }
}
