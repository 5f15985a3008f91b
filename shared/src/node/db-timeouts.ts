/**
 * Database timeouts for both services (with the database frozen, requests hung as long as it was;
 * with it down they failed as 500 with a stack trace each). mysql2 has a per-query `timeout` but no
 * default for it and no wait limit on the pool's queue, so `guardPool` adds both to a mysql2
 * promise pool, and `isDatabaseUnavailable` tells the services' error handlers that a failure means
 * "no database" (503 with Retry-After) rather than a bug.
 *
 * A query that times out leaves its connection waiting for a reply that may never come (mysql2
 * keeps the command active and queues the next one, `rollback` included, behind it without a
 * timer), so that connection is destroyed, never handed back to the pool.
 *
 * Only errors that came out of a guarded pool count: a client that hangs up mid-request raises
 * ECONNRESET too, and that is no database failure. The pool marks its errors for this.
 *
 * No mysql2 import: it works on the pool it is given (structural types), so both services (and
 * mysql2's promise and callback pools) share one implementation.
 */
import { ACQUIRE_TIMEOUT, DEADLINE_EXCEEDED, marked, rethrowMarked, unavailableError, type DriverError } from "../db-unavailable.ts";

export { ACQUIRE_TIMEOUT, DEADLINE_EXCEEDED, isDatabaseUnavailable, unavailableError } from "../db-unavailable.ts";

/** The timeouts of a guarded pool, in milliseconds; 0 turns one off. */
export interface DatabaseTimeouts {
  /** longest a statement may take from being sent to its last reply packet */
  queryTimeoutMs: number;
  /** longest a request waits for a free connection of the pool (opening a new one included) */
  acquireTimeoutMs: number;
  /** longest the TCP connect and handshake of a new connection may take (mysql2 `connectTimeout`) */
  connectTimeoutMs: number;
}

/**
 * Defaults for serving requests: well under a client's patience, well over any query the
 * services run on a healthy database. Migrations and bulk loads pass their own.
 */
export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = {
  queryTimeoutMs: 10_000,
  acquireTimeoutMs: 10_000,
  connectTimeoutMs: 10_000,
};

/**
 * The database budget of one request when REQUEST_DEADLINE_MS does not set one, in milliseconds
 * (@service/shared/node, request-deadline.ts).
 */
export const DEFAULT_REQUEST_DEADLINE_MS = 5_000;

/** Seconds a client is asked to wait (Retry-After) when the database is unavailable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;


/**
 * Milliseconds left of the current request's database budget, or undefined outside a request
 * (a worker, a script): only the pool's own timeouts apply then.
 */
export type BudgetSource = () => number | undefined;

/** What guardPool needs of a pooled connection (mysql2's PromisePoolConnection has it). */
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

/** What guardPool needs of a pool (mysql2's promise Pool has it). */
export interface GuardablePool {
  getConnection(): Promise<GuardableConnection>;
  query(...args: any[]): Promise<unknown>;
  execute(...args: any[]): Promise<unknown>;
  /**
   * mysql2's callback pool under the promise one: when present, the pool's own query / execute
   * run on it directly (no promise wrapper per connection and statement, no captured stack: a
   * statement of every request pays them otherwise)
   */
  pool?: { getConnection(callback: (err: unknown, conn?: CallbackConnection) => void): void };
}

/**
 * Adds the timeouts to `pool` in place (drizzle and anything else holding the pool see them):
 * every statement, on the pool or on a connection taken from it, gets `queryTimeoutMs` unless it
 * sets its own `timeout`; taking a connection gives up after `acquireTimeoutMs`.
 * @param timeouts `connectTimeoutMs` is not used here: pass it to mysql2's createPool
 * @param budget what is left of the current request's deadline (@service/shared/node,
 *   request-deadline.ts): each statement and wait for a connection is bounded by the smaller of
 *   its timeout and what is left; one that would start with nothing left fails at once with code
 *   DEADLINE_EXCEEDED
 * @returns the same pool
 * @throws (from the guarded methods) an Error with code `PROTOCOL_SEQUENCE_TIMEOUT` (mysql2's) when a
 *   statement times out, code ACQUIRE_TIMEOUT when no connection became free in time
 */
