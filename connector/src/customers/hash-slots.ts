/**
 * How many argon2id hashes of customer passwords this process computes at once.
 *
 * Each Magento hash (3_32_2_67108864) takes 64 MiB for as long as it runs, and @node-rs/argon2
 * starts one per free libuv thread: with 8 logins in flight a process ran 4 at once (256 MiB on
 * top of its own) although the cores it has can only run a share of them. The slots below hold
 * the hashes beyond what the cores can run in a queue (first come, first served), before any
 * memory is taken: memory per process is bounded by slots x 64 MiB, the cores stay busy, and
 * queueing neither blocks the event loop (waiters are promises) nor changes any answer.
 */
import { processCpuShare, threadPoolSize } from "@service/shared/node";

/** A counting semaphore with a first-come-first-served queue of waiting callers. */
export class Slots {
  /** how many holders at once */
  readonly size: number;
  private free: number;
  private readonly waiting: Array<() => void> = [];

  /**
   * @param size how many holders at once
   * @throws Error when `size` is not a whole number >= 1
   */
  constructor(size: number) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`slots must be a whole number >= 1, got ${size}`);
    this.size = size;
    this.free = size;
  }

  /** Holders right now (0..size). */
  get inUse(): number {
    return this.size - this.free;
  }

  /** Callers waiting for a slot right now. */
  get queued(): number {
    return this.waiting.length;
  }

  /**
   * Runs `work` in a slot: at once when one is free, else after the callers queued before it.
   * The slot is given back when `work` settles, whether it resolves or rejects.
   * @returns what `work` resolves to (its rejection is passed on)
   */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      // Hand the slot straight to the next caller in line, or give it back.
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}

/** The variable that sets the slots per process (config.ts checks it: a whole number from 1 to 64). */
export const HASH_SLOTS_VARIABLE = "HASH_SLOTS";

/**
 * Hash slots for this process: HASH_SLOTS when set; else the cores it can keep busy
 * (processCpuShare: all of them alone, its share as one of WEB_CONCURRENCY workers), at most its
 * libuv thread pool.
 * @param env defaults to process.env (a HASH_SLOTS that is not a whole number >= 1 is ignored here;
 *   config.ts refuses it at start-up)
 * @example 2 cores, 2 workers (thread pool 2 each): 1 slot per worker; 2 cores, one process
 *   (thread pool 4): 2 slots
 */
export function defaultHashSlots(env: Record<string, string | undefined> = process.env): number {
  const configured = Number(env[HASH_SLOTS_VARIABLE]);
  if (Number.isInteger(configured) && configured >= 1) return configured;
  return Math.max(1, Math.min(processCpuShare(), threadPoolSize()));
}

/** The slots every argon2id hash of this process runs in (magento-password.ts). */
export const ARGON_SLOTS = new Slots(defaultHashSlots());
