import { describe, expect, it } from "vitest";
import { WriteBatcher } from "./group-commit.ts";

/** A write that records each batch it is given and answers `item * 10`; `fail` decides a batch's error. */
function recorder(fail: (items: number[]) => unknown = () => null) {
  const batches: number[][] = [];
  const write = async (items: number[]) => {
    batches.push([...items]);
    await new Promise((r) => setTimeout(r, 5));
    const err = fail(items);
    if (err) throw err;
    return items.map((i) => i * 10);
  };
  return { batches, write };
}

const serverError = (message: string, code = "ER_DUP_ENTRY", errno?: number) => Object.assign(new Error(message), { code, errno });
const settle = (ps: Array<Promise<number>>) => Promise.all(ps.map((p) => p.then((v) => ({ ok: v }), (e: Error) => ({ err: e.message }))));

describe("WriteBatcher", () => {
  it("writes the calls of one turn together, each caller getting its own result", async () => {
    const { batches, write } = recorder();
    const batcher = new WriteBatcher(write, { maxBatch: 64, maxInFlight: 1 });
    expect(await Promise.all([1, 2, 3, 4].map((i) => batcher.add(i)))).toEqual([10, 20, 30, 40]);
    expect(batches).toEqual([[1, 2, 3, 4]]);
  });

  it("collects the calls arriving while a batch is written into the next one", async () => {
    const { batches, write } = recorder();
    const batcher = new WriteBatcher(write, { maxBatch: 64, maxInFlight: 1 });
    const first = batcher.add(1);
    await new Promise((r) => setImmediate(r)); // the first batch has started
    const later = [2, 3, 4].map((i) => batcher.add(i));
    expect(await Promise.all([first, ...later])).toEqual([10, 20, 30, 40]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it("keeps batches within maxBatch and at most maxInFlight written at once", async () => {
    let running = 0;
    let most = 0;
    const sizes: number[] = [];
    const batcher = new WriteBatcher(async (items: number[]) => {
      sizes.push(items.length);
      most = Math.max(most, ++running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
      return items;
    }, { maxBatch: 3, maxInFlight: 2 });
    const all = Array.from({ length: 10 }, (_, i) => batcher.add(i));
    expect(await Promise.all(all)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(Math.max(...sizes)).toBe(3);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(10);
    expect(most).toBe(2);
  });

  it("retries a batch that failed on a duplicate key one write at a time: only the culprit fails", async () => {
    const { batches, write } = recorder((items) => (items.includes(3) ? serverError("duplicate 3") : null));
    const batcher = new WriteBatcher(write, { maxBatch: 64, maxInFlight: 1 });
    expect(await settle([1, 2, 3, 4].map((i) => batcher.add(i)))).toEqual([{ ok: 10 }, { ok: 20 }, { err: "duplicate 3" }, { ok: 40 }]);
    expect(batches).toEqual([[1, 2, 3, 4], [1], [2], [3], [4]]);
  });

  it("gives every caller of the batch an error that is not the server's (the connection's), without retrying", async () => {
    const { batches, write } = recorder(() => Object.assign(new Error("connection lost"), { code: "PROTOCOL_CONNECTION_LOST" }));
    const batcher = new WriteBatcher(write, { maxBatch: 64, maxInFlight: 1 });
    expect(await settle([1, 2].map((i) => batcher.add(i)))).toEqual([{ err: "connection lost" }, { err: "connection lost" }]);
    expect(batches).toEqual([[1, 2]]);
  });

  it("goes on with the next batch after a failed one", async () => {
    const { write } = recorder((items) => (items.includes(1) ? new Error("down") : null));
    const batcher = new WriteBatcher(write, { maxBatch: 64, maxInFlight: 1 });
    await expect(batcher.add(1)).rejects.toThrow("down");
    expect(await batcher.add(2)).toBe(20);
  });

  it("refuses a write that answers a result count other than its batch's", async () => {
    const batcher = new WriteBatcher(async (items: number[]) => items.slice(1), { maxBatch: 64, maxInFlight: 1 });
    await expect(Promise.all([batcher.add(1), batcher.add(2)])).rejects.toThrow("1 results for 2 writes");
  });
});

describe("WriteBatcher on a lock conflict or a row's error", () => {
  it("gives every caller a lock conflict that reaches it (the transaction runner retried it already), never one write at a time", async () => {
    const { batches, write } = recorder(() => new Error("query failed", { cause: serverError("deadlock", "ER_LOCK_DEADLOCK") }));
    const batcher = new WriteBatcher(write, { maxBatch: 64, maxInFlight: 1 });
    expect(await settle([1, 2, 3].map((i) => batcher.add(i)))).toEqual([{ err: "query failed" }, { err: "query failed" }, { err: "query failed" }]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it("splits on a row's error, also wrapped as drizzle wraps it, and MariaDB's failed CHECK constraint", async () => {
    const errors = [
      new Error("query failed", { cause: serverError("duplicate") }),
      serverError("too long", "ER_DATA_TOO_LONG"),
      serverError("check failed", "ER_INNODB_AUTOEXTEND_SIZE_OUT_OF_RANGE", 4025),
    ];
    for (const error of errors) {
      const { batches, write } = recorder((items) => (items.includes(2) ? error : null));
      const batcher = new WriteBatcher(write, { maxBatch: 64, maxInFlight: 1 });
      expect(await settle([1, 2, 3].map((i) => batcher.add(i)))).toEqual([{ ok: 10 }, { err: error.message }, { ok: 30 }]);
      expect(batches).toEqual([[1, 2, 3], [1], [2], [3]]);
    }
  });

  it("gives every caller a server error no row causes (a statement refused whatever its values), without retrying", async () => {
    const { batches, write } = recorder(() => serverError("syntax", "ER_PARSE_ERROR"));
    const batcher = new WriteBatcher(write, { maxBatch: 64, maxInFlight: 1 });
    expect(await settle([1, 2].map((i) => batcher.add(i)))).toEqual([{ err: "syntax" }, { err: "syntax" }]);
    expect(batches).toEqual([[1, 2]]);
  });
});

describe("WriteBatcher and the requests' deadlines", () => {
  it("writes a batch under the soonest deadline of its writes, and one without any under none", async () => {
    const seen: Array<number | undefined> = [];
    const batcher = new WriteBatcher(async (items: number[], deadline: number | undefined) => {
      seen.push(deadline);
      return items;
    }, { maxBatch: 64, maxInFlight: 1 });
    const now = performance.now();
    await Promise.all([batcher.add(1, now + 5_000), batcher.add(2, now + 1_000), batcher.add(3)]);
    expect(seen).toEqual([now + 1_000]);
    await batcher.add(4);
    expect(seen).toEqual([now + 1_000, undefined]);
  });
});
