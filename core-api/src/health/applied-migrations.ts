/**
 * The migrations applied to the core database, as the drizzle migrator recorded them (table
 * `__drizzle_migrations`, `created_at` = the journal entry's `when`): what `GET /ready` compares
 * with the journal shipped in the repository (@service/shared/health).
 */
import { sql } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";

/** MySQL / MariaDB ER_NO_SUCH_TABLE: a database the migrator never ran on. */
const NO_SUCH_TABLE = 1146;

/**
 * Reads the `created_at` of every applied migration, in epoch milliseconds.
 * @returns an empty list when the migrations table does not exist
 * @throws the driver's error when the database does not answer
 */
export async function readAppliedMigrations(db: CoreDb): Promise<number[]> {
  try {
    const [rows] = (await db.execute(sql`SELECT created_at FROM __drizzle_migrations`)) as unknown as [Array<{ created_at: number | string }>];
    return rows.map((r) => Number(r.created_at));
  } catch (err) {
    // drizzle wraps the driver's error: its `cause` carries the code.
    const e = err as { errno?: number; cause?: { errno?: number } };
    if ((e.errno ?? e.cause?.errno) === NO_SUCH_TABLE) return [];
    throw err;
  }
}
