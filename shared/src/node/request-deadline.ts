/**
 * One deadline per request for everything it does with the database: the statements it sends,
 * its waits for a connection, the transaction runner's retries and back-off
 * (transaction-runner.ts). A frozen or overloaded database then holds a request at most
 * REQUEST_DEADLINE_MS (default 5 s, inside a proxy's usual timeouts) before the service answers
 * 503 `service_unavailable` (904) with Retry-After.
 *
 * The deadline travels with the request's asynchronous work (AsyncLocalStorage, on Node and
 * Deno alike), so repositories take no extra parameter; the guarded pools of both services read
 * it (`guardPool`'s budget in db-timeouts.ts). Work outside a request (the outbox worker, the
 * sync, scripts) has none: only the pools' own timeouts apply there.
 */
import { AsyncLocalStorage } from "node:async_hooks";

export { DEFAULT_REQUEST_DEADLINE_MS } from "./db-timeouts.ts";

/** The deadline of the current request, as a `performance.now()` reading. */
const deadlines = new AsyncLocalStorage<number | undefined>();

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

/**
 * Runs `work` under the deadline `at` (a `deadlineAt()` reading kept from another request's
 * context: a group-commit batch runs under the soonest deadline of the writes it holds), or
 * under none when `at` is undefined.
 */
export function underDeadline<T>(at: number | undefined, work: () => T): T {
  return deadlines.run(at, work);
}

/** The current request's deadline (a `performance.now()` reading), or undefined outside a request. */
export function deadlineAt(): number | undefined {
  return deadlines.getStore();
}

/**
 * Milliseconds left of the current request's budget (0 or less: it has run out), or undefined
 * outside a request. The budget source of the services' guarded pools.
 */
export function remainingMs(): number | undefined {
  const at = deadlines.getStore();
  return at === undefined ? undefined : at - performance.now();
}
