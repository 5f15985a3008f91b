/**
 * The transaction runner's decisions on a fake database (the real one, with faults at every
 * statement of every write call, is core-api's db/transaction-faults.test.ts and the connector's
 * routes/customer.faults.test.ts): what is retried, what is not, the marker after a COMMIT whose
 * answer was lost, the deadline, nesting.
 */
import { describe, expect, it } from "vitest";
import { ACQUIRE_TIMEOUT, guardPool, isDatabaseUnavailable, mayHaveApplied, poolUntil, unavailableError } from "./db-timeouts.ts";
import { deadlineAt, withDeadline } from "./request-deadline.ts";
import { markerKey, runStatement, runTransaction, sweepTransactionMarkers, type TransactionalDatabase } from "./transaction-runner.ts";

const serverError = (code: string, errno: number) => Object.assign(new Error(code), { code, errno, fatal: false });
/** An error as a guarded pool marks it (db-timeouts.ts): a lost connection. */
const lost = () => {
  const err = Object.assign(new Error("Connection lost"), { code: "PROTOCOL_CONNECTION_LOST", fatal: true });
  Object.defineProperty(err, Symbol.for("service.db-timeouts.from-database"), { value: true });
  return err;
};
const noWait = { sleep: async () => {}, random: () => 0.5 };

/**
 * A database whose n-th transaction fails as `failures[n]` says (undefined: it commits), at the
 * work ("work") or at the COMMIT ("commit": after the work and the marker ran); it keeps the
 * markers of the committed transactions and of those whose COMMIT "applied" before the failure.
 */
function fakeDatabase(failures: Array<{ at: "work" | "commit"; error: () => Error; applied?: boolean } | undefined>) {
  const markers = new Set<string>();
  const statements: string[] = [];
  let n = 0;
  const db: TransactionalDatabase & { markers: Set<string>; statements: string[]; transactions: () => number } = {
    markers,
    statements,
    transactions: () => n,
    async transaction(work: (tx: unknown) => Promise<unknown>) {
      const failure = failures[n++];
      const pending: string[] = [];
      const tx = {
        execute: async (q: string) => {
          statements.push(q);
          pending.push(/'([0-9a-f]{32})'/.exec(q)?.[1] ?? "");
        },
      };
      if (failure?.at === "work") throw failure.error();
      const result = await work(tx);
      if (failure?.at === "commit") {
        if (failure.applied) for (const k of pending) markers.add(k);
        throw failure.error();
      }
      for (const k of pending) markers.add(k);
      return result;
    },
    async execute(q: string) {
      statements.push(q);
      const key = /'([0-9a-f]{32})'/.exec(q)?.[1];
      return [key && markers.has(key) ? [{ 1: 1 }] : []];
    },
  };
  return db;
}

describe("runTransaction", () => {
  it("runs the whole unit again after 1213, 1205, 1047 and a connection lost before COMMIT, then answers its value", async () => {
    for (const error of [() => serverError("ER_LOCK_DEADLOCK", 1213), () => serverError("ER_LOCK_WAIT_TIMEOUT", 1205), () => serverError("ER_UNKNOWN_COM_ERROR", 1047), lost]) {
      const db = fakeDatabase([{ at: "work", error }, { at: "commit", error: () => new Error("wrapped", { cause: error() }) }]);
      let runs = 0;
      expect(await runTransaction(db, async () => ++runs, noWait)).toBe(2); // the first failed before the unit ran
      expect(db.markers.size).toBe(1);
    }
  });

  it("after a connection lost during COMMIT: runs again when the marker is absent, answers TRANSACTION_OUTCOME_UNKNOWN (503) without running again when present", async () => {
    const rolledBack = fakeDatabase([{ at: "commit", error: lost, applied: false }]);
    expect(await runTransaction(rolledBack, async () => "ok", noWait)).toBe("ok");
    expect(rolledBack.transactions()).toBe(2);
    expect(rolledBack.statements.filter((s) => s.includes("LOCK IN SHARE MODE"))).toHaveLength(1);

    const committed = fakeDatabase([{ at: "commit", error: lost, applied: true }]);
    const failure = await runTransaction(committed, async () => "ok", noWait).catch((e: unknown) => e);
    expect((failure as { code?: string }).code).toBe("TRANSACTION_OUTCOME_UNKNOWN");
    expect(isDatabaseUnavailable(failure)).toBe(true);
    expect(committed.transactions()).toBe(1);
    expect(committed.markers.size).toBe(1);
  });

  it("throws any other error at once, as it came (a duplicate key, the unit's own)", async () => {
    const duplicate = serverError("ER_DUP_ENTRY", 1062);
    const db = fakeDatabase([{ at: "work", error: () => duplicate }]);
    expect(await runTransaction(db, async () => 1, noWait).catch((e: unknown) => e)).toBe(duplicate);
    expect(db.transactions()).toBe(1);
    const mine = new Error("refused");
    expect(await runTransaction(fakeDatabase([]), async () => { throw mine; }, noWait).catch((e: unknown) => e)).toBe(mine);
  });

  it("stops at its pool's deadline with TRANSACTION_RETRIES_EXHAUSTED (503), its cause the last conflict: a request's view of the pool, or the pool's deadline source", async () => {
    const unused = async (): Promise<never> => {
      throw new Error("no statement runs on this pool");
    };
    const pool = () => ({ getConnection: unused, query: unused, execute: unused });
    const timeouts = { queryTimeoutMs: 0, acquireTimeoutMs: 0 };
    const ways: Array<[string, (run: (client: object) => Promise<unknown>) => Promise<unknown>]> = [
      ["a view under a deadline (core-api's request handle)", (run) => run(poolUntil(guardPool(pool(), timeouts), performance.now() + 150))],
      ["AsyncLocalStorage read by the pool (the connector)", (run) => withDeadline(150, () => run(guardPool(pool(), timeouts, deadlineAt)))],
    ];
    for (const [way, within] of ways) {
      const db = fakeDatabase(Array.from({ length: 1000 }, () => ({ at: "work" as const, error: () => serverError("ER_LOCK_DEADLOCK", 1213) })));
      const started = performance.now();
      const failure = await within((client) => runTransaction(Object.assign(db, { $client: client }), async () => 1)).catch((e: unknown) => e);
      const took = performance.now() - started;
      expect((failure as { code?: string }).code, way).toBe("TRANSACTION_RETRIES_EXHAUSTED");
      expect(((failure as Error).cause as { code?: string }).code).toBe("ER_LOCK_DEADLOCK");
      expect(isDatabaseUnavailable(failure)).toBe(true);
      expect(took, way).toBeGreaterThan(60); // back-offs of 2.5-5, 5-10, ... 40-80 ms came first
      expect(took, way).toBeLessThan(150 + 100);
      expect(db.transactions()).toBeGreaterThan(2);
      expect(db.markers.size).toBe(0);
    }
  });

  it("inside an open transaction runs the unit in it: no retries, no second marker", async () => {
    const db = fakeDatabase([]);
    await runTransaction(db, async (tx) => {
      const inner = Object.assign(tx as object, { rollback: () => {} }) as unknown as TransactionalDatabase;
      expect(await runTransaction(inner, async () => "inner")).toBe("inner");
    });
    expect(db.transactions()).toBe(1);
    expect(db.statements.filter((s) => s.startsWith("INSERT INTO transaction_marker"))).toHaveLength(1);
  });
});

