/**
 * The mechanics of a guarded pool (db-timeouts.ts): one `PoolGuard` per mysql2 pool takes
 * connections and runs statements with the pool's timeouts, each bounded by a deadline given per
 * call (a `performance.now()` reading, or undefined for none). The pool itself and every view of it
 * under a request's deadline (db-timeouts.ts, poolUntil) share the one guard.
 *
 * No I/O of its own and no mysql2 import (structural types), like db-timeouts.ts.
 */
import { ACQUIRE_TIMEOUT, DEADLINE_EXCEEDED, marked, rethrowMarked, unavailableError, type DriverError } from "../db-unavailable.ts";

/** What the guard needs of a pooled connection (mysql2's PromisePoolConnection has it). */
export interface GuardableConnection {
  query(...args: any[]): Promise<unknown>;
  execute(...args: any[]): Promise<unknown>;
  release(): void;
  destroy(): void;
}

/** A connection of mysql2's callback pool (what its promise pool wraps). */
export interface CallbackConnection {
  query(statement: unknown, values: unknown, callback: (err: unknown, rows?: unknown, fields?: unknown) => void): unknown;
  execute(statement: unknown, values: unknown, callback: (err: unknown, rows?: unknown, fields?: unknown) => void): unknown;
  release(): void;
  destroy(): void;
}

/** mysql2's callback pool under its promise pool. */
export interface CallbackPool {
  getConnection(callback: (err: unknown, conn?: CallbackConnection) => void): void;
}

/** The limits a guard applies, in milliseconds; 0 turns one off. */
export interface GuardTimeouts {
  queryTimeoutMs: number;
  acquireTimeoutMs: number;
}

/** The statements' methods of a pool. */
export type StatementMethod = "query" | "execute";

/** Takes connections and runs statements of one pool with its timeouts, under a deadline per call. */
export class PoolGuard {
  private readonly take: () => Promise<GuardableConnection>;
  private readonly callbackPool: CallbackPool | undefined;
  private readonly timeouts: GuardTimeouts;

  /**
   * @param take the pool's own getConnection
   * @param callbackPool mysql2's callback pool under the promise one: when present, a statement on
   *   the pool runs on it directly (no promise wrapper per connection and statement, no captured
   *   stack: a statement of every request pays them otherwise)
   */
  constructor(take: () => Promise<GuardableConnection>, callbackPool: CallbackPool | undefined, timeouts: GuardTimeouts) {
    this.take = take;
    this.callbackPool = callbackPool;
    this.timeouts = timeouts;
  }

  /**
   * A connection of the pool, waited for at most the acquire timeout (and until `at`), whose
   * statements get the query timeout (and end at `at`).
   * @throws a marked Error with code ACQUIRE_TIMEOUT when none became free in time,
   *   DEADLINE_EXCEEDED when `at` has passed
   */
  async getConnection(at: number | undefined): Promise<GuardableConnection> {
    const conn = await acquire(this.take, bounded(this.timeouts.acquireTimeoutMs, at)).catch(rethrowMarked);
    return guardConnection(conn, this.timeouts.queryTimeoutMs, at);
  }

  /**
   * One statement on a connection of the pool (`args` as mysql2's pool takes them), under the
   * same limits as getConnection; the connection goes back to the pool after it, or is destroyed
   * when the statement timed out (its reply may still come).
   */
  async run(method: StatementMethod, args: unknown[], at: number | undefined): Promise<unknown> {
    if (this.callbackPool) return runOnCallbackPool(this.callbackPool, method, args[0], args[1], this.timeouts, at);
    const conn = await this.getConnection(at);
    try {
      return await conn[method](...args);
    } finally {
      conn.release(); // a no-op once destroyed
    }
  }
}

/**
 * The smaller of a timeout (0: none) and what is left until the deadline `at` (undefined: none).
 * @throws an unavailable error with code DEADLINE_EXCEEDED when the deadline has passed
 */
function bounded(timeoutMs: number, at: number | undefined): number {
  if (at === undefined) return timeoutMs;
  const leftMs = at - performance.now();
  if (leftMs <= 0) throw unavailableError("The request's time for the database has run out.", DEADLINE_EXCEEDED);
  const left = Math.max(1, Math.ceil(leftMs));
  return timeoutMs > 0 ? Math.min(timeoutMs, left) : left;
}

/**
 * One statement on a connection of mysql2's callback pool, with the same guards as a guarded
 * connection: the acquire limit, the statement limit (the connection is destroyed when it is
 * reached), marked errors; resolves as mysql2's promise pool does, to `[rows, fields]`.
 *
 * The statement limit is a timer of its own rather than mysql2's `timeout`: an `execute` first
 * prepares its statement on a connection that has not yet, and mysql2 starts the timeout only
 * once the prepared statement runs, so a database that froze before answering the PREPARE would
 * hold the request for ever.
 */
