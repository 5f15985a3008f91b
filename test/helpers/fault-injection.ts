/**
 * Puts the database's failures into a mysql2 pool, at the protocol level, under the services'
 * guarded pools and drizzle (so the errors travel the way real ones do): the Nth statement sent
 * inside a transaction (begin = 1, its COMMIT included) fails with the error a server or a lost
 * connection gives, built as mysql2 builds it.
 *
 * - `deadlock` (1213, also Galera's certification conflict), `lock_wait` (1205), `not_ready`
 *   (1047, a Galera node not synced): the statement is not sent; its caller gets the server error.
 * - `lost`: the statement is not sent and the connection is closed (the server rolls back what it
 *   held open); the caller gets PROTOCOL_CONNECTION_LOST.
 * - `answer_lost`: the statement IS run by the server, then the connection is closed before its
 *   answer is read (at a COMMIT: committed, and the client cannot know).
 *
 * With `autocommitWrites`, INSERT / UPDATE / DELETE statements sent on their own (autocommit)
 * count as well.
 *
 * @example
 *   const faults = injectFaults(database.pool);
 *   faults.arm({ fault: "deadlock", at: 3 });         // the 3rd statement inside a transaction fails once
 *   faults.arm({ fault: "lost", at: 1, every: true }); // every statement inside a transaction fails
 *   faults.arm({ fault: "answer_lost", atCommit: true }); // the first COMMIT runs, its answer is lost
 */
import type { Pool } from "mysql2/promise";

export const FAULTS = ["deadlock", "lock_wait", "not_ready", "lost", "answer_lost"] as const;
export type Fault = (typeof FAULTS)[number];

/** The error mysql2 raises for `fault`. */
export function faultError(fault: Fault): Error {
  switch (fault) {
    case "deadlock":
      return Object.assign(new Error("Deadlock found when trying to get lock; try restarting transaction"), { code: "ER_LOCK_DEADLOCK", errno: 1213, sqlState: "40001", fatal: false });
    case "lock_wait":
      return Object.assign(new Error("Lock wait timeout exceeded; try restarting transaction"), { code: "ER_LOCK_WAIT_TIMEOUT", errno: 1205, sqlState: "HY000", fatal: false });
    case "not_ready":
      return Object.assign(new Error("WSREP has not yet prepared node for application use"), { code: "ER_UNKNOWN_COM_ERROR", errno: 1047, sqlState: "08S01", fatal: false });
    case "lost":
    case "answer_lost":
      return Object.assign(new Error("Connection lost: The server closed the connection."), { code: "PROTOCOL_CONNECTION_LOST", fatal: true });
  }
}

export interface FaultPlan {
  fault: Fault;
  /** the statement inside transactions (counted from arm(), 1-based) that fails */
  at?: number;
  /** the first COMMIT from arm() on fails (instead of `at`) */
  atCommit?: boolean;
  /** every statement inside a transaction fails from `at` on (the fault lasts) */
  every?: boolean;
  /** INSERT, UPDATE and DELETE statements sent outside transactions (autocommit) count too */
  autocommitWrites?: boolean;
}

export interface FaultInjector {
  arm(plan: FaultPlan): void;
  disarm(): void;
  /** statements sent inside transactions since arm() (failed ones included) */
  readonly seen: number;
  /** faults injected since arm() */
  readonly injected: number;
  /** the statements inside transactions since arm(), in order */
  readonly statements: readonly string[];
}

interface Command {
  constructor: { name: string };
  sql?: string;
  onResult?: (err: unknown, ...rest: unknown[]) => void;
}

interface Connection {
  addCommand(cmd: Command): unknown;
  destroy(): void;
  __faults?: { inTransaction: boolean };
}

/** Starts watching every connection of `pools` (open ones and new ones); nothing fails until arm(). */
export function injectFaults(...pools: Pool[]): FaultInjector {
  let plan: FaultPlan | null = null;
  let seen = 0;
  let injected = 0;
  const statements: string[] = [];
  const instrument = (conn: Connection) => {
    if (conn.__faults) return;
    const state: { inTransaction: boolean } = (conn.__faults = { inTransaction: false });
    const add = conn.addCommand.bind(conn);
    conn.addCommand = (cmd: Command) => {
      const name = cmd.constructor.name;
      if (name !== "Query" && name !== "Execute") return add(cmd);
      const text = (cmd.sql ?? "").trim().toLowerCase();
      if (text === "begin" || text.startsWith("start transaction")) state.inTransaction = true;
      const inside = state.inTransaction;
      if (text === "commit" || text === "rollback") state.inTransaction = false;
      if (plan === null || !(inside || (plan.autocommitWrites && /^(insert|update|delete)\b/.test(text)))) return add(cmd);
      seen++;
      statements.push(cmd.sql ?? name);
      const isCommit = text === "commit";
      const hit = plan.atCommit ? isCommit && (plan.every || injected === 0) : plan.every ? seen >= (plan.at ?? 1) : seen === plan.at;
      if (!hit) return add(cmd);
      injected++;
      const err = faultError(plan.fault);
      if (plan.fault === "answer_lost") {
        const onResult = cmd.onResult!;
        cmd.onResult = () => {
          conn.destroy();
          onResult(err);
        };
        return add(cmd);
      }
      if (plan.fault === "lost") {
        state.inTransaction = false;
        conn.destroy();
      }
      process.nextTick(() => cmd.onResult?.(err));
      return cmd;
    };
  };
  for (const pool of pools) {
    const core = (pool as unknown as { pool: CorePool }).pool;
    for (const conn of core._allConnections?.toArray?.() ?? []) instrument(conn);
    core.on("connection", instrument);
  }
  return {
    arm(next) {
      plan = next;
      seen = 0;
      injected = 0;
      statements.length = 0;
    },
    disarm() {
      plan = null;
    },
    get seen() {
      return seen;
    },
    get injected() {
      return injected;
    },
    get statements() {
      return [...statements];
    },
  };
}

interface CorePool {
  on(event: "connection", listener: (conn: Connection) => void): void;
  _allConnections?: { toArray?: () => Connection[] };
}