describe("runStatement", () => {
  it("runs a statement again on a conflict, never after a lost connection (it may have been applied)", async () => {
    let runs = 0;
    expect(await runStatement(async () => {
      if (++runs < 3) throw serverError("ER_LOCK_DEADLOCK", 1213);
      return runs;
    }, noWait)).toBe(3);
    let lostRuns = 0;
    const err = lost();
    expect(await runStatement(async () => {
      lostRuns++;
      throw err;
    }, noWait).catch((e: unknown) => e)).toBe(err);
    expect(lostRuns).toBe(1);
  });
});

describe("mayHaveApplied", () => {
  it("is true only where the database's answer was lost: not after conflicts to the end, no free connection, or a refusal", async () => {
    // A lost connection, as runStatement passes it on, also wrapped (drizzle wraps the driver's error).
    expect(mayHaveApplied(lost())).toBe(true);
    expect(mayHaveApplied(new Error("Failed query", { cause: lost() }))).toBe(true);
    // Conflicts on every attempt: each was rolled back.
    let runs = 0;
    const exhausted = await runStatement(async () => {
      runs++;
      throw serverError("ER_LOCK_DEADLOCK", 1213);
    }, { ...noWait, maxAttempts: 3 }).catch((e: unknown) => e);
    expect(runs).toBe(3);
    expect(mayHaveApplied(exhausted)).toBe(false);
    expect(mayHaveApplied(unavailableError("no connection free", ACQUIRE_TIMEOUT))).toBe(false);
    expect(mayHaveApplied(serverError("ER_NO_SUCH_TABLE", 1146))).toBe(false);
  });
});

describe("markers", () => {
  it("are 32 hex digits that sort by the time they were made", () => {
    const a = markerKey(1_700_000_000_000);
    const b = markerKey(1_700_000_000_001);
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(a < b).toBe(true);
    expect(markerKey(1_700_000_000_000)).not.toBe(a);
  });

  it("the sweep deletes a bounded range of keys older than a day", async () => {
    const db = fakeDatabase([]);
    (db as unknown as { execute: (q: string) => Promise<unknown> }).execute = async (q: string) => {
      db.statements.push(q);
      return [{ affectedRows: 2 }];
    };
    expect(await sweepTransactionMarkers(db, 1_700_086_400_000)).toBe(2);
    expect(db.statements).toEqual([`DELETE FROM transaction_marker WHERE id < '${(1_700_000_000_000).toString(16).padStart(12, "0")}' LIMIT 5000`]);
  });
});

describe("request deadlines", () => {
  it("a nested deadline never extends its caller's; none outside a request", async () => {
    expect(deadlineAt()).toBeUndefined();
    const started = performance.now();
    await withDeadline(100, async () => {
      const outer = deadlineAt()!;
      expect(outer - started).toBeGreaterThanOrEqual(100);
      await withDeadline(10_000, async () => expect(deadlineAt()).toBe(outer));
      await withDeadline(10, async () => expect(deadlineAt()!).toBeLessThan(outer));
      await new Promise((r) => setTimeout(r, 5));
      expect(deadlineAt()).toBe(outer);
    });
    expect(deadlineAt()).toBeUndefined();
  });
});
