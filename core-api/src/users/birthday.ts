/**
 * A user's birthday as add-user and alter-user take it (spec, "Internal call: add-user":
 * `birthday`, `birthday_field_format`): an ISO 8601 date (`YYYY-MM-DD`), or its extended form with
 * a time and an offset, which is converted to UTC first (`1990-05-06T23:30:00-02:00` is
 * 1990-05-07); any other form needs `birthday_field_format` (`DD-MM-YYYY`, `D-M-YYYY`,
 * `DD/MM/YYYY`, `D/M/YYYY`). The date must exist in the calendar, lie in years 1000-9999 and not
 * after `today`. Pure.
 */
import type { BirthdayFieldFormat } from "@service/shared/internal/user-params";
import { ServiceError } from "../http/service-error.ts";

const ISO_DATE = /^(\d{4})-(\d\d)-(\d\d)$/;
/** A date-time with a zone; without one the date part is the birthday. */
const ISO_DATE_TIME = /^(\d{4})-(\d\d)-(\d\d)[Tt ](\d\d):(\d\d)(?::(\d\d)(?:\.\d+)?)?([Zz]|[+-]\d\d:?\d\d)?$/;

/** Each field format as a pattern capturing day, month, year. */
const FIELD_FORMATS: Record<BirthdayFieldFormat, RegExp> = {
  "DD-MM-YYYY": /^(\d\d)-(\d\d)-(\d{4})$/,
  "D-M-YYYY": /^(\d{1,2})-(\d{1,2})-(\d{4})$/,
  "DD/MM/YYYY": /^(\d\d)\/(\d\d)\/(\d{4})$/,
  "D/M/YYYY": /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/,
};

/**
 * Reads a birthday.
 * @param text the trimmed `birthday`
 * @param format `birthday_field_format`, when given
 * @param today the request's clock (a birthday after its UTC date is refused)
 * @returns `YYYY-MM-DD`
 * @throws ServiceError parameter_invalid (419) for text of neither form, a form other than the
 *   format given, an impossible date, or a date in the future
 * @example parseBirthday("6/5/1990", "D/M/YYYY", now) // "1990-05-06"
 */
export function parseBirthday(text: string, format: BirthdayFieldFormat | null | undefined, today: Date): string {
  const date = isoDate(text) ?? (format ? fieldFormatDate(text, format) : null);
  if (!date) {
    throw new ServiceError("parameter_invalid", format
      ? `birthday must be an ISO 8601 date or have the form ${format}.`
      : "birthday must be an ISO 8601 date (YYYY-MM-DD); other forms need birthday_field_format.");
  }
  const [y, m, d] = date;
  const at = new Date(Date.UTC(y, m - 1, d));
  if (y < 1000 || m < 1 || m > 12 || at.getUTCMonth() !== m - 1 || at.getUTCDate() !== d) {
    throw new ServiceError("parameter_invalid", "birthday is no date of the calendar.");
  }
  const iso = `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
  if (iso > today.toISOString().slice(0, 10)) throw new ServiceError("parameter_invalid", "birthday lies in the future.");
  return iso;
}

/** [year, month, day] of an ISO 8601 date or date-time (converted to UTC), or null. */
function isoDate(text: string): [number, number, number] | null {
  const plain = ISO_DATE.exec(text);
  if (plain) return [Number(plain[1]), Number(plain[2]), Number(plain[3])];
  const m = ISO_DATE_TIME.exec(text);
  if (!m) return null;
  const [y, mo, d, h, mi] = [1, 2, 3, 4, 5].map((i) => Number(m[i])) as [number, number, number, number, number];
  const zone = m[7];
  if (!zone || zone.toUpperCase() === "Z") return [y, mo, d];
  if (h > 23 || mi > 59) return null;
  const sign = zone.startsWith("-") ? -1 : 1;
  const digits = zone.slice(1).replace(":", "");
  const offsetMinutes = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)));
  // A day that does not exist must stay refused, so check it before Date.UTC rolls it over.
  const local = new Date(Date.UTC(y, mo - 1, d));
  if (local.getUTCMonth() !== mo - 1 || local.getUTCDate() !== d) return [y, mo, d];
  const utc = new Date(Date.UTC(y, mo - 1, d, h, mi) - offsetMinutes * 60_000);
  return [utc.getUTCFullYear(), utc.getUTCMonth() + 1, utc.getUTCDate()];
}

function fieldFormatDate(text: string, format: BirthdayFieldFormat): [number, number, number] | null {
  const m = FIELD_FORMATS[format].exec(text);
  return m ? [Number(m[3]), Number(m[2]), Number(m[1])] : null;
}
