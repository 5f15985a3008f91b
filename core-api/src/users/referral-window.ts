/**
 * The referral code submission window (handbook, "Baskets": apply-referral-code): a user may
 * apply a referral code while their `created_date` plus the chain's window lies in the future.
 * The window is `referral_code_submission_window_quantity` units of
 * `referral_code_submission_window_unit` (year ... second); months and years are calendar ones
 * (UTC), so one month from 31 January ends on 3 March (JavaScript's date arithmetic).
 */

/** A unit of the window. */
export type WindowUnit = "year" | "month" | "week" | "day" | "hour" | "minute" | "second";

const FIXED_MS: Partial<Record<WindowUnit, number>> = { week: 604_800_000, day: 86_400_000, hour: 3_600_000, minute: 60_000, second: 1_000 };

/**
 * When the window that opened at `from` closes.
 * @param quantity a positive whole number of `unit`s
 */
export function windowEnd(from: Date, unit: WindowUnit, quantity: number): Date {
  const fixed = FIXED_MS[unit];
  if (fixed !== undefined) return new Date(from.getTime() + quantity * fixed);
  const end = new Date(from.getTime());
  if (unit === "month") end.setUTCMonth(end.getUTCMonth() + quantity);
  else end.setUTCFullYear(end.getUTCFullYear() + quantity);
  return end;
}

/**
 * Whether a user created at `created` may still apply a referral code at `now`: a window is
 * configured and its end lies after `now`.
 */
export function windowOpen(created: Date, unit: string | null, quantity: number | null, now: Date): boolean {
  if (unit === null || quantity === null || !(unit in FIXED_MS || unit === "month" || unit === "year")) return false;
  return windowEnd(created, unit as WindowUnit, quantity).getTime() > now.getTime();
}
