/**
 * Zod schemas of the values an internal call accepts, as a client sends them: form bodies and
 * query strings carry text, JSON bodies carry typed values (spec, "Internal call: ..."). Clients
 * type their requests with the params schemas built from these; the core API reads the same
 * values with its coercing readers.
 */
import { z } from "zod";
import { isIsoCountryCode } from "../country-codes.ts";
import { SOCIAL_USERNAME, type TextFormat, type TextParamRule } from "./business-params.ts";
import { openingTimesSchema } from "./opening-times.ts";

/** A boolean: JSON true/false, or the text true/false, 1/0, yes/no, on/off (any case). */
export const booleanValue = z.union([
  z.boolean(),
  z.literal(0),
  z.literal(1),
  z.string().regex(/^\s*(?:true|false|1|0|yes|no|on|off)\s*$/i, "must be a boolean"),
]);

/** An integer: a JSON integer or decimal digits with an optional sign. */
export const integerValue = z.union([z.number().int(), z.string().regex(/^\s*[+-]?\d{1,15}\s*$/, "must be an integer")]);

/** A decimal number: a JSON number or decimal text (`52.37`, `-4.9`, `1e-3`). */
export const decimalValue = z.union([
  z.number(),
  z.string().regex(/^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/, "must be a decimal number"),
]);

const codePoints = (s: string) => [...s.trim()].length;

/** An http(s) URL with a host. */
export function isWebUrl(s: string): boolean {
  if (/\s/.test(s) || !URL.canParse(s)) return false;
  const url = new URL(s);
  return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.length > 0;
}

/**
 * Format checks of the text parameters, on the trimmed text. Postal codes (country-dependent) and
 * phone numbers (numbering plans) pass here; the core API checks them fully.
 */
export const TEXT_FORMAT_CHECKS: Readonly<Record<TextFormat, (s: string) => boolean>> = {
  email: (s) => z.email().safeParse(s).success,
  url: isWebUrl,
  username: (s) => SOCIAL_USERNAME.test(s),
  country: (s) => isIsoCountryCode(s.toUpperCase()),
  postalcode: () => true,
  phone: (s) => /^\+?[()\d\s./-]+$/.test(s),
  opening_times: (s) => {
    try {
      return openingTimesSchema.safeParse(JSON.parse(s)).success;
    } catch {
      return false;
    }
  },
};

/** A text under `rule`: within its length limits and of its format (checked on the trimmed text; "" passes). */
export function textOf(rule: TextParamRule) {
  const check = rule.format ? TEXT_FORMAT_CHECKS[rule.format] : () => true;
  return z
    .string()
    .refine((s) => s.trim() === "" || (codePoints(s) <= rule.max && codePoints(s) >= (rule.min ?? 0)), `at most ${rule.max} characters`)
    .refine((s) => s.trim() === "" || check(s.trim()), `must be a valid ${rule.format ?? "text"}`);
}

/** An optional text parameter under `rule`: an empty text or null clears a nullable field. */
export const textValue = (rule: TextParamRule) => textOf(rule).nullable();

/** `opening_times`: its JSON text, or (in a JSON body) the object itself. */
export const openingTimesValue = (rule: TextParamRule) => z.union([textOf(rule), openingTimesSchema]).nullable();
