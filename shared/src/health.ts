/**
 * The operations documents both services answer without authentication (not part of the
 * specified API): `GET /health` (the process is up), `GET /ready` (the database answers and holds
 * every migration the code ships) and `GET /` (which service this is). They carry no secret: no
 * database URL, user, host or error text, only states and migration tags.
 *
 * "Migrations current" compares the applied drizzle migrations (table `__drizzle_migrations`,
 * whose `created_at` is the journal entry's `when`) with the journal shipped in the repository
 * (`db/migrations/meta/_journal.json`): every shipped entry must be applied. A database ahead of
 * the code (entries the journal does not know) still serves what this code needs.
 */

/** One entry of a drizzle-kit migration journal. */
export interface JournalEntry {
  /** position in the journal, from 0 */
  idx: number;
  /** the migration's file name without `.sql`, for example `0003_login_throttle` */
  tag: string;
  /** creation time in epoch milliseconds: what the migrator stores as `created_at` */
  when: number;
}

/** A drizzle-kit migration journal (`meta/_journal.json`), as far as readiness reads it. */
export interface MigrationJournal {
  entries: readonly JournalEntry[];
}

/** `GET /health`: answered while the process runs, whatever the database does. */
export interface HealthDocument {
  status: "ok";
}

/** `GET /ready`: 200 when `status` is `ready`, 503 otherwise. */
export interface ReadyDocument {
  status: "ready" | "not_ready";
  /** `ok` when the database answered within the time limit, `unreachable` otherwise */
  database: "ok" | "unreachable";
  /** `current` when every shipped migration is applied; `unknown` when the database did not answer */
  migrations: "current" | "pending" | "unknown";
  /** tags of the shipped migrations the database lacks, in journal order (empty unless pending) */
  pending: string[];
}

/** `GET /`: which service answers, and where to go next. */
export interface ServiceDocument {
  /** the package name, for example `@service/core-api` */
  name: string;
  /** the package version (package.json) */
  version: string;
  /** relative links, by purpose (for example `docs: "/docs"`) */
  links: Record<string, string>;
}

/** How long `/ready` waits for the database before answering `unreachable`, in milliseconds. */
export const READY_TIMEOUT_MS = 2_000;

/**
 * The tags of the journal entries not applied.
 * @param applied the `created_at` values of `__drizzle_migrations` (epoch milliseconds)
 */
export function pendingMigrations(journal: MigrationJournal, applied: readonly number[]): string[] {
  const done = new Set(applied.map(Number));
  return journal.entries.filter((e) => !done.has(e.when)).map((e) => e.tag);
}

/**
 * Checks readiness: reads the applied migrations with `readApplied` and compares them with
 * `journal`.
 * @param readApplied the `created_at` values of `__drizzle_migrations`; an empty list when the
 *   table does not exist (a database never migrated); rejects when the database does not answer
 * @param timeoutMs the database counts as unreachable after this long (READY_TIMEOUT_MS)
 * @param onUnreachable told why the database did not answer (for the log; never sent to the client)
 * @returns the document; never rejects
 */
export async function checkReadiness(
  journal: MigrationJournal,
  readApplied: () => Promise<readonly number[]>,
  timeoutMs: number,
  onUnreachable: (err: unknown) => void,
): Promise<ReadyDocument> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the database did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const pending = pendingMigrations(journal, await Promise.race([readApplied(), timeout]));
    return pending.length === 0
      ? { status: "ready", database: "ok", migrations: "current", pending }
      : { status: "not_ready", database: "ok", migrations: "pending", pending };
  } catch (err) {
    onUnreachable(err);
    return { status: "not_ready", database: "unreachable", migrations: "unknown", pending: [] };
  } finally {
    clearTimeout(timer);
  }
}
