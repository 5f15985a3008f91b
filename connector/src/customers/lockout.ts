/**
 * Account lockout after failed logins, as Magento's Customer\Model\Authentication does it, on
 * customer_entity's failures_num / first_failure / lock_expires. Pure: state in, state out.
 *
 * Rules (Magento's, plus one): a failure when there was none, or after the previous lock expired,
 * starts a new count at 1; reaching `lockoutFailures` sets lock_expires = now + threshold; a
 * success clears all three columns. Added: a failure more than `threshold` after first_failure
 * also starts a new count, so only failures within the window lock the account (Magento keeps
 * counting forever until a success).
 */

export interface LockoutState {
  failuresNum: number | null;
  firstFailure: Date | null;
  lockExpires: Date | null;
}

export interface LockoutPolicy {
  /** customer/password/lockout_failures; 0 disables lockout */
  lockoutFailures: number;
  /** customer/password/lockout_threshold, minutes; 0 disables lockout */
  lockoutThresholdMinutes: number;
}

/** The state after a successful login. */
export const UNLOCKED: LockoutState = { failuresNum: 0, firstFailure: null, lockExpires: null };

/** Whether the account is locked at `now`. */
export function isLocked(state: LockoutState, now: Date): boolean {
  return state.lockExpires !== null && state.lockExpires.getTime() > now.getTime();
}

/**
 * The state after one more failed login at `now`.
 * @returns the state unchanged when the policy disables lockout
 */
export function registerFailure(state: LockoutState, now: Date, policy: LockoutPolicy): LockoutState {
  const { lockoutFailures, lockoutThresholdMinutes } = policy;
  if (!lockoutFailures || !lockoutThresholdMinutes) return state;
  const windowMs = lockoutThresholdMinutes * 60_000;
  const failures = (state.failuresNum ?? 0) + 1;
  const lockExpired = state.lockExpires !== null && now.getTime() > state.lockExpires.getTime();
  const windowOver = state.firstFailure !== null && now.getTime() - state.firstFailure.getTime() > windowMs;
  const restart = failures === 1 || state.firstFailure === null || lockExpired || windowOver;
  const next: LockoutState = restart
    ? { failuresNum: 1, firstFailure: now, lockExpires: null }
    : { failuresNum: failures, firstFailure: state.firstFailure, lockExpires: state.lockExpires };
  if (next.failuresNum! >= lockoutFailures) next.lockExpires = new Date(now.getTime() + windowMs);
  return next;
}

/** Whether a state has anything a success must clear. */
export function needsReset(state: LockoutState): boolean {
  return (state.failuresNum ?? 0) !== 0 || state.firstFailure !== null || state.lockExpires !== null;
}
