/**
 * Counts the SQL statements a mysql2 pool sends, so a test can pin the round trips of a request
 * ("a GET by id in at most 3 statements") and they cannot drift back.
 *
 * Counts at the protocol level: every Query and Execute command any connection of these pools puts
 * on the wire, including `begin` / `commit` / `rollback` of transactions (each is a round trip);
 * a text holding several statements would be one round trip.
 * Connection handshakes and pings are not statements and are not counted.
 *
 * @example
 *   const counter = countStatements(database.pool);
 *   counter.reset();
 *   await app.request("/resources/business/1", { headers });
 *   expect(counter.count).toBeLessThanOrEqual(3);
 */
import type { Pool } from "mysql2/promise";

export interface StatementCounter {
  /** statements sent since the last reset */
  readonly count: number;
  /** their SQL text, in order (for a readable failure message) */
  readonly statements: readonly string[];
  /** how each was sent, in the same order: "Query" (text protocol) or "Execute" (a server-side prepared statement) */
  readonly commands: readonly string[];
  reset(): void;
}

interface CoreCommand {
  constructor: { name: string };
  sql?: string;
  query?: string;
}

interface CoreConnection {
  addCommand(cmd: CoreCommand): unknown;
  __statementCounter?: true;
}

/**
 * Starts counting the statements of `pools` (connections opened before and after the call), in
 * the order they are sent.
 * @param pools the mysql2 promise pools behind the drizzle client (`openCoreDatabase(...).pool`)
 */
export function countStatements(...pools: Pool[]): StatementCounter {
  const sent: string[] = [];
  const commands: string[] = [];
  for (const pool of pools) instrumentPool(pool, sent, commands);
  return {
    get count() {
      return sent.length;
    },
    get statements() {
      return [...sent];
    },
    get commands() {
      return [...commands];
    },
    reset() {
      sent.length = 0;
      commands.length = 0;
    },
  };
}

function instrumentPool(pool: Pool, sent: string[], commands: string[]): void {
  const core = (pool as unknown as { pool: CorePool }).pool;
  const instrument = (conn: CoreConnection) => {
    if (conn.__statementCounter) return;
    conn.__statementCounter = true;
    const add = conn.addCommand.bind(conn);
    conn.addCommand = (cmd: CoreCommand) => {
      const name = cmd.constructor.name;
      if (name === "Query" || name === "Execute") {
        sent.push(cmd.sql ?? cmd.query ?? name);
        commands.push(name);
      }
      return add(cmd);
    };
  };
  for (const conn of core._allConnections?.toArray?.() ?? []) instrument(conn);
  core.on("connection", instrument);
}

interface CorePool {
  on(event: "connection", listener: (conn: CoreConnection) => void): void;
  _allConnections?: { toArray?: () => CoreConnection[] };
}
