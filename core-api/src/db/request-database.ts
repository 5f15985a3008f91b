/**
 * A request's handle of the core database: the deadline of the request (REQUEST_DEADLINE_MS,
 * default 5 s) travels with it explicitly. The app makes one per request (app.ts, `ctx.db`), and
 * every repository, the authentication and the transaction runner take it as their database: its
 * statements and its waits for a pool connection end at the deadline (a view of the guarded pool,
 * poolUntil of @service/shared/node), and so do the transaction runner's retries and
 * back-off (they stop at the pool's deadline, @service/shared/node transaction-runner.ts). The
 * service then answers 503 service_unavailable (904) with Retry-After (http/database-unavailable.ts).
 *
 * Why a handle rather than a deadline that follows the request's asynchronous work
 * (AsyncLocalStorage): on Node 20 the first AsyncLocalStorage `run` turns on promise hooks for
 * every promise of the process, which cost a by-id read about a tenth of its CPU (30 µs of 300,
 * measured in one process with app.request, hooks on and off in turns) and of its throughput
 * (0.49x of the bench floor without them, 0.44x with); a handle costs a drizzle client made per
 * request, under a microsecond (one with the relational query builders of the 33 tables cost 40:
 * hence none, on the shared client too).
 *
 * Whatever reaches the database by another way has no deadline: the shared client of AppDeps
 * (outbox worker, health probes), or a drizzle query prepared once on it (a prepared query keeps
 * the client it was prepared with). Statements of a request go through its handle; a scrape of
 * /metrics, answered before the request's handle is made, reads the outbox on a handle of its own
 * with the same deadline (metrics/core-metrics.ts).
 */
import { poolDeadline, poolUntil } from "@service/shared/node";
import { MySqlDialect } from "drizzle-orm/mysql-core";
import { MySql2Database, MySql2Session } from "drizzle-orm/mysql2";
import type { CoreDb } from "./client.ts";

/** SQL building of the handles: it holds no per-client state. */
const dialect = new MySqlDialect();
/** The shared client a handle was made from. */
const BASE = Symbol("base database");

type Handle = CoreDb & { [BASE]?: CoreDb };

/**
 * A handle of `db` whose statements, waits for a connection and transaction retries end at `at`
 * (or at the deadline `db` already has, when sooner: a handle never extends one).
 * @param db the shared client (openCoreDatabase) or another handle of it
 * @param at a `performance.now()` reading
 * @returns a drizzle client on a view of `db`'s pool; its `$client` is that view
 */
export function databaseUntil(db: CoreDb, at: number): CoreDb {
  const client = poolUntil(db.$client, at);
  const session = new MySql2Session(client, dialect, undefined, { mode: "default" });
  const handle = new MySql2Database(dialect, session, undefined, "default") as Handle;
  handle.$client = client;
  handle[BASE] = baseDatabase(db);
  return handle;
}

/**
 * The shared client behind `db` (itself when it is no request's handle): what state kept per
 * database is keyed by, and what work that outlives a request runs on.
 */
export function baseDatabase(db: CoreDb): CoreDb {
  return (db as Handle)[BASE] ?? db;
}

/** The deadline of `db` (a request's handle) as a `performance.now()` reading; undefined for the shared client. */
export function deadlineOf(db: CoreDb): number | undefined {
  return poolDeadline(db.$client);
}
