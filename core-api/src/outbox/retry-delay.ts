/**
 * The outbox's back-off (handbook, "Events": exponential back-off with jitter): the wait before
 * attempt n+1 doubles with every failed attempt, from `baseMs` up to `capMs`, and is drawn at
 * random from its upper half ("equal jitter"), so receivers coming back after an outage are not
 * hit by every waiting delivery at the same instant, while no wait shrinks below half its step.
 */

/** Back-off settings, in milliseconds. */
export interface RetryPolicy {
  /** wait after the first failed attempt (before jitter) */
  baseMs: number;
  /** longest wait */
  capMs: number;
  /** attempts in all; after the last failed one the delivery is kept as failed */
  maxAttempts: number;
}

/**
 * The default: 1 s doubling up to 1 h, 15 attempts. The waits add up to about 3.5 hours (between
 * 2.6 and 5.3 with jitter), long enough to ride out a receiver's restart or a short outage.
 */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { baseMs: 1_000, capMs: 3_600_000, maxAttempts: 15 };

/**
 * The wait after failed attempt number `attempt` (1 = the first attempt failed).
 * @param random a number in [0, 1) (Math.random; tests pass their own)
 * @returns milliseconds, within [step / 2, step] where step = min(capMs, baseMs * 2^(attempt-1))
 * @example retryDelayMs(3, DEFAULT_RETRY_POLICY, () => 0.5) // 3000 (step 4000, half plus a quarter)
 */
export function retryDelayMs(attempt: number, policy: RetryPolicy, random: () => number): number {
  const step = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(step / 2 + random() * (step / 2));
}
