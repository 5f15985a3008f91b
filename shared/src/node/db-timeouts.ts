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
 * A request's deadline bounds its statements and waits too: `poolUntil` makes a view of the pool
 * under one deadline (core-api's request database handle), or the pool reads it from a
 * `DeadlineSource` (the connector's AsyncLocalStorage).
 *
 * No mysql2 import: it works on the pool it is given (structural types), so both services (and
 * mysql2's promise and callback pools) share one implementation.
 */
import { PoolGuard, type CallbackPool, type GuardableConnection } from "./pool-guard.ts";

export { ACQUIRE_TIMEOUT, DEADLINE_EXCEEDED, errorChain, isDatabaseUnavailable, mayHaveApplied, unavailableError, type DriverError } from "../db-unavailable.ts";
export type { CallbackConnection, CallbackPool, GuardableConnection } from "./pool-guard.ts";

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
 * (a view of the pool per request, poolUntil, in core-api; @service/shared/node,
 * request-deadline.ts, in the connector).
 */
export const DEFAULT_REQUEST_DEADLINE_MS = 5_000;

/** Seconds a client is asked to wait (Retry-After) when the database is unavailable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * When the statements and waits of the work now running must end, as a `performance.now()`
 * reading, or undefined when there is no deadline (a worker, a script): only the pool's own
 * timeouts apply then.
 */
export type DeadlineSource = () => number | undefined;

/** What guardPool needs of a pool (mysql2's promise Pool has it). */
export interface GuardablePool {
  getConnection(): Promise<GuardableConnection>;
  query(...args: any[]): Promise<unknown>;
  execute(...args: any[]): Promise<unknown>;
  /**
   * mysql2's callback pool under the promise one: when present, the pool's own query / execute
   * run on it directly (pool-guard.ts)
   */
  pool?: CallbackPool;
}

/** The guard of a guarded pool; a view of it (poolUntil) inherits it from the pool. */
const GUARD = Symbol("pool guard");
/** The deadline source of a guarded pool or of a view of it. */
const DEADLINE = Symbol("pool deadline");
/** The guarded pool itself, on the pool and its views. */
const BASE = Symbol("guarded pool");

interface Guarded {
  [GUARD]: PoolGuard;
  [DEADLINE]: DeadlineSource;
  [BASE]: object;
}

const noDeadline: DeadlineSource = () => undefined;

/**
 * Adds the timeouts to `pool` in place (drizzle and anything else holding the pool see them):
 * every statement, on the pool or on a connection taken from it, gets `queryTimeoutMs` unless it
 * sets its own `timeout`; taking a connection gives up after `acquireTimeoutMs`.
 * @param timeouts `connectTimeoutMs` is not used here: pass it to mysql2's createPool
 * @param deadline when the current work's database time ends (the connector's request deadline,
 *   @service/shared/node request-deadline.ts), read when a statement or a wait for a connection
 *   starts: each is bounded by the smaller of its timeout and what is left; one that would start
 *   with nothing left fails at once with code DEADLINE_EXCEEDED. Default none: a request's
 *   deadline then comes with a view of the pool (poolUntil).
 * @returns the same pool
 * @throws (from the guarded methods) an Error with code `PROTOCOL_SEQUENCE_TIMEOUT` (mysql2's) when a
 *   statement times out, code ACQUIRE_TIMEOUT when no connection became free in time
 */
export function guardPool<P extends GuardablePool>(
  pool: P,
  timeouts: Pick<DatabaseTimeouts, "queryTimeoutMs" | "acquireTimeoutMs">,
  deadline: DeadlineSource = noDeadline,
): P {
  const guard = new PoolGuard(pool.getConnection.bind(pool), pool.pool, { queryTimeoutMs: timeouts.queryTimeoutMs, acquireTimeoutMs: timeouts.acquireTimeoutMs });
  return Object.assign(pool, {
    getConnection: () => guard.getConnection(deadline()),
    query: (...args: unknown[]) => guard.run("query", args, deadline()),
    execute: (...args: unknown[]) => guard.run("execute", args, deadline()),
    [GUARD]: guard,
    [DEADLINE]: deadline,
    [BASE]: pool,
  });
}

/**
 * A view of the guarded pool `pool` (or of a view of it) whose statements and waits for a
 * connection end at `at`, or sooner at the deadline `pool` already has (a view never extends
 * one): what a request's database handle runs on (core-api db/request-database.ts). The view is
 * the pool for everything else (its prototype), so drizzle and the pool gauges take it as one.
 *
 * Made per request in place of a deadline that travels with the request's asynchronous work
 * (AsyncLocalStorage): on Node 20 that turns on promise hooks for every promise of the process,
 * a cost on every request (about 30 µs of CPU of a by-id read's 300, 78 promises each); a view is
 * an object and four closures.
 * @param at a `performance.now()` reading
 * @throws Error when `pool` is not guarded (guardPool)
 */
export function poolUntil<P extends GuardablePool>(pool: P, at: number): P {
  const guarded = pool as P & Partial<Guarded>;
  const guard = guarded[GUARD];
  if (!guard) throw new Error("poolUntil: the pool is not guarded (guardPool)");
  const outer = guarded[DEADLINE]?.();
  const until = outer !== undefined && outer < at ? outer : at;
  const view = Object.create(pool) as P & Guarded;
  view.getConnection = () => guard.getConnection(until);
  view.query = (...args: unknown[]) => guard.run("query", args, until);
  view.execute = (...args: unknown[]) => guard.run("execute", args, until);
  view[DEADLINE] = () => until;
  return view;
}

/**
 * The deadline the statements of `pool` (a guarded pool or a view of it) would now run under, as
 * a `performance.now()` reading; undefined for none (also for a pool that is not guarded).
 */
export function poolDeadline(pool: object | undefined): number | undefined {
  return (pool as Partial<Guarded> | undefined)?.[DEADLINE]?.();
}

/** The guarded pool behind `pool` (itself, or the pool a view was made of); undefined when not guarded. */
export function guardedPoolOf(pool: object | undefined): object | undefined {
  return (pool as Partial<Guarded> | undefined)?.[BASE];
}
