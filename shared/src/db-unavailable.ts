/**
 * Which database failures mean "no database" (503 `service_unavailable` with Retry-After) rather
 * than a bug: errors raised by a guarded pool (db-timeouts.ts marks them) whose code says the
 * server could not be reached, did not answer in time, or rolled the work back on a conflict.
 * No I/O and no driver import, like db-timeouts.ts.
 */

/** The code of the error a guarded pool raises when no connection became free in time. */
export const ACQUIRE_TIMEOUT = "POOL_ACQUIRE_TIMEOUT";

/**
 * The code of the error a guarded pool raises when the request's deadline has passed before a
 * statement or a wait for a connection could start (see `budget` of guardPool).
 */
export const DEADLINE_EXCEEDED = "REQUEST_DEADLINE_EXCEEDED";

/**
 * An error that `isDatabaseUnavailable` recognises (so the services answer 503 with
 * Retry-After), for failures found above the driver: a deadline that passed, a transaction
 * whose retries ran out.
 * @param code one of the codes isDatabaseUnavailable knows (DEADLINE_EXCEEDED, TRANSACTION_*)
 * @param cause the driver's error that led to it, if any
 */
export function unavailableError(message: string, code: string, cause?: unknown): Error {
  return marked(Object.assign(new Error(message, cause === undefined ? undefined : { cause }), { code })) as Error;
}

/**
 * Whether `err` (or an error it wraps, as drizzle wraps the driver's) came out of a guarded pool
 * and means the database could not be reached or did not answer in time: refused, reset, lost,
 * timed out, no connection free, too many connections, or a connection that died under the
 * statement; also a conflict the engine rolled back (deadlock, lock wait timeout) or a Galera node
 * not ready, which the transaction runner retries first. Another server error (ER_*: a bad
 * statement, a duplicate key) is not.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (const e of errorChain(err)) {
    if (!(FROM_DATABASE in e)) continue;
    if (typeof e.code === "string" && UNAVAILABLE_CODES.has(e.code)) return true;
    // mysql2 marks errors that killed the connection fatal; those without a server error code
    // ("Can't add new command when connection is in closed state") are the network's.
    if (e.fatal === true && !(typeof e.code === "string" && e.code.startsWith("ER_"))) return true;
  }
  return false;
}

/**
 * Whether a statement that the transaction runner's runStatement (@service/shared/node) gave up on
 * with `err` may have been applied all the same: true when its connection was lost or timed out
 * under it (the database's answer never came). A caller that would take back its own earlier
 * change on such a failure must not then: the statement may have settled it already, and taking
 * it back again takes back someone else's. False when every attempt met a conflict the engine
 * rolled back (TRANSACTION_RETRIES_EXHAUSTED), when no connection was free (ACQUIRE_TIMEOUT:
 * nothing was sent), and for a server error (the statement was refused).
 */
export function mayHaveApplied(err: unknown): boolean {
  return isDatabaseUnavailable(err) && !errorChain(err).some((e) => e.code === "TRANSACTION_RETRIES_EXHAUSTED" || e.code === ACQUIRE_TIMEOUT);
}

/**
 * `err` and the errors it wraps through `cause` (drizzle wraps mysql2's, the transaction runner
 * the last conflict's), outermost first, at most 6; what is not an object ends the chain.
 */
export function errorChain(err: unknown): DriverError[] {
  const chain: DriverError[] = [];
  for (let e = err; e && typeof e === "object" && chain.length < 6; e = (e as DriverError).cause) chain.push(e as DriverError);
  return chain;
}

/** The parts of a driver error (mysql2, or an error wrapping it) the checks read. */
export interface DriverError {
  code?: unknown;
  errno?: unknown;
  message?: unknown;
  fatal?: unknown;
  cause?: unknown;
}

/** Marks an error a guarded pool raised (non-enumerable: logs and bodies do not show it). */
const FROM_DATABASE = Symbol.for("service.db-timeouts.from-database");

/** Throws `err` marked as a guarded pool's error. */
export function rethrowMarked(err: unknown): never {
  throw marked(err);
}

/** `err`, marked as a guarded pool's error (once). */
export function marked(err: unknown): unknown {
  if (err && typeof err === "object" && !(FROM_DATABASE in err)) Object.defineProperty(err, FROM_DATABASE, { value: true });
  return err;
}

const UNAVAILABLE_CODES = new Set([
  ACQUIRE_TIMEOUT,
  DEADLINE_EXCEEDED,
  // the transaction runner's (@service/shared/node): conflicts retried until the deadline, a
  // COMMIT whose outcome could not be confirmed
  "TRANSACTION_RETRIES_EXHAUSTED",
  "TRANSACTION_OUTCOME_UNKNOWN",
  // a Galera node that is not synced ("WSREP has not yet prepared node for application use")
  "ER_UNKNOWN_COM_ERROR",
  // a conflict that reached a handler without a runner retrying it (a deadlock or certification
  // conflict, a lock wait timeout): the engine rolled the statement back; try again later, not a bug
  "ER_LOCK_DEADLOCK",
  "ER_LOCK_WAIT_TIMEOUT",
  "PROTOCOL_SEQUENCE_TIMEOUT",
  "PROTOCOL_CONNECTION_LOST",
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ER_CON_COUNT_ERROR",
]);
