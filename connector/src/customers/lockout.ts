/**
 * Magento's own account lockout columns on customer_entity: failures_num / first_failure /
 * lock_expires, written by the shop's own login (Magento's Customer\Model\Authentication: a lock
 * per account, which anyone can set by failing on purpose). The connector's authenticate neither
 * counts failures in them nor refuses by them (its lockout counts per customer and client address,
 * customer-throttle.ts); like Magento's login it clears them after a successful authenticate.
 */

export interface LockoutState {
  failuresNum: number | null;
  firstFailure: Date | null;
  lockExpires: Date | null;
}

/** The state after a successful login. */
export const UNLOCKED: LockoutState = { failuresNum: 0, firstFailure: null, lockExpires: null };

/** Whether a state has anything a success must clear. */
export function needsReset(state: LockoutState): boolean {
  return (state.failuresNum ?? 0) !== 0 || state.firstFailure !== null || state.lockExpires !== null;
}
