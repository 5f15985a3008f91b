/**
 * The `opening_times` JSON text of add-business / alter-business (spec, "Internal call:
 * add-business": "JSON object text with keys monday..sunday, each an object with `open` and
 * `close` strings, and `special_hours`, an array of objects with `date`, `open`, `close`,
 * `reason`").
 *
 * Decisions where the spec is silent:
 * - times are 24-hour `HH:MM` (00:00-23:59; `24:00` also as a closing time); a close earlier than
 *   the open means past midnight, so it is not refused;
 * - every key is optional (a day left out has no published hours), no other key is allowed;
 * - a day or special date that is closed gives `open` and `close` both null;
 * - a special date is a real calendar date `YYYY-MM-DD`; `reason` is text (max 255) or null.
 *
 * @example
 *   {"monday":{"open":"08:00","close":"20:00"},"sunday":{"open":null,"close":null},
 *    "special_hours":[{"date":"2026-12-25","open":null,"close":null,"reason":"Christmas"}]}
 */
import { z } from "zod";

const TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A 24-hour time `HH:MM`. */
export const openingTimeSchema = z.string().regex(TIME, "must be a time HH:MM");

function isCalendarDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

const hours = {
  open: openingTimeSchema.nullable(),
  close: openingTimeSchema.nullable(),
};
const bothOrNeither = (h: { open: string | null; close: string | null }) => (h.open === null) === (h.close === null);
const BOTH_OR_NEITHER = { error: "open and close are both times, or both null (closed)" };

/** Hours of one weekday. */
export const dayHoursSchema = z.strictObject(hours).refine(bothOrNeither, BOTH_OR_NEITHER);

/** Hours of one special date (holiday, event). */
export const specialHoursSchema = z
  .strictObject({
    date: z.string().refine(isCalendarDate, "must be a date YYYY-MM-DD"),
    ...hours,
    reason: z.string().max(255).nullable(),
  })
  .refine(bothOrNeither, BOTH_OR_NEITHER);

/** The parsed `opening_times` object. */
export const openingTimesSchema = z.strictObject({
  monday: dayHoursSchema.optional(),
  tuesday: dayHoursSchema.optional(),
  wednesday: dayHoursSchema.optional(),
  thursday: dayHoursSchema.optional(),
  friday: dayHoursSchema.optional(),
  saturday: dayHoursSchema.optional(),
  sunday: dayHoursSchema.optional(),
  special_hours: z.array(specialHoursSchema).optional(),
});
export type OpeningTimes = z.infer<typeof openingTimesSchema>;

/** Most characters of the `opening_times` text (spec, "Limits"). */
export const OPENING_TIMES_MAX = 2048;
