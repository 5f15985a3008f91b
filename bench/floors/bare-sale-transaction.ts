/**
 * add-basket's floor in the throughput section: one bare mysql2 transaction that inserts a basket
 * row and updates two voucher rows, what a sale writes at the least. A floor measures the bare
 * driver, so this file opens its transaction itself: the one file the layout test lets do so
 * besides the transaction runner (never product code; nothing here is retried).
 */
import type { Pool } from "mysql2/promise";

/** Floor table rows the bare transaction updates (two per operation, spread). */
const FLOOR_ROWS = 4096;
const FLOOR_BASKETS = "bench_floor_baskets";
const FLOOR_VOUCHERS = "bench_floor_vouchers";

/** Creates the floor's two tables (a copy of the baskets table; a small voucher table) afresh. */
export async function prepareBasketFloor(pool: Pool): Promise<void> {
  await pool.query(`DROP TABLE IF EXISTS ${FLOOR_BASKETS}`);
  await pool.query(`CREATE TABLE ${FLOOR_BASKETS} LIKE baskets`);
  await pool.query(`DROP TABLE IF EXISTS ${FLOOR_VOUCHERS}`);
  await pool.query(`CREATE TABLE ${FLOOR_VOUCHERS} (id INT PRIMARY KEY, status VARCHAR(16) NOT NULL, basket_id INT NULL)`);
  for (let i = 0; i < FLOOR_ROWS; i += 1024) {
    const rows = Array.from({ length: 1024 }, (_, j) => [i + j, "claimed", null]);
    await pool.query(`INSERT INTO ${FLOOR_VOUCHERS} (id, status, basket_id) VALUES ?`, [rows]);
  }
}

/** The floor's operation `n`: one transaction inserting a basket row and updating two voucher rows. */
export async function bareSaleTransaction(pool: Pool, chainId: number, n: number): Promise<void> {
  const conn = await pool.getConnection();
  try {
    await conn.beginTransaction();
    const [res] = await conn.execute(`INSERT INTO ${FLOOR_BASKETS} (chain_id, user_id, basket_total_price, items) VALUES (?, ?, ?, ?)`, [chainId, 1, "20.00", null]);
    const basketId = (res as { insertId: number }).insertId;
    for (const id of [(2 * n) % FLOOR_ROWS, (2 * n + 1) % FLOOR_ROWS]) {
      await conn.execute(`UPDATE ${FLOOR_VOUCHERS} SET status = 'redeemed', basket_id = ? WHERE id = ?`, [basketId, id]);
    }
    await conn.commit();
  } catch (err) {
    await conn.rollback();
    throw err;
  } finally {
    conn.release();
  }
}
