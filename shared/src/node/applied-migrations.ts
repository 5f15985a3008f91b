/**
 * The migrations applied to a service's database, as the drizzle migrator recorded them (table
 * `__drizzle_migrations`, `created_at` = the journal entry's `when`), and the readiness check of
 * `GET /ready` that compares them with the journal shipped in the repository (@service/shared/health).
 * Both services read them the same way: the database is theirs, the reading is this one.
 */
import { sql, type SQL } from "drizzle-orm";
import { checkReadiness, READY_TIMEOUT_MS, type MigrationJournal, type ReadyDocument } from "../health.ts";

/** MySQL / MariaDB ER_NO_SUCH_TABLE: a database the migrator never ran on. */
const NO_SUCH_TABLE = 1146;

/** What the read needs of a drizzle MySQL database (either service's client has it). */
export interface MigrationsReader {
  execute(query: SQL): Promise<unknown>;
}

/**
 * Reads the `created_at` of every applied migration, in epoch milliseconds.
 * @param db a drizzle client of the service's database
 * @returns an empty list when the migrations table does not exist (a database never migrated)
 * @throws the driver's error when the database does not answer
 */
export async function readAppliedMigrations(db: MigrationsReader): Promise<number[]> {
  try {
    const [rows] = (await db.execute(sql`SELECT created_at FROM __drizzle_migrations`)) as [Array<{ created_at: number | string }>];
    return rows.map((r) => Number(r.created_at));
  } catch (err) {
    // drizzle wraps the driver's error: its `cause` carries the code.
    const e = err as { errno?: number; cause?: { errno?: number } };
    if ((e.errno ?? e.cause?.errno) === NO_SUCH_TABLE) return [];
    throw err;
  }
}

/**
 * The `GET /ready` document of a service: its database answers within `timeoutMs` and holds every
 * migration of `journal` (checkReadiness of @service/shared/health); a database that does not
 * answer is one warning on `logger` and `not_ready`.
 * @param timeoutMs how long the database may take; default READY_TIMEOUT_MS
 */
export function databaseReadiness(
  db: MigrationsReader,
  journal: MigrationJournal,
  logger: { warn(fields: object, message: string): void },
  timeoutMs: number = READY_TIMEOUT_MS,
): Promise<ReadyDocument> {
  return checkReadiness(journal, () => readAppliedMigrations(db), timeoutMs, (err) =>
    logger.warn({ err }, "ready: the database did not answer"),
  );
}
