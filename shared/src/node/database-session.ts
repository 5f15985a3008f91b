/**
 * Read your writes on a Galera cluster (handbook, "Scale beyond one machine"). Galera replicates a
 * commit to every node before it answers, but each node applies it in its own time: a read sent
 * to another node right after a write's 200 may not see it yet. `wsrep_sync_wait` makes a
 * session's reads first wait until the node has applied everything the cluster committed before
 * the read began, so a write acknowledged through any node is seen through every node.
 *
 * Both services' pools set it on every new connection: `SET SESSION wsrep_sync_wait = 1` (bit 1:
 * SELECT, SHOW and BEGIN wait; writes need no wait, certification orders them). A server without
 * Galera ignores the value (MariaDB: wsrep_on is OFF) or does not know the variable (MySQL): the
 * statement's error is ignored and the session goes on as before.
 *
 * The value can be changed where the database is named: `wsrep_sync_wait` as a parameter of
 * DATABASE_URL, for example `mysql://root@127.0.0.1:3310?wsrep_sync_wait=0` (no waiting: reads
 * may miss a write acknowledged through another node a moment ago) or `=15` (every statement
 * waits). It travels with the address to every process and script that opens a pool; it is
 * taken out of the URL before the driver sees it.
 *
 * Its one I/O is the statement applySessionSettings queues on each new connection of a pool handed
 * in; no mysql2 import (structural types), like db-timeouts.ts.
 */

/** The DATABASE_URL parameter, named as the server variable it sets. */
export const SYNC_WAIT_PARAMETER = "wsrep_sync_wait";

/** wsrep_sync_wait of every session unless DATABASE_URL says otherwise: reads wait (bit 1). */
export const DEFAULT_SYNC_WAIT = 1;

/** The highest value: every bit (1 reads, 2 UPDATE and DELETE, 4 INSERT and REPLACE, 8 SHOW). */
export const MAX_SYNC_WAIT = 15;

/** A database address as the driver takes it, and the sessions' settings taken out of it. */
export interface DatabaseSession {
  /** `mysql://user:pass@host:port/<databaseName>` with our own parameters removed */
  uri: string;
  /** wsrep_sync_wait of every session (0-15) */
  syncWait: number;
}

/**
 * Splits DATABASE_URL into the driver's address (on `databaseName`) and the session settings.
 * @param databaseUrl `mysql://user:pass@host:port`, optionally `?wsrep_sync_wait=<0-15>`
 * @param databaseName the database the pool works on (empty: none)
 * @throws Error naming the parameter when its value is not a whole number from 0 to 15
 */
export function databaseSession(databaseUrl: string, databaseName = ""): DatabaseSession {
  const url = new URL(databaseUrl);
  url.pathname = `/${databaseName}`;
  const raw = url.searchParams.get(SYNC_WAIT_PARAMETER);
  url.searchParams.delete(SYNC_WAIT_PARAMETER);
  const syncWait = raw === null ? DEFAULT_SYNC_WAIT : parseSyncWait(raw);
  if (syncWait === undefined) throw new Error(syncWaitProblem());
  return { uri: url.toString(), syncWait };
}

/** The value of a `wsrep_sync_wait` parameter, or undefined when it is not a whole number 0-15. */
export function parseSyncWait(raw: string): number | undefined {
  if (!/^\d{1,2}$/.test(raw)) return undefined;
  const value = Number(raw);
  return value <= MAX_SYNC_WAIT ? value : undefined;
}

/** What is wrong with a bad `wsrep_sync_wait` parameter (service-env.ts reports it for DATABASE_URL). */
export function syncWaitProblem(): string {
  return `its ${SYNC_WAIT_PARAMETER} parameter must be a whole number from 0 to ${MAX_SYNC_WAIT}`;
}

/** The connection of mysql2's callback pool, as far as the settings need it. */
interface SessionConnection {
  query(sql: string, callback: (err: unknown) => void): unknown;
}

/** A mysql2 promise pool (its callback pool emits "connection" for each new connection). */
interface SessionPool {
  pool: { on(event: "connection", listener: (conn: SessionConnection) => void): unknown };
}

/**
 * Sets wsrep_sync_wait on every connection `pool` opens from now on. The statement is queued on
 * the new connection before the pool hands it out, so it runs before the connection's first
 * statement; its error (a server without the variable) is ignored.
 * @returns the same pool
 */
export function applySessionSettings<P extends SessionPool>(pool: P, session: Pick<DatabaseSession, "syncWait">): P {
  const statement = `SET SESSION ${SYNC_WAIT_PARAMETER} = ${session.syncWait}`;
  pool.pool.on("connection", (conn) => {
    conn.query(statement, () => undefined);
  });
  return pool;
}
