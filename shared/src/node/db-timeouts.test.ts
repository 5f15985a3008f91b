/**
 * guardPool and isDatabaseUnavailable on a fake pool (the real database is exercised by the
 * services' tests: core-api http/database-unavailable.test.ts, connector http/unavailable.test.ts).
 */
import { describe, expect, it, vi } from "vitest";
import { ACQUIRE_TIMEOUT, DEADLINE_EXCEEDED, guardedPoolOf, guardPool, isDatabaseUnavailable, poolDeadline, poolUntil, type GuardableConnection } from "./db-timeouts.ts";

const never = () => new Promise<never>(() => {});
const withCode = (code: string, extra: object = {}) => Object.assign(new Error(code), { code }, extra);

/** A connection whose query answers `answer`, recording the options and release / destroy. */
function fakeConnection(answer: (statement: unknown) => Promise<unknown>) {
  const seen: unknown[] = [];
  const conn = {
    released: 0,
    destroyed: 0,
    query: async (statement: unknown) => {
      seen.push(statement);
      return answer(statement);
    },
    execute: async (statement: unknown) => {
      seen.push(statement);
      return answer(statement);
    },
    release() {
      this.released++;
    },
    destroy() {
      this.destroyed++;
    },
  };
  return { conn, seen };
}

function fakePool(getConnection: () => Promise<GuardableConnection>) {
  return { getConnection, query: async (..._args: unknown[]) => "unguarded" as unknown, execute: async (..._args: unknown[]) => "unguarded" as unknown };
}

