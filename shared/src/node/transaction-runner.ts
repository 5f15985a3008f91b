/**
 * The one way both services and the scripts write: `runTransaction(db, (tx) => ...)` runs a unit
 * of work inside a transaction and makes it all or nothing on every MySQL-compatible engine,
 * MariaDB Galera included (README, "Transactions").
 *
 * - Every statement is its own round trip inside the transaction (drizzle's `tx`): when the engine
 *   aborts the transaction (a deadlock, a Galera certification conflict or brute-force abort), the
 *   next statement or the COMMIT fails, and nothing after the abort runs outside the transaction,
 *   as it would in a multi-statement text.
 * - The whole unit of work is run again, with jittered exponential back-off, when the transaction
 *   failed on a conflict the engine resolves by rolling it back: 1213 ER_LOCK_DEADLOCK (also
 *   Galera's certification conflict), 1205 ER_LOCK_WAIT_TIMEOUT, 1047 ER_UNKNOWN_COM_ERROR ("WSREP
 *   has not yet prepared node for application use"), or the connection lost before the COMMIT was
 *   sent (the server rolls back the open transaction of a connection that went away).
 * - The connection lost (or timed out) DURING the COMMIT leaves the outcome unknown. Each
 *   transaction inserts a marker row with a key of its own as its last statement
 *   (`transaction_marker`); a fresh connection then looks it up with a locking read, which waits
 *   for a COMMIT still in progress: absent, the transaction rolled back and is run again; present,
 *   it committed and the runner fails with TRANSACTION_OUTCOME_UNKNOWN rather than write twice.
 * - Retries stop at the deadline of the database the runner is given (its pool's: a request's
 *   database handle in core-api, db-timeouts.ts poolUntil; the request's AsyncLocalStorage
 *   deadline in the connector, request-deadline.ts; outside a request, after
 *   DEFAULT_REQUEST_DEADLINE_MS of retrying): the runner then fails with
 *   TRANSACTION_RETRIES_EXHAUSTED. Both errors count as `isDatabaseUnavailable`, so the services
 *   answer 503 `service_unavailable` (904) with Retry-After, never 500.
 *
 * Any other error (a duplicate key, a value refused, the unit's own ServiceError) rolls back and
 * is thrown as it came, at once. A unit of work must only touch the database: it may run more
 * than once.
 */
import { randomBytes } from "node:crypto";
import { DEFAULT_REQUEST_DEADLINE_MS, errorChain, guardedPoolOf, isDatabaseUnavailable, poolDeadline, unavailableError } from "./db-timeouts.ts";

/** What the runner needs of a drizzle database (mysql2): transactions, raw statements, its pool. */
export interface TransactionalDatabase {
  transaction(work: (tx: any) => Promise<any>, config?: any): Promise<any>;
  execute(query: string): Promise<unknown>;
  $client?: object;
}

/** When retries on `db` stop (a `performance.now()` reading): its pool's deadline, else the default's. */
function stopAtFor(db: { $client?: object } | undefined): number {
  return poolDeadline(db?.$client) ?? performance.now() + DEFAULT_REQUEST_DEADLINE_MS;
}

/** The transaction type of a database `D` (drizzle's `tx`). */
export type TransactionOf<D extends TransactionalDatabase> = Parameters<Parameters<D["transaction"]>[0]>[0];

/** Options of runTransaction (the defaults serve the services; tests pass their own). */
export interface RunTransactionOptions {
  /** most attempts in all, whatever the deadline leaves (default MAX_ATTEMPTS) */
  maxAttempts?: number;
  /** waits between attempts (default: a timer) */
  sleep?: (ms: number) => Promise<void>;
  /** a number in [0, 1) for the back-off's jitter (default Math.random) */
  random?: () => number;
  /** drizzle's transaction settings, for example `{ isolationLevel: "read committed" }` */
  transactionConfig?: { isolationLevel?: "read uncommitted" | "read committed" | "repeatable read" | "serializable"; accessMode?: "read only" | "read write" };
}

/** Most attempts of one unit of work (a safety net: the deadline is what normally ends them). */
export const MAX_ATTEMPTS = 20;
/** The first back-off in milliseconds; each further one doubles, up to MAX_BACKOFF_MS. */
const BASE_BACKOFF_MS = 5;
const MAX_BACKOFF_MS = 250;

/** MySQL / MariaDB error numbers that roll the transaction back and may pass when it runs again. */
const RETRIED_ERRNOS = new Set([1213, 1205, 1047]);
const RETRIED_CODES = new Set(["ER_LOCK_DEADLOCK", "ER_LOCK_WAIT_TIMEOUT", "ER_UNKNOWN_COM_ERROR"]);