function runOnCallbackPool(
  pool: CallbackPool,
  method: StatementMethod,
  statement: unknown,
  values: unknown,
  timeouts: GuardTimeouts,
  at: number | undefined,
): Promise<[unknown, unknown]> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (err: unknown) => {
      settled = true;
      reject(marked(err));
    };
    const waitMs = bounded(timeouts.acquireTimeoutMs, at);
    const waiting = waitMs > 0
      ? setTimeout(() => fail(Object.assign(new Error(`No database connection became free within ${waitMs} ms.`), { code: ACQUIRE_TIMEOUT })), waitMs)
      : undefined;
    pool.getConnection((err, conn) => {
      if (waiting !== undefined) clearTimeout(waiting);
      if (settled) return conn?.release();
      if (err || !conn) return fail(err);
      let limitMs: number;
      try {
        limitMs = bounded(timeouts.queryTimeoutMs, at);
      } catch (deadline) {
        conn.release();
        return fail(deadline);
      }
      const running = limitMs > 0
        ? setTimeout(() => {
          conn.destroy(); // its reply may never come: the connection must not serve another statement
          fail(Object.assign(new Error(`The database did not answer within ${limitMs} ms.`), { code: "PROTOCOL_SEQUENCE_TIMEOUT" }));
        }, limitMs)
        : undefined;
      conn[method](statement, values, (failure, rows, fields) => {
        if (running !== undefined) clearTimeout(running);
        if (settled) return; // timed out: the connection is destroyed already
        if (failure) {
          if ((failure as DriverError).code === "PROTOCOL_SEQUENCE_TIMEOUT") conn.destroy();
          else conn.release();
          return fail(failure);
        }
        conn.release();
        settled = true;
        resolve([rows, fields]);
      });
    });
  });
}

/** Waits for a connection at most `ms`; one that arrives later goes straight back to the pool. */
function acquire(take: () => Promise<GuardableConnection>, ms: number): Promise<GuardableConnection> {
  if (ms <= 0) return take();
  return new Promise((resolve, reject) => {
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      reject(Object.assign(new Error(`No database connection became free within ${ms} ms.`), { code: ACQUIRE_TIMEOUT }));
    }, ms);
    take().then(
      (conn) => {
        clearTimeout(timer);
        if (late) conn.release();
        else resolve(conn);
      },
      (err: unknown) => {
        clearTimeout(timer);
        if (!late) reject(err);
      },
    );
  });
}

/**
 * Gives the connection's statements the query timeout (none when 0), bounded by the deadline
 * `at`, destroys it when one times out, and marks its errors.
 */
function guardConnection(conn: GuardableConnection, queryTimeoutMs: number, at: number | undefined): GuardableConnection {
  for (const method of ["query", "execute"] as const) {
    const send = conn[method].bind(conn);
    conn[method] = async (statement: unknown, ...rest: unknown[]) => {
      let ms: number;
      try {
        ms = bounded(queryTimeoutMs, at);
      } catch (deadline) {
        // The request's time ran out between two statements of a transaction: the connection
        // goes (the server rolls back what it holds open) rather than back to the pool, where
        // the next caller would find that transaction still open.
        conn.destroy();
        throw deadline;
      }
      try {
        return await send(ms > 0 ? withTimeout(statement, ms) : statement, ...rest);
      } catch (err) {
        // A BEGIN that failed: drizzle hands such a connection back to no one (it releases a
        // transaction's connection only once BEGIN has answered), so it goes rather than leak.
        if ((err as DriverError | null)?.code === "PROTOCOL_SEQUENCE_TIMEOUT" || isBegin(statement)) conn.destroy();
        return rethrowMarked(err);
      }
    };
  }
  return conn;
}

/** Whether a statement (SQL text or mysql2 query options) opens a transaction. */
function isBegin(statement: unknown): boolean {
  const text = typeof statement === "string" ? statement : (statement as { sql?: unknown } | null)?.sql;
  return typeof text === "string" && /^\s*(begin|start transaction|set transaction)\b/i.test(text);
}

/** The statement (SQL text or mysql2 query options) with `timeout` set unless it has one. */
function withTimeout(statement: unknown, ms: number): unknown {
  if (typeof statement === "string") return { sql: statement, timeout: ms };
  if (statement && typeof statement === "object" && (statement as { timeout?: unknown }).timeout === undefined) {
    return { ...statement, timeout: ms };
  }
  return statement;
}
