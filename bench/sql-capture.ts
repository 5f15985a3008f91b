/**
 * The SQL a request really sends, captured at the protocol level and replayed with a bare mysql2
 * pool: how many statements a search takes (reported), how long they take in the database alone
 * (the anchor comparison), and how fast a bare pool runs them (a throughput floor).
 *
 * The hook is the one test/helpers/statements.ts counts with: every Query and Execute command a
 * connection of the pool puts on the wire, `begin` / `commit` included; it also keeps the values
 * of prepared statements so a statement can be sent again exactly (a Query's text already has
 * its values inlined by mysql2).
 */
import type { Pool } from "mysql2/promise";

/** One statement as it went over the wire. */
export interface CapturedStatement {
  /** "Query" (text protocol, values inlined) or "Execute" (prepared statement) */
  command: "Query" | "Execute";
  sql: string;
  /** the values of an Execute */
  values?: unknown[];
  /** performance.now() when the statement was handed to the connection, and when its answer was in */
  sentAt: number;
  doneAt: number;
}

interface CoreCommand {
  constructor: { name: string };
  sql?: string;
  values?: unknown[];
  once(event: "end", listener: () => void): void;
}

interface CoreConnection {
  addCommand(cmd: CoreCommand): unknown;
  __benchCapture?: true;
}

interface CorePool {
  on(event: "connection", listener: (conn: CoreConnection) => void): void;
  _allConnections?: { toArray?: () => CoreConnection[] };
}

/** A running capture: `take()` returns what was sent since the last take and starts afresh. */
export interface StatementCapture {
  take(): CapturedStatement[];
}

/** The captures listening on each pool (a pool's connections are instrumented once for all). */
const listeners = new WeakMap<CorePool, Set<(s: CapturedStatement) => void>>();

/**
 * Starts capturing the statements of `pool` (a mysql2 promise pool, e.g. `openCoreDatabase(...).pool`),
 * on its current and future connections. Several captures of one pool each see every statement.
 */
export function captureStatements(pool: Pool): StatementCapture {
  let sent: CapturedStatement[] = [];
  const core = (pool as unknown as { pool: CorePool }).pool;
  let forPool = listeners.get(core);
  if (!forPool) {
    const all = new Set<(s: CapturedStatement) => void>();
    forPool = all;
    listeners.set(core, all);
    const instrument = (conn: CoreConnection) => {
      if (conn.__benchCapture) return;
      conn.__benchCapture = true;
      const add = conn.addCommand.bind(conn);
      conn.addCommand = (cmd: CoreCommand) => {
        const name = cmd.constructor.name;
        if (name === "Query" || name === "Execute") {
          const s: CapturedStatement = { command: name, sql: cmd.sql ?? "", sentAt: performance.now(), doneAt: Infinity };
          if (name === "Execute") s.values = cmd.values ? [...cmd.values] : [];
          cmd.once("end", () => (s.doneAt = performance.now()));
          for (const listener of all) listener(s);
        }
        return add(cmd);
      };
    };
    for (const conn of core._allConnections?.toArray?.() ?? []) instrument(conn);
    core.on("connection", instrument);
  }
  forPool.add((s) => sent.push(s));
  return {
    take() {
      const out = sent;
      sent = [];
      return out;
    },
  };
}

/**
 * Whether `s` reads or writes the businesses or their search indexes (a table named business...
 * after FROM, JOIN, INTO or UPDATE), as opposed to authentication and transaction control.
 */
export function isBusinessStatement(s: CapturedStatement): boolean {
  return /\b(from|join|into|update)\s+[`"]?business/i.test(s.sql);
}

/**
 * Splits `statements` into waves as the product sent them: a statement sent before every earlier
 * statement of the current wave had its answer ran concurrently with them and joins the wave.
 */
export function waves(statements: readonly CapturedStatement[]): CapturedStatement[][] {
  const out: CapturedStatement[][] = [];
  let wave: CapturedStatement[] = [];
  let waveDone = -Infinity;
  for (const s of statements) {
    if (wave.length > 0 && s.sentAt >= waveDone) {
      out.push(wave);
      wave = [];
      waveDone = -Infinity;
    }
    wave.push(s);
    waveDone = Math.max(waveDone, s.doneAt);
  }
  if (wave.length > 0) out.push(wave);
  return out;
}

/** Whether `statements` open a transaction (then they must share one connection). */
function hasTransaction(statements: readonly CapturedStatement[]): boolean {
  return statements.some((s) => /^\s*(begin|start\s+transaction)\b/i.test(s.sql));
}

/**
 * Sends `statements` again with `pool` as the product sent them: wave after wave (see `waves`),
 * each statement on a pooled connection of its own, the statements of a wave concurrently; a
 * request with a transaction goes one statement after the other on one held connection. No
 * connection is held while another is awaited, so any number of concurrent replays share a small
 * pool without deadlock.
 */
export async function replay(pool: Pool, statements: readonly CapturedStatement[]): Promise<void> {
  const send = (q: Pick<Pool, "query" | "execute">, s: CapturedStatement) =>
    s.command === "Execute" ? q.execute(s.sql, s.values as never) : q.query(s.sql);
  if (hasTransaction(statements)) {
    const conn = await pool.getConnection();
    try {
      for (const s of statements) await send(conn, s);
    } finally {
      conn.release();
    }
    return;
  }
  for (const wave of waves(statements)) await Promise.all(wave.map((s) => send(pool, s)));
}

/** A statement shortened for a table cell: whitespace collapsed, at most `max` characters. */
export function shortSql(s: CapturedStatement, max = 140): string {
  const flat = s.sql.replace(/`/g, "").replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat;
}