/**
 * Runs `work` in a transaction on `db`, again as a whole while it fails on a conflict (see the
 * module comment), and answers what it returned once the transaction committed.
 * @param db a drizzle database of either service; an open transaction (`tx`) runs `work` in it
 *   directly (the outer runner owns the retries and the marker)
 * @returns the value `work` returned in the attempt that committed
 * @throws the error of `work` or of the database when it is no conflict (nothing written);
 *   an Error with code TRANSACTION_RETRIES_EXHAUSTED when conflicts lasted until the deadline or
 *   MAX_ATTEMPTS (nothing written); TRANSACTION_OUTCOME_UNKNOWN when the connection was lost
 *   during the COMMIT and the transaction committed, or whether it did could not be read: both
 *   recognised by isDatabaseUnavailable (503, Retry-After)
 */
export async function runTransaction<D extends TransactionalDatabase, T>(
  db: D,
  work: (tx: TransactionOf<D>) => Promise<T>,
  options: RunTransactionOptions = {},
): Promise<T> {
  if (isOpenTransaction(db)) return work(db as TransactionOf<D>);
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = options.random ?? Math.random;
  const maxAttempts = options.maxAttempts ?? MAX_ATTEMPTS;
  const stopAt = stopAtFor(db);
  for (let attempt = 1; ; attempt++) {
    const key = markerKey();
    let committing = false;
    try {
      const result = await db.transaction(async (tx: TransactionOf<D>) => {
        const value = await work(tx);
        await (tx as TransactionalDatabase).execute(`INSERT INTO transaction_marker (id) VALUES ('${key}')`);
        committing = true;
        return value;
      }, options.transactionConfig);
      sweepNowAndThen(db);
      return result;
    } catch (err) {
      const kind = failureKind(err);
      if (kind === "final") throw err;
      if (committing && kind === "lost") await settleUnknownCommit(db, key, err);
      const delay = backoffMs(attempt, random);
      if (attempt >= maxAttempts || performance.now() + delay >= stopAt) {
        throw unavailableError(`The transaction met conflicts on each of ${attempt} attempts.`, "TRANSACTION_RETRIES_EXHAUSTED", err);
      }
      await sleep(delay);
    }
  }
}

/**
 * Runs one statement on its own (autocommit: a transaction of one statement, atomic on every
 * engine) and runs it again while it fails on a conflict the engine resolved by rolling it back
 * (1213, 1205, 1047), with the same back-off as runTransaction. A connection lost
 * under it is not retried: the statement may have been applied, and it wrote no marker to tell;
 * the caller gets the pool's error (503). For a statement whose second run would be harmless or
 * refused (an UPDATE guarded by the values it read, a DELETE by id) and that sits on a hot path,
 * where runTransaction's three round trips more would cost; anything else uses runTransaction.
 * Never inside a transaction: a conflict there rolled the whole transaction back, so only
 * runTransaction may run it again.
 *
 * Each attempt runs on the statement's own database, and so within its deadline (a request's
 * handle, or the connector's request deadline): once that has passed the attempt fails at once
 * with DEADLINE_EXCEEDED (503), which ends the retries; DEFAULT_REQUEST_DEADLINE_MS of retrying
 * ends them in any case.
 * @param statement sends the statement (again on each attempt)
 * @returns what it answered
 * @throws its error when it is no conflict; TRANSACTION_RETRIES_EXHAUSTED when conflicts lasted
 */
export async function runStatement<T>(statement: () => Promise<T>, options: Omit<RunTransactionOptions, "transactionConfig"> = {}): Promise<T> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = options.random ?? Math.random;
  const maxAttempts = options.maxAttempts ?? MAX_ATTEMPTS;
  const stopAt = stopAtFor(undefined);
  for (let attempt = 1; ; attempt++) {
    try {
      return await statement();
    } catch (err) {
      if (failureKind(err) !== "conflict") throw err;
      const delay = backoffMs(attempt, random);
      if (attempt >= maxAttempts || performance.now() + delay >= stopAt) {
        throw unavailableError(`The statement met conflicts on each of ${attempt} attempts.`, "TRANSACTION_RETRIES_EXHAUSTED", err);
      }
      await sleep(delay);
    }
  }
}

/** What readInSnapshot needs of a pooled mysql2 connection. */
export interface SnapshotConnection {
  query(statement: string): Promise<unknown>;
  release(): void;
}

/**
 * Runs `read` on one pooled connection inside a read-only transaction with a consistent snapshot
 * (`START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY`), so its statements see the database
 * at one moment (InnoDB's default REPEATABLE READ). It writes nothing, so nothing is retried: a
 * failure is thrown as it came, after a ROLLBACK (whose own failure on a lost connection is
 * ignored: the statement's error is the one to tell).
 * @param pool a mysql2 promise pool (a guarded one: the services' `$client`)
 * @returns what `read` returned
 */
export async function readInSnapshot<C extends SnapshotConnection, T>(pool: { getConnection(): Promise<C> }, read: (conn: C) => Promise<T>): Promise<T> {
  const conn = await pool.getConnection();
  try {
    await conn.query("START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY");
    let result: T;
    try {
      result = await read(conn);
    } catch (err) {
      await conn.query("ROLLBACK").catch(() => undefined);
      throw err;
    }
    await conn.query("COMMIT");
    return result;
  } finally {
    conn.release();
  }
}

