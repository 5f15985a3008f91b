/**
 * How the workers share the machine's cores out (worker-processes.ts); forking and stopping the
 * workers is test/start-stop.test.ts's.
 */
import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { cpuShare, processCpuShare, threadPoolSize, workerThreadPool } from "./worker-processes.ts";

describe("cpuShare", () => {
  it("gives each worker its share of the cores, rounded up, at least 1", () => {
    expect(cpuShare(2, 1)).toBe(2);
    expect(cpuShare(2, 2)).toBe(1);
    expect(cpuShare(8, 3)).toBe(3);
    expect(cpuShare(2, 4)).toBe(1);
    expect(cpuShare(4, NaN)).toBe(4);
    expect(cpuShare(0, 1)).toBe(1);
  });

  it("a process that is no forked worker has every core; the pool is UV_THREADPOOL_SIZE or 4", () => {
    expect(processCpuShare()).toBe(availableParallelism());
    expect(threadPoolSize()).toBe(Number(process.env.UV_THREADPOOL_SIZE) || 4);
  });
});

describe("workerThreadPool", () => {
  it("gives a forked worker a thread per core of its share, at least 2 and at most Node's 4", () => {
    // one worker per core (the default): 2 threads each, one of them for a connector hash (1 slot)
    expect(workerThreadPool(2, 2)).toBe(2);
    expect(workerThreadPool(8, 8)).toBe(2);
    // more workers than cores
    expect(workerThreadPool(2, 4)).toBe(2);
    // fewer workers than cores: each hashes on its share, up to what one process has
    expect(workerThreadPool(6, 2)).toBe(3);
    expect(workerThreadPool(8, 2)).toBe(4);
    expect(workerThreadPool(32, 2)).toBe(4);
  });
});
