/**
 * The hash slots: at most `size` argon2id hashes at once per process, the rest queued first come
 * first served, a slot given back whatever the hash did, and no answer changed.
 */
import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { ARGON_SLOTS, defaultHashSlots, Slots } from "./hash-slots.ts";
import { hashMagentoPassword, verifyMagentoPassword } from "./magento-password.ts";

/** A promise with its resolve and reject. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

const tick = () => new Promise((r) => setImmediate(r));

describe("Slots", () => {
  it("runs at most `size` at once and the rest in the order they came", async () => {
    const slots = new Slots(2);
    const works = Array.from({ length: 5 }, () => deferred<number>());
    const started: number[] = [];
    const results = works.map((w, i) => slots.run(() => (started.push(i), w.promise)));
    await tick();
    expect(started).toEqual([0, 1]);
    expect([slots.inUse, slots.queued]).toEqual([2, 3]);

    works[1]!.resolve(1);
    await tick();
    expect(started).toEqual([0, 1, 2]);
    works[0]!.resolve(0);
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);
    expect([slots.inUse, slots.queued]).toEqual([2, 1]);

    // A failed holder gives its slot back too, and its caller gets the rejection.
    works[2]!.reject(new Error("boom"));
    await expect(results[2]).rejects.toThrow("boom");
    await tick();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    works[3]!.resolve(3);
    works[4]!.resolve(4);
    expect(await Promise.all([results[0], results[1], results[3], results[4]])).toEqual([0, 1, 3, 4]);
    expect([slots.inUse, slots.queued]).toEqual([0, 0]);
  });

  it("refuses a size that is not a whole number >= 1", () => {
    for (const size of [0, -1, 1.5, NaN]) expect(() => new Slots(size)).toThrow(/whole number/);
  });
});

describe("argon2id hashes in the process's slots", () => {
  it("a process alone gets a slot per core, at most its thread pool (UV_THREADPOOL_SIZE, else 4)", () => {
    const pool = Number(process.env.UV_THREADPOOL_SIZE) || 4;
    expect(defaultHashSlots({ UV_THREADPOOL_SIZE: process.env.UV_THREADPOOL_SIZE })).toBe(Math.max(1, Math.min(availableParallelism(), pool)));
    expect(ARGON_SLOTS.size).toBe(defaultHashSlots());
  });

  it("HASH_SLOTS sets the slots per process; a value that is not a whole number >= 1 leaves the default", () => {
    expect(defaultHashSlots({ HASH_SLOTS: "3" })).toBe(3);
    for (const ignored of [undefined, "", "0", "1.5", "two"]) expect(defaultHashSlots({ HASH_SLOTS: ignored })).toBe(defaultHashSlots({}));
  });

  it("verifications beyond the slots wait their turn and answer as alone", async () => {
    const stored = await hashMagentoPassword("Queued-pw1");
    const n = ARGON_SLOTS.size + 3;
    const answers = Array.from({ length: n }, (_, i) => verifyMagentoPassword(i % 2 ? "wrong" : "Queued-pw1", stored));
    // Each verification takes its slot (or its place in the queue) before its first await.
    expect([ARGON_SLOTS.inUse, ARGON_SLOTS.queued]).toEqual([ARGON_SLOTS.size, 3]);
    expect(await Promise.all(answers)).toEqual(Array.from({ length: n }, (_, i) => i % 2 === 0));
    expect([ARGON_SLOTS.inUse, ARGON_SLOTS.queued]).toEqual([0, 0]);
  });
});