/**
 * Whether `err` (or its `cause`) is a conflict the engine resolved by rolling the whole transaction
 * back (1213, 1205, 1047): a part of a shared transaction (a savepoint) must not carry on after it.
 */
export function isTransactionConflict(err: unknown): boolean {
  return failureKind(err) === "conflict";
}

/**
 * How a failed attempt ends: `conflict` (rolled back by the engine: run again), `lost` (the
 * connection or the database went away: rolled back unless the COMMIT was under way), `final`
 * (anything else: thrown as it is).
 */
function failureKind(err: unknown): "conflict" | "lost" | "final" {
  const conflict = errorChain(err).some((e) => (typeof e.errno === "number" && RETRIED_ERRNOS.has(e.errno)) || (typeof e.code === "string" && RETRIED_CODES.has(e.code)));
  return conflict ? "conflict" : isDatabaseUnavailable(err) ? "lost" : "final";
}

/**
 * After the connection was lost during the COMMIT: returns when the marker `key` is absent (the
 * transaction rolled back; it may run again).
 * @throws TRANSACTION_OUTCOME_UNKNOWN when the marker is there (committed: not run again) or
 *   could not be read
 */
async function settleUnknownCommit(db: TransactionalDatabase, key: string, lost: unknown): Promise<void> {
  let committed: boolean;
  try {
    committed = await markerPresent(db, key);
  } catch {
    throw unavailableError("The connection was lost during COMMIT and the transaction's outcome could not be read.", "TRANSACTION_OUTCOME_UNKNOWN", lost);
  }
  if (committed) throw unavailableError("The connection was lost during COMMIT; the transaction committed.", "TRANSACTION_OUTCOME_UNKNOWN", lost);
}

/**
 * Whether the marker `key` is stored, read on a connection of the pool (the lost one is gone).
 * A locking read: it waits while the transaction that inserted the key has not finished its
 * COMMIT or rollback, so it answers the final outcome.
 */
export async function markerPresent(db: TransactionalDatabase, key: string): Promise<boolean> {
  if (!/^[0-9a-f]{32}$/.test(key)) throw new Error("markerPresent: not a marker key");
  const answer = (await db.execute(`SELECT 1 FROM transaction_marker WHERE id = '${key}' LOCK IN SHARE MODE`)) as unknown as [unknown[]];
  return answer[0].length > 0;
}

/** Milliseconds to wait before attempt `attempt + 1`: exponential, between half and all of it (jitter). */
function backoffMs(attempt: number, random: () => number): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** (attempt - 1));
  return ceiling / 2 + random() * (ceiling / 2);
}

/** A drizzle transaction (it can roll back); a database cannot. */
function isOpenTransaction(db: TransactionalDatabase): boolean {
  return typeof (db as { rollback?: unknown }).rollback === "function";
}

/**
 * A new marker key: 12 hex digits of the time in milliseconds, then 20 random ones. Keys made
 * later sort later, so markers are appended to the table's primary key and swept by a range.
 */
export function markerKey(now = Date.now()): string {
  return now.toString(16).padStart(12, "0") + randomBytes(10).toString("hex");
}

/** How long a marker is kept: far longer than any COMMIT whose outcome is looked up. */
export const MARKER_RETENTION_MS = 24 * 3600_000;
/** How often a process sweeps old markers from a database, and how many rows one sweep deletes at most. */
const SWEEP_INTERVAL_MS = 10 * 60_000;
const SWEEP_LIMIT = 5_000;

/**
 * Deletes up to SWEEP_LIMIT markers older than MARKER_RETENTION_MS: a range of the primary key,
 * one statement of its own (autocommit).
 * @returns how many were deleted
 */
export async function sweepTransactionMarkers(db: TransactionalDatabase, now = Date.now()): Promise<number> {
  const before = (now - MARKER_RETENTION_MS).toString(16).padStart(12, "0");
  const answer = (await db.execute(`DELETE FROM transaction_marker WHERE id < '${before}' LIMIT ${SWEEP_LIMIT}`)) as unknown as [{ affectedRows: number }];
  return answer[0].affectedRows;
}

/**
 * When each database is swept next (performance.now()), by its guarded pool (the request handles
 * of one database share it); the first sweep comes an interval after its first transaction.
 */
const nextSweeps = new WeakMap<object, number>();

/**
 * Starts a sweep in the background once per SWEEP_INTERVAL_MS per database, on `db` and so within
 * what is left of its deadline: a sweep cut short deleted nothing, and the next one takes it up.
 */
function sweepNowAndThen(db: TransactionalDatabase): void {
  const now = performance.now();
  const key = guardedPoolOf(db.$client) ?? db;
  const next = nextSweeps.get(key);
  if (next === undefined) {
    nextSweeps.set(key, now + SWEEP_INTERVAL_MS);
    return;
  }
  if (now < next) return;
  nextSweeps.set(key, now + SWEEP_INTERVAL_MS);
  void sweepTransactionMarkers(db).catch(() => {});
}
