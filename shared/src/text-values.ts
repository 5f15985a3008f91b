/**
 * Numbers, booleans and datetimes written as text: the one rule of both API families (the
 * internal calls and the Resources API) for reading a typed value from text.
 *
 * The rule (the text is trimmed first; case never matters):
 * - integer: an optional sign and decimal digits (`42`, `+7`, `-3`, `007`), within the safe
 *   integer range (|n| <= 2^53 - 1). No fraction, no exponent, no digit separators.
 * - decimal number: an optional sign, digits with an optional fraction (`52.37`, `-4.`, `.5`) and
 *   an optional exponent (`1e-3`); the value must be finite (`1e309` is refused).
 * - boolean: `true` / `false`, `1` / `0`, `yes` / `no`, `on` / `off` (what HTML forms and older
 *   clients send).
 * - datetime: RFC 3339 with a zone (`2026-11-21T10:00:00Z`, `2026-11-21T11:00:00+01:00`, optional
 *   fraction, `t` / `z` in either case) or `YYYY-MM-DD HH:MM:SS` read as UTC (the two forms the API
 *   writes); a real calendar day and time (no 24:00, no leap second), within years 1000-9999 UTC
 *   (what a MySQL DATETIME stores).
 * - an empty text is no value: each family says what "no value" means for a parameter.
 *
 * Where text is read: every form, multipart and query-string value is text. In a JSON body the
 * internal calls also read a JSON string as text (their older clients send every value quoted),
 * while the Resources API, whose schema document types every property, takes JSON values as they
 * are. A value that is neither of the parameter's type nor text of it is refused with the
 * parameter's error.
 *
 * @example parseBooleanText(" Yes ") // true
 * @example parseDecimalText("1e309") // undefined
 */

/** Decimal number text: sign, digits, optional fraction, optional exponent. */
export const DECIMAL_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
/** Integer text: sign and digits. */
export const INTEGER_TEXT = /^[+-]?\d+$/;

const TRUE = new Set(["true", "1", "yes", "on"]);
const FALSE = new Set(["false", "0", "no", "off"]);

/**
 * Reads integer text.
 * @returns the integer, or undefined when the text is no integer or lies outside the safe range
 * @example parseIntegerText(" -12 ") // -12
 */
export function parseIntegerText(text: string): number | undefined {
  const s = text.trim();
  if (!INTEGER_TEXT.test(s)) return undefined;
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * Reads decimal number text.
 * @returns the number, or undefined when the text is no decimal number or its value is not finite
 * @example parseDecimalText("52.37") // 52.37
 */
export function parseDecimalText(text: string): number | undefined {
  const s = text.trim();
  if (!DECIMAL_TEXT.test(s)) return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * Reads boolean text.
 * @returns the boolean, or undefined for any other text
 * @example parseBooleanText("off") // false
 */
export function parseBooleanText(text: string): boolean | undefined {
  const s = text.trim().toLowerCase();
  if (TRUE.has(s)) return true;
  if (FALSE.has(s)) return false;
  return undefined;
}

const RFC3339 = /^(\d{4})-(\d\d)-(\d\d)[Tt](\d\d):(\d\d):(\d\d)(\.\d{1,9})?([Zz]|[+-]\d\d:\d\d)$/;
const SQL_DATETIME = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)$/;
/** The DATETIME range of MySQL / MariaDB, in ms since the epoch. */
const EARLIEST = Date.UTC(1000, 0, 1);
const LATEST = Date.UTC(10000, 0, 1) - 1;

/**
 * Reads datetime text (see the module comment for the two forms).
 * @returns the instant, with its milliseconds; null when the text is neither form, names an
 *   impossible date or time, or lies outside years 1000-9999 UTC
 * @example parseDateTime("2026-11-21 10:00:00") // 2026-11-21T10:00:00.000Z
 */
export function parseDateTime(text: string): Date | null {
  const s = text.trim();
  const m = RFC3339.exec(s) ?? SQL_DATETIME.exec(s);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (year < 1000 || month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  if (day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  const ms = m[7] ? Number(m[7].slice(1, 4).padEnd(3, "0")) : 0;
  const zone = m[8];
  let offsetMinutes = 0;
  if (zone !== undefined && zone.toUpperCase() !== "Z") {
    const [h, mm] = zone.slice(1).split(":").map(Number) as [number, number];
    if (h > 23 || mm > 59) return null;
    offsetMinutes = (zone.startsWith("-") ? -1 : 1) * (h * 60 + mm);
  }
  const at = Date.UTC(year, month - 1, day, hour, minute, second, ms) - offsetMinutes * 60_000;
  return at < EARLIEST || at > LATEST ? null : new Date(at);
}

/** The JSON types text can be read as. */
export type TextKind = "integer" | "number" | "boolean";

/**
 * Reads `text` as a value of `kind` by the rule above.
 * @returns the typed value, or undefined when the text is not of that kind
 */
export function parseText(kind: TextKind, text: string): number | boolean | undefined {
  if (kind === "integer") return parseIntegerText(text);
  if (kind === "number") return parseDecimalText(text);
  return parseBooleanText(text);
}
