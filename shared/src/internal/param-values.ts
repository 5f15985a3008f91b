/**
 * Zod schemas of the value types the internal calls' parameters share: text with a maximum in
 * characters, text of a format, datetimes. Each is the schema of the JSON value; form and query
 * text reaches it through the one text rule (`../text-values.ts`).
 *
 * Text is trimmed before it is checked, and its length counts characters (Unicode code points,
 * as JSON Schema's maxLength does and as the database columns store them). A failed check names
 * the refusal it is (`params.refusal`: length or format) so the reader can answer with the
 * parameter's error for it (call.ts).
 */
import { z } from "zod";
import { isIsoCountryCode } from "../country-codes.ts";
import { parseDateTime } from "../text-values.ts";
import { openingTimesSchema, OPENING_TIMES_MAX } from "./opening-times.ts";

const codePoints = (s: string) => [...s].length;
const LENGTH = { params: { refusal: "length" } } as const;
const FORMAT = { params: { refusal: "format" } } as const;

/**
 * Text of at most `max` characters once trimmed; an empty text passes (see `text` for one that
 * must not be empty).
 * @param min fewest characters of a non-empty text
 */
export function chars(max: number, min = 0) {
  const schema = z
    .string()
    .trim()
    .refine((s) => codePoints(s) <= max && (s === "" || codePoints(s) >= min), {
      ...LENGTH,
      message: min > 0 ? `must have ${min === max ? min : `${min} to ${max}`} characters` : `at most ${max} characters`,
    });
  return schema.meta(min > 0 ? { maxLength: max, minLength: min } : { maxLength: max });
}

/** Text of 1 to `max` characters once trimmed (an empty value is refused as the wrong format). */
export function text(max: number, min = 1) {
  return chars(max, min).refine((s) => s !== "", { ...FORMAT, message: "cannot be empty" });
}

/** An http(s) URL with a host. */
export function isWebUrl(s: string): boolean {
  if (/\s/.test(s) || !URL.canParse(s)) return false;
  const url = new URL(s);
  return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.length > 0;
}

/** Social network username (`socialnetwork_c_username`): 1-15 letters, digits or `_`, no leading @. */
export const SOCIAL_USERNAME = /^[A-Za-z0-9_]{1,15}$/;
/** Characters of a phone or fax number; its validity in a numbering plan is checked by the core API. */
export const PHONE_TEXT = /^\+?[()\d\s./-]+$/;

/** The text formats parameters check, with the JSON Schema `format` or `pattern` the document shows. */
const FORMATS = {
  email: { test: (s: string) => z.email().safeParse(s).success, meta: { format: "email" } },
  url: { test: isWebUrl, meta: { format: "uri" } },
  username: { test: (s: string) => SOCIAL_USERNAME.test(s), meta: { pattern: SOCIAL_USERNAME.source } },
  phone: { test: (s: string) => PHONE_TEXT.test(s), meta: { pattern: PHONE_TEXT.source } },
  country: { test: (s: string) => isIsoCountryCode(s), meta: { description: "ISO 3166-1 alpha-2 country code (any case)" } },
} as const;
export type TextFormat = keyof typeof FORMATS;

/** `schema` (trimmed text) that must also have `format` when not empty. */
export function formatted<T extends z.ZodString>(schema: T, format: TextFormat) {
  const f = FORMATS[format];
  return schema.refine((s) => s === "" || f.test(s), { ...FORMAT, message: `must be a valid ${format}` }).meta(f.meta);
}

/** A two-letter country code, upper-cased: 2 characters (length) and an ISO 3166-1 alpha-2 code (format). */
export function countryCode() {
  return formatted(z.string().trim().toUpperCase().refine((s) => s === "" || codePoints(s) === 2, { ...LENGTH, message: "must have 2 characters" }), "country");
}

/**
 * A datetime parameter: RFC 3339 with a zone, or `YYYY-MM-DD HH:MM:SS` read as UTC (the rule of
 * `parseDateTime`); the value is the trimmed text.
 */
export function dateTimeText() {
  return z
    .string()
    .trim()
    .refine((s) => parseDateTime(s) !== null, { ...FORMAT, message: "must be RFC 3339 (2026-11-21T10:00:00Z) or YYYY-MM-DD HH:MM:SS (UTC)" })
    .meta({ format: "date-time" });
}

function isOpeningTimesText(s: string): boolean {
  try {
    return openingTimesSchema.safeParse(JSON.parse(s)).success;
  } catch {
    return false;
  }
}

/**
 * `opening_times`: its JSON text (at most 2048 characters), or in a JSON body the object itself;
 * either way the value is the JSON text (an object becomes `JSON.stringify` of it).
 */
export function openingTimesValue() {
  const asText = chars(OPENING_TIMES_MAX).refine((s) => s === "" || isOpeningTimesText(s), { ...FORMAT, message: "must be opening times JSON" });
  // The text branch's maximum is checked after the union (so too long stays 482); the meta only shows it.
  const textBranch = z.string().meta({ maxLength: OPENING_TIMES_MAX, description: "the opening times as JSON text" });
  return z.union([textBranch, openingTimesSchema.transform((o) => JSON.stringify(o))]).pipe(asText);
}

/** A datetime as the internal calls render it for the request's API version (RFC 3339 UTC from 1.6.8, `YYYY-MM-DD HH:MM:SS` before). */
export const responseDateTime = z.string().regex(/^\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\dZ?$/, "must be a datetime");
