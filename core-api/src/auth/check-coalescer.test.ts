/**
 * The coalescer of identical authentication checks (auth/check-coalescer.ts), with queries the test
 * answers by hand: when a query is sent, who shares one, and that no request is ever answered by a
 * query sent before it arrived.
 */
import { describe, expect, it } from "vitest";
import { CheckCoalescer } from "./check-coalescer.ts";

/** A query the test answers by hand; `calls` records each start with its time and its label. */
function manualQueries() {
  const calls: Array<{ label: string; now: Date; answer(value: string): void; fail(err: unknown): void }> = [];
  const query = (label: string) => (now: Date) =>
    new Promise<string>((resolve, reject) => {
      calls.push({ label, now, answer: resolve, fail: reject });
    });
  return { calls, query };
}

const at = (seconds: number) => new Date(Date.UTC(2026, 10, 26, 12, 0, seconds));
/** Two turns of the event loop: a check answered now has started the next one, which has been sent. */
const settle = () => new Promise((r) => setImmediate(() => setImmediate(r)));

describe("CheckCoalescer", () => {
  it("sends an idle key's check once the loop's ready input is read, and forgets the key when it is answered", async () => {
    const c = new CheckCoalescer<string>();
    const { calls, query } = manualQueries();
    const answer = c.check("k", at(1), query("first"));
    // Not inside the request's own turn of the event loop: at the end of it.
    expect(calls).toHaveLength(0);
    expect(c.busyKeys).toBe(1);
    await settle();
    expect(calls.map((q) => q.label)).toEqual(["first"]);
    expect(c.busyKeys).toBe(1);
    calls[0]!.answer("first");
    await expect(answer).resolves.toBe("first");
    await settle();
    expect(c.busyKeys).toBe(0);
    expect(c.started).toBe(1);
  });

  it("lets the requests of one turn of the event loop share one check of an idle key", async () => {
    const c = new CheckCoalescer<string>();
    const { calls, query } = manualQueries();
    const same = [c.check("k", at(1), query("check 1")), c.check("k", at(2), query("check 2"))];
    await settle();
    expect(calls.map((q) => q.label)).toEqual(["check 1"]);
    expect(calls[0]!.now).toEqual(at(2));
    calls[0]!.answer("both");
    await expect(Promise.all(same)).resolves.toEqual(["both", "both"]);
    expect(c.started).toBe(1);
  });

  it("never hands a request the answer of a query sent before it arrived", async () => {
    const c = new CheckCoalescer<string>();
    const { calls, query } = manualQueries();
    const first = c.check("k", at(1), query("shared"));
    await settle();
    // Arrives while the first query is out: it must wait for a query of its own time.
    const second = c.check("k", at(2), query("shared"));
    let secondAnswer: string | undefined;
    void second.then((v) => (secondAnswer = v));
    expect(calls).toHaveLength(1);
    calls[0]!.answer("before the revocation");
    await expect(first).resolves.toBe("before the revocation");
    await settle();
    expect(secondAnswer).toBeUndefined();
    expect(calls).toHaveLength(2);
    expect(calls[1]!.now).toEqual(at(2));
    calls[1]!.answer("after the revocation");
    await expect(second).resolves.toBe("after the revocation");
  });

  it("lets every request arriving during one query share the next, run at the latest of their times", async () => {
    const c = new CheckCoalescer<string>();
    const { calls, query } = manualQueries();
    void c.check("k", at(1), query("check 1"));
    await settle();
    const joiners = [
      c.check("k", at(3), query("check 2")),
      c.check("k", at(5), query("check 3")),
      c.check("k", at(4), query("check 4")),
    ];
    expect(calls.map((q) => q.label)).toEqual(["check 1"]);
    calls[0]!.answer("one");
    await settle();
    // One query for the three, the first joiner's, at the latest request time.
    expect(calls.map((q) => q.label)).toEqual(["check 1", "check 2"]);
    expect(calls[1]!.now).toEqual(at(5));
    calls[1]!.answer("three");
    await expect(Promise.all(joiners)).resolves.toEqual(["three", "three", "three"]);
    expect(c.started).toBe(2);
  });

  it("gives every joiner the query's error, then starts afresh", async () => {
    const c = new CheckCoalescer<string>();
    const { calls, query } = manualQueries();
    const first = c.check("k", at(1), query("shared"));
    await settle();
    const joiners = [c.check("k", at(2), query("shared")), c.check("k", at(2), query("shared"))];
    calls[0]!.fail(new Error("database down"));
    await expect(first).rejects.toThrow("database down");
    await settle();
    calls[1]!.fail(new Error("still down"));
    for (const j of joiners) await expect(j).rejects.toThrow("still down");
    await settle();
    expect(c.busyKeys).toBe(0);
    const later = c.check("k", at(3), query("shared"));
    await settle();
    calls[2]!.answer("back");
    await expect(later).resolves.toBe("back");
  });

  it("turns a query that throws before returning a promise into that request's error", async () => {
    const c = new CheckCoalescer<string>();
    const boom = () => {
      throw new Error("bad header");
    };
    await expect(c.check("k", at(1), boom)).rejects.toThrow("bad header");
    await settle();
    expect(c.busyKeys).toBe(0);
  });

  it("keeps keys apart: other credentials or chains never wait for or share a check", async () => {
    const c = new CheckCoalescer<string>();
    const { calls, query } = manualQueries();
    const a = c.check("admin 1 chain 1", at(1), query("a"));
    const b = c.check("admin 1 chain 2", at(1), query("b"));
    await settle();
    expect(calls.map((q) => q.label)).toEqual(["a", "b"]);
    calls[1]!.answer("chain 2");
    calls[0]!.answer("chain 1");
    await expect(Promise.all([a, b])).resolves.toEqual(["chain 1", "chain 2"]);
  });
});
