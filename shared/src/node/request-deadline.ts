/**
 * The connector's deadline per request for everything it does with the database: the statements
 * it sends, its waits for a connection, the transaction runner's retries and back-off
 * (transaction-runner.ts). A frozen or overloaded database then holds a request at most
 * REQUEST_DEADLINE_MS (default 5 s, inside a proxy's usual timeouts) before the service answers
 * 503 with Retry-After.
 *
 * Here the deadline travels with the request's asynchronous work (AsyncLocalStorage), so the
 * connector's repositories and its statements prepared once per database take no extra
 * parameter: its guarded pool reads it (`deadlineAt` as guardPool's deadline source, db-timeouts.ts).
 * On Node 20 AsyncLocalStorage turns on promise hooks for every promise once it runs, a cost on
 * every request: negligible beside an authenticate's password hash, not beside core-api's
 * by-id read, which carries its deadline on the request's database handle instead (poolUntil of
 * db-timeouts.ts). Work outside a request (the sync, scripts) has none: only the pool's own
 * timeouts apply there.
 */
import { AsyncLocalStorage } from "node:async_hooks";

export { DEFAULT_REQUEST_DEADLINE_MS } from "./db-timeouts.ts";

/** The deadline of the current request, as a `performance.now()` reading. */
const deadlines = new AsyncLocalStorage<number>();

/**
 * Runs `work` with a deadline `budgetMs` from now (a deadline already in force that comes sooner
 * is kept: a nested call never extends its caller's).
 * @param budgetMs milliseconds; Infinity for none
 */
export function withDeadline<T>(budgetMs: number, work: () => T): T {
  const at = performance.now() + budgetMs;
  const outer = deadlines.getStore();
  return deadlines.run(outer !== undefined && outer < at ? outer : at, work);
}

/** The current request's deadline (a `performance.now()` reading), or undefined outside a request. */
export function deadlineAt(): number | undefined {
  return deadlines.getStore();
}
