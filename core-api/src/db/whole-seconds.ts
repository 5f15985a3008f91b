/**
 * What a DATETIME / TIMESTAMP column without fractional digits keeps of a Date: MariaDB truncates
 * the fraction and MySQL rounds it, so writing whole seconds makes both engines store the same
 * value, and an answer built from what was written equals a later read.
 */

/**
 * `date` cut to whole seconds (the milliseconds dropped, towards the past).
 * @param date any Date
 * @returns a new Date at the start of that second
 */
export function wholeSeconds(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}
