/**
 * guardPool and isDatabaseUnavailable on a fake pool (the real database is exercised by the
 * services' tests: core-api http/database-unavailable.test.ts, connector http/unavailable.test.ts).
 */
import { describe, expect, it, vi } from "vitest";
import { ACQUIRE_TIMEOUT, guardPool, isDatabaseUnavailable, type GuardableConnection } from "./db-timeouts.ts";

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

  it("does not claim server errors, nor network errors from elsewhere (a client hanging up)", async () => {
    const duplicate = await failing(withCode("ER_DUP_ENTRY")).query("INSERT").catch((e: unknown) => e);
    const deadlock = await failing(withCode("ER_LOCK_DEADLOCK", { fatal: false })).query("UPDATE").catch((e: unknown) => e);
    expect(isDatabaseUnavailable(duplicate)).toBe(false);
    expect(isDatabaseUnavailable(deadlock)).toBe(false);
    expect(isDatabaseUnavailable(withCode("ECONNRESET"))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error("aborted"), { code: "ECONNRESET" }))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
    expect(isDatabaseUnavailable("ECONNREFUSED")).toBe(false);
  });
});