export function guardPool<P extends GuardablePool>(
  pool: P,
  timeouts: Pick<DatabaseTimeouts, "queryTimeoutMs" | "acquireTimeoutMs">,
  budget: BudgetSource = () => undefined,
): P {
  const take = pool.getConnection.bind(pool);
  const limits: Limits = {
    acquireMs: () => bounded(timeouts.acquireTimeoutMs, budget()),
    queryMs: () => bounded(timeouts.queryTimeoutMs, budget()),
  };
  const getConnection = async () => {
    const conn = await acquire(take, limits.acquireMs()).catch(rethrowMarked);
    return guardConnection(conn, limits.queryMs);
  };
  // The pool's own query/execute would hand a timed-out connection back to the pool: run them on
  // a guarded connection instead.
  const onConnection = (method: "query" | "execute") => async (...args: unknown[]) => {
    const conn = await getConnection();
    try {
      return await conn[method](...args);
    } finally {
      conn.release(); // a no-op once destroyed
    }
  };
  const callbackPool = pool.pool;
  // The budget is read when the statement is given, in the request's context: mysql2 calls back
  // from its pool's own, where the request's deadline is not known.
  const limitsFromNow = (): Limits => {
    const left = budget();
    if (left === undefined) return limits;
    const given = performance.now();
    const remaining = () => left - (performance.now() - given);
    return { acquireMs: () => bounded(timeouts.acquireTimeoutMs, remaining()), queryMs: () => bounded(timeouts.queryTimeoutMs, remaining()) };
  };
  const onCallbackConnection = callbackPool
    ? (method: "query" | "execute") => (statement: unknown, values?: unknown) => runOnCallbackPool(callbackPool, method, statement, values, limitsFromNow())
    : onConnection;
  Object.assign(pool, { getConnection, query: onCallbackConnection("query"), execute: onCallbackConnection("execute") });
  return pool;
}

/** A guarded pool's limits, in milliseconds (0: none), read when a wait or statement starts. */
interface Limits {
  acquireMs(): number;
  queryMs(): number;
}

/**
 * The smaller of a timeout (0: none) and what is left of the budget (undefined: none).
 * @throws an unavailable error with code DEADLINE_EXCEEDED when nothing is left
 */
function bounded(timeoutMs: number, leftMs: number | undefined): number {
  if (leftMs === undefined) return timeoutMs;
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
  pool: NonNullable<GuardablePool["pool"]>,
  method: "query" | "execute",
  statement: unknown,
  values: unknown,
  limits: Limits,
): Promise<[unknown, unknown]> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (err: unknown) => {
      settled = true;
      reject(marked(err));
    };
    const waitMs = limits.acquireMs();
    const waiting = waitMs > 0
      ? setTimeout(() => fail(Object.assign(new Error(`No database connection became free within ${waitMs} ms.`), { code: ACQUIRE_TIMEOUT })), waitMs)
      : undefined;
    pool.getConnection((err, conn) => {
      if (waiting !== undefined) clearTimeout(waiting);
      if (settled) return conn?.release();
      if (err || !conn) return fail(err);
      let limitMs: number;
      try {
        limitMs = limits.queryMs();
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
 * Gives the connection's statements the default timeout (none when `queryMs` answers 0), destroys
 * it when one times out, and marks its errors.
 */
function guardConnection(conn: GuardableConnection, queryMs: () => number): GuardableConnection {
  for (const method of ["query", "execute"] as const) {
    const send = conn[method].bind(conn);
    conn[method] = async (statement: unknown, ...rest: unknown[]) => {
      let ms: number;
      try {
        ms = queryMs();
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