describe("guardPool", () => {
  it("sets the query timeout on every statement unless it has its own, and releases the pool's connections", async () => {
    const { conn, seen } = fakeConnection(async () => [[{ one: 1 }]]);
    const pool = guardPool(fakePool(async () => conn), { queryTimeoutMs: 250, acquireTimeoutMs: 1000 });
    expect(await pool.query("SELECT 1")).toEqual([[{ one: 1 }]]);
    await pool.execute({ sql: "SELECT ?", rowsAsArray: true }, [2]);
    await pool.query({ sql: "SELECT 3", timeout: 5 });
    expect(seen).toEqual([{ sql: "SELECT 1", timeout: 250 }, { sql: "SELECT ?", rowsAsArray: true, timeout: 250 }, { sql: "SELECT 3", timeout: 5 }]);
    expect(conn.released).toBe(3);
  });

  it("destroys a connection whose statement timed out, and the error counts as unavailable", async () => {
    const { conn } = fakeConnection(async () => {
      throw withCode("PROTOCOL_SEQUENCE_TIMEOUT");
    });
    const pool = guardPool(fakePool(async () => conn), { queryTimeoutMs: 50, acquireTimeoutMs: 1000 });
    const err = await pool.query("SELECT SLEEP(10)").catch((e: unknown) => e);
    expect(isDatabaseUnavailable(err)).toBe(true);
    expect(conn.destroyed).toBe(1);
  });

  it("gives up waiting for a connection after acquireTimeoutMs, and hands one that comes later straight back", async () => {
    vi.useFakeTimers();
    try {
      const { conn } = fakeConnection(async () => []);
      let deliver!: (c: GuardableConnection) => void;
      const pool = guardPool(fakePool(() => new Promise((resolve) => (deliver = resolve))), { queryTimeoutMs: 50, acquireTimeoutMs: 100 });
      const waiting = pool.getConnection().catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(100);
      const err = await waiting;
      expect((err as { code?: string }).code).toBe(ACQUIRE_TIMEOUT);
      expect(isDatabaseUnavailable(err)).toBe(true);
      deliver(conn);
      await vi.advanceTimersByTimeAsync(0);
      expect(conn.released).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("without timeouts (0) passes statements unchanged and waits as long as the pool does", async () => {
    const { conn, seen } = fakeConnection(async () => []);
    const pool = guardPool(fakePool(async () => conn), { queryTimeoutMs: 0, acquireTimeoutMs: 0 });
    await pool.query("SELECT 1");
    expect(seen).toEqual(["SELECT 1"]);
  });
});

/** A callback connection (mysql2's core API) answering `answer` to every statement. */
function fakeCallbackConnection(answer: (statement: unknown) => { err?: Error; rows?: unknown }) {
  const seen: Array<{ statement: unknown; values: unknown }> = [];
  const conn = {
    released: 0,
    destroyed: 0,
    query(statement: unknown, values: unknown, cb: (err: unknown, rows?: unknown, fields?: unknown) => void) {
      seen.push({ statement, values });
      const a = answer(statement);
      setImmediate(() => cb(a.err ?? null, a.rows, ["fields"]));
    },
    execute(statement: unknown, values: unknown, cb: (err: unknown, rows?: unknown, fields?: unknown) => void) {
      this.query(statement, values, cb);
    },
    release() {
      this.released++;
    },
    destroy() {
      this.destroyed++;
    },
  };
  return { conn, seen };
}

describe("guardPool on mysql2's callback pool (the pool's own query / execute)", () => {
  type Conn = ReturnType<typeof fakeCallbackConnection>["conn"];
  const onCallbacks = (give: (cb: (err: unknown, conn?: Conn) => void) => void, timeouts = { queryTimeoutMs: 250, acquireTimeoutMs: 1000 }) =>
    guardPool({ ...fakePool(() => Promise.reject(new Error("the promise path is not used"))), pool: { getConnection: give } }, timeouts);

  it("runs each statement there as given, answers [rows, fields] and releases the connection", async () => {
    const { conn, seen } = fakeCallbackConnection(() => ({ rows: [[7]] }));
    const pool = onCallbacks((cb) => cb(null, conn));
    expect(await pool.execute({ sql: "SELECT ?", rowsAsArray: true }, [7])).toEqual([[[7]], ["fields"]]);
    expect(await pool.query("SELECT 1")).toEqual([[[7]], ["fields"]]);
    await pool.query({ sql: "SELECT 3", timeout: 5 });
    expect(seen).toEqual([
      { statement: { sql: "SELECT ?", rowsAsArray: true }, values: [7] },
      { statement: "SELECT 1", values: undefined },
      { statement: { sql: "SELECT 3", timeout: 5 }, values: undefined },
    ]);
    expect(conn.released).toBe(3);
    expect(conn.destroyed).toBe(0);
  });

  it("destroys a connection whose statement timed out (mysql2's own timeout); its error, and a failed connect, count as unavailable; a server error does not", async () => {
    const { conn } = fakeCallbackConnection((statement) => ({
      err: withCode(statement === "SLOW" ? "PROTOCOL_SEQUENCE_TIMEOUT" : "ER_DUP_ENTRY"),
    }));
    const pool = onCallbacks((cb) => cb(null, conn));
    const slow = await pool.query("SLOW").catch((e: unknown) => e);
    expect(isDatabaseUnavailable(slow)).toBe(true);
    expect(conn.destroyed).toBe(1);
    const duplicate = await pool.execute("INSERT").catch((e: unknown) => e);
    expect((duplicate as { code?: string }).code).toBe("ER_DUP_ENTRY");
    expect(isDatabaseUnavailable(duplicate)).toBe(false);
    expect(conn.released).toBe(1);
    const refused = await onCallbacks((cb) => cb(withCode("ECONNREFUSED"))).query("SELECT 1").catch((e: unknown) => e);
    expect(isDatabaseUnavailable(refused)).toBe(true);
  });

  it("destroys a connection that does not answer within queryTimeoutMs (an execute still preparing included)", async () => {
    vi.useFakeTimers();
    try {
      const conn = { released: 0, destroyed: 0, query() {}, execute() {}, release() { this.released++; }, destroy() { this.destroyed++; } };
      const pool = onCallbacks((cb) => cb(null, conn as never), { queryTimeoutMs: 250, acquireTimeoutMs: 1000 });
      const answer = pool.execute({ sql: "SELECT ?" }, [1]).catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(250);
      const err = await answer;
      expect((err as { code?: string }).code).toBe("PROTOCOL_SEQUENCE_TIMEOUT");
      expect(isDatabaseUnavailable(err)).toBe(true);
      expect(conn.destroyed).toBe(1);
      expect(conn.released).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("gives up waiting for a connection after acquireTimeoutMs, and hands one that comes later straight back", async () => {
    vi.useFakeTimers();
    try {
      const { conn, seen } = fakeCallbackConnection(() => ({ rows: [] }));
      let deliver!: (err: unknown, c?: Conn) => void;
      const pool = onCallbacks((cb) => (deliver = cb), { queryTimeoutMs: 50, acquireTimeoutMs: 100 });
      const waiting = pool.query("SELECT 1").catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(100);
      const err = await waiting;
      expect((err as { code?: string }).code).toBe(ACQUIRE_TIMEOUT);
      expect(isDatabaseUnavailable(err)).toBe(true);
      deliver(null, conn);
      expect(conn.released).toBe(1);
      expect(seen).toEqual([]); // the statement that gave up is never sent
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("isDatabaseUnavailable", () => {
  const failing = (err: Error) => guardPool(fakePool(() => Promise.reject(err)), { queryTimeoutMs: 50, acquireTimeoutMs: 0 });

  it("recognises network failures the pool raised, also wrapped (as drizzle wraps them)", async () => {
    for (const code of ["ECONNREFUSED", "ETIMEDOUT", "PROTOCOL_CONNECTION_LOST", "ER_CON_COUNT_ERROR"]) {
      const err = await failing(withCode(code)).query("SELECT 1").catch((e: unknown) => e);
      expect(isDatabaseUnavailable(err), code).toBe(true);
      expect(isDatabaseUnavailable(new Error("Failed query: SELECT 1", { cause: err })), code).toBe(true);
    }
    const closed = await failing(Object.assign(new Error("Can't add new command when connection is in closed state"), { fatal: true }))
      .query("SELECT 1")
      .catch((e: unknown) => e);
    expect(isDatabaseUnavailable(closed)).toBe(true);
  });

  it("claims the conflicts the engine rolled back and a Galera node not ready (503, never 500), wrapped or not", async () => {
    for (const code of ["ER_LOCK_DEADLOCK", "ER_LOCK_WAIT_TIMEOUT", "ER_UNKNOWN_COM_ERROR"]) {
      const err = await failing(withCode(code, { fatal: false })).query("UPDATE").catch((e: unknown) => e);
      expect(isDatabaseUnavailable(err), code).toBe(true);
      expect(isDatabaseUnavailable(new Error("Failed query: UPDATE", { cause: err })), code).toBe(true);
    }
  });

  it("does not claim other server errors, nor network errors from elsewhere (a client hanging up)", async () => {
    const duplicate = await failing(withCode("ER_DUP_ENTRY")).query("INSERT").catch((e: unknown) => e);
    const syntax = await failing(withCode("ER_PARSE_ERROR", { fatal: false })).query("UPDATE").catch((e: unknown) => e);
    expect(isDatabaseUnavailable(duplicate)).toBe(false);
    expect(isDatabaseUnavailable(syntax)).toBe(false);
    expect(isDatabaseUnavailable(withCode("ECONNRESET"))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error("aborted"), { code: "ECONNRESET" }))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
    expect(isDatabaseUnavailable("ECONNREFUSED")).toBe(false);
  });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Connections as mysql2's promise pool hands them out: a new object each time, over one counted connection. */
function countedConnections() {
  const seen: unknown[] = [];
  const counts = { released: 0, destroyed: 0 };
  const take = async (): Promise<GuardableConnection> => ({
    query: async (statement: unknown) => seen.push(statement) && [[]],
    execute: async (statement: unknown) => seen.push(statement) && [[]],
    release: () => void counts.released++,
    destroy: () => void counts.destroyed++,
  });
  return { take, seen, counts };
}

describe("guardPool under a request's deadline", () => {
  it("bounds each statement by what is left until its source's deadline, and fails at once (destroying a taken connection) once it has passed", async () => {
    const { take, seen, counts } = countedConnections();
    let at: number | undefined = performance.now() + 120;
    const pool = guardPool(fakePool(take), { queryTimeoutMs: 10_000, acquireTimeoutMs: 10_000 }, () => at);
    const taken = await pool.getConnection();
    await taken.query("SELECT 1");
    expect((seen[0] as { timeout: number }).timeout).toBeGreaterThan(80);
    expect((seen[0] as { timeout: number }).timeout).toBeLessThanOrEqual(120);
    await sleep(130);
    const err = await taken.query("SELECT 2").catch((e: unknown) => e);
    expect((err as { code?: string }).code).toBe(DEADLINE_EXCEEDED);
    expect(isDatabaseUnavailable(err)).toBe(true);
    expect(counts.destroyed).toBe(1); // it may hold an open transaction: it never goes back to the pool
    expect(seen).toHaveLength(1);
    expect(isDatabaseUnavailable(await pool.getConnection().catch((e: unknown) => e))).toBe(true);
    at = undefined; // outside a request: the pool's own timeouts
    await (await pool.getConnection()).query("SELECT 3");
    expect(seen.at(-1)).toEqual({ sql: "SELECT 3", timeout: 10_000 });
  });

  it("a view of the pool (poolUntil) bounds its own statements and waits only, and never extends a deadline it was made under", async () => {
    const { take, seen, counts } = countedConnections();
    const pool = guardPool(fakePool(take), { queryTimeoutMs: 10_000, acquireTimeoutMs: 10_000 });
    const view = poolUntil(pool, performance.now() + 100);
    await view.query("SELECT 1");
    await pool.query("SELECT 2");
    expect((seen[0] as { timeout: number }).timeout).toBeLessThanOrEqual(100);
    expect(seen[1]).toEqual({ sql: "SELECT 2", timeout: 10_000 });
    expect(poolDeadline(pool)).toBeUndefined();
    expect(poolDeadline(view)).toBeGreaterThan(performance.now());
    expect(poolDeadline(poolUntil(view, performance.now() + 10_000))).toBe(poolDeadline(view));
    expect(poolDeadline(poolUntil(view, performance.now() + 10))).toBeLessThan(poolDeadline(view)!);
    expect(guardedPoolOf(poolUntil(view, 0))).toBe(pool);
    await sleep(110);
    const err = await view.getConnection().catch((e: unknown) => e);
    expect((err as { code?: string }).code).toBe(DEADLINE_EXCEEDED);
    expect(isDatabaseUnavailable(await view.execute("SELECT 3").catch((e: unknown) => e))).toBe(true);
    await pool.execute("SELECT 4"); // the pool itself is untouched
    expect(seen.map((x) => (x as { sql: string }).sql)).toEqual(["SELECT 1", "SELECT 2", "SELECT 4"]);
    expect(counts).toEqual({ released: 3, destroyed: 0 });
    expect(() => poolUntil(fakePool(take), 0)).toThrow(/not guarded/);
  });

  it("a view on mysql2's callback pool ends a statement that does not answer at its deadline, destroying the connection", async () => {
    const conn = { released: 0, destroyed: 0, query() {}, execute() {}, release() { this.released++; }, destroy() { this.destroyed++; } };
    const pool = guardPool({ ...fakePool(() => Promise.reject(new Error("unused"))), pool: { getConnection: (cb: (err: unknown, c?: never) => void) => cb(null, conn as never) } }, { queryTimeoutMs: 10_000, acquireTimeoutMs: 10_000 });
    const started = performance.now();
    const err = await poolUntil(pool, started + 80).execute({ sql: "SELECT ?" }, [1]).catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect((err as { code?: string }).code).toBe("PROTOCOL_SEQUENCE_TIMEOUT");
    expect(isDatabaseUnavailable(err)).toBe(true);
    expect(conn.destroyed).toBe(1);
  });

  it("destroys a connection whose BEGIN failed (drizzle would never release it)", async () => {
    const { conn } = fakeConnection(async (statement) => {
      if ((statement as { sql: string }).sql === "begin") throw withCode("ER_UNKNOWN_COM_ERROR", { errno: 1047 });
      return [[]];
    });
    const pool = guardPool(fakePool(async () => conn), { queryTimeoutMs: 100, acquireTimeoutMs: 100 });
    const taken = await pool.getConnection();
    await taken.query("SELECT 1").catch(() => undefined);
    expect(conn.destroyed).toBe(0);
    const err = await taken.query("begin").catch((e: unknown) => e);
    expect(isDatabaseUnavailable(err)).toBe(true); // a Galera node not ready: 503
    expect(conn.destroyed).toBe(1);
  });
});
