/**
 * A write whose statements need nothing read in between, sent as one transaction in one round
 * trip (issue 12: add-business spent seven round trips, and held the locks on the shared count
 * rows across three of them, so concurrent writers queued on the counts): `START TRANSACTION`,
 * the statements and `COMMIT` in one text, on the pool whose connections accept several
 * statements (db/client.ts `$writes`). The database runs them in order and stops at the first
 * that fails; the transaction is then rolled back and the error thrown as the driver gave it.
 *
 * A text longer than MAX_TEXT_BYTES (a bulk load) is split: the same transaction then takes a
 * round trip per part. Values are bound by drizzle and written into the text by mysql2's own
 * escaping (what every drizzle query on the main pool does), never concatenated.
 */
import mysql from "mysql2/promise";
import type { CoreDb } from "./client.ts";

/** What a statement given here must offer: drizzle's query builders and `sql` queries both do. */
export interface BuiltStatement {
  toSQL(): { sql: string; params: unknown[] };
}

/** The largest text sent in one round trip (well under max_allowed_packet's 16 MiB default on MariaDB). */
const MAX_TEXT_BYTES = 4 * 1024 * 1024;

/** What the database answers a write statement. */
export interface WriteResult {
  affectedRows: number;
  /** the first id an INSERT generated (0 for none) */
  insertId: number;
}

/**
 * Runs `statements` in order as one transaction, in one round trip unless the text is long.
 * A statement may use what an earlier one did on the connection (`LAST_INSERT_ID()`).
 * @param options.maxTextBytes split texts longer than this (default MAX_TEXT_BYTES, 4 MiB)
 * @returns one result per statement, in order
 * @throws the driver's error of the first statement that failed (for example ER_DUP_ENTRY);
 *   nothing is written then
 */
export async function writeInOneTransaction(
  db: CoreDb,
  statements: readonly BuiltStatement[],
  options: { maxTextBytes?: number } = {},
): Promise<WriteResult[]> {
  if (statements.length === 0) return [];
  const maxBytes = options.maxTextBytes ?? MAX_TEXT_BYTES;
  const texts = statements.map((s) => {
    const { sql, params } = s.toSQL();
    return mysql.format(sql, params as never[], false, "Z");
  });
  const parts = [["START TRANSACTION"]];
  let size = 0;
  for (const text of texts) {
    if (size + text.length > maxBytes && parts.at(-1)!.length > 0) {
      parts.push([]);
      size = 0;
    }
    parts.at(-1)!.push(text);
    size += text.length;
  }
  parts.at(-1)!.push("COMMIT");
  const conn = await db.$writes.getConnection();
  try {
    const results: WriteResult[] = [];
    for (const part of parts) {
      const [answers] = (await conn.query(part.join(";\n"))) as unknown as [WriteResult | WriteResult[]];
      results.push(...(Array.isArray(answers) ? answers : [answers]));
    }
    // the answers of START TRANSACTION and COMMIT are no statement's
    return results.slice(1, -1).map((r) => ({ affectedRows: Number(r.affectedRows), insertId: Number(r.insertId) }));
  } catch (err) {
    // The database stopped at the failing statement inside the open transaction.
    await conn.query("ROLLBACK").catch(() => conn.destroy());
    throw err;
  } finally {
    conn.release(); // a no-op once destroyed
  }
}
