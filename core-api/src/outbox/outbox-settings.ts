/**
 * Defaults of the outbox worker (outbox/outbox-worker.ts), apart so that the configuration
 * (config.ts) reads them without loading the worker.
 */

/** Defaults of the worker's settings, in milliseconds. */
export const OUTBOX_DEFAULTS = {
  /** how often an idle worker looks for due rows (OUTBOX_POLL_MS) */
  pollMs: 1_000,
  /** longest wait for a receiver's answer (OUTBOX_TIMEOUT_MS) */
  timeoutMs: 10_000,
  /** sends in flight per worker */
  concurrency: 8,
  /** how long stop() lets sends in flight finish before cutting them */
  stopGraceMs: 5_000,
} as const;

/**
 * How long a claim keeps other workers off a row, for a send timeout of `timeoutMs`: twice the
 * timeout plus 2 s for the claim, the preparation and the settling. A worker that dies mid-send
 * holds its rows this long; then any worker sends them again.
 */
export function leaseMsFor(timeoutMs: number): number {
  return 2 * timeoutMs + 2_000;
}
