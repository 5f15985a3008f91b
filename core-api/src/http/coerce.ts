/**
 * Typed readers for request parameters. Each reader names the spec error to raise, so a call's
 * handler reads as its parameter table: `readInteger(p, "business_id", "business_id_invalid")`.
 *
 * Conventions: a parameter that is absent reads as `undefined`; for strings an empty value reads
 * as `null` (clears a nullable field); for numbers and booleans an empty value reads as absent.
 */
import type { ErrorName } from "@service/shared";
import type { ParamValue, Params } from "./params.ts";
import { ServiceError } from "./service-error.ts";

const TRUE = new Set(["true", "1", "yes", "on"]);
const FALSE = new Set(["false", "0", "no", "off"]);

function scalar(v: ParamValue | undefined): string | number | boolean | null | undefined {
  if (v === undefined || v === null) return v;
  if (typeof v === "object") return undefined;
  return v;
}

/** Whether the parameter is present with a non-empty value. */
export function isGiven(params: Params, key: string): boolean {
  const v = params[key];
  return v !== undefined && v !== null && !(typeof v === "string" && v.trim() === "");
}

/**
 * Reads a string parameter.
 * @param opts.max maximum length in characters; longer raises `opts.tooLong` (default 482 string_parameter_too_long)
 * @param opts.min minimum length; shorter raises `opts.invalid` (default 419 parameter_invalid)
 * @returns undefined when absent, null when empty, else the trimmed string
 */
export function readString(
  params: Params,
  key: string,
  opts: { max?: number; min?: number; tooLong?: ErrorName; invalid?: ErrorName } = {},
): string | null | undefined {
  const raw = params[key];
  if (raw === undefined) return undefined;
  if (raw === null) return null;
  if (typeof raw === "object") throw new ServiceError(opts.invalid ?? "parameter_invalid", `${key} must be a string.`);
  const s = String(raw).trim();
  if (s === "") return null;
  if (opts.max !== undefined && [...s].length > opts.max) {
    throw new ServiceError(opts.tooLong ?? "string_parameter_too_long", `${key} is longer than ${opts.max} characters.`);
  }
  if (opts.min !== undefined && [...s].length < opts.min) {
    throw new ServiceError(opts.invalid ?? "parameter_invalid", `${key} is shorter than ${opts.min} characters.`);
  }
  return s;
}

/**
 * Reads an integer parameter (decimal digits, optional sign).
 * @param error raised when present but not an integer (for example business_id_invalid)
 */
export function readInteger(params: Params, key: string, error: ErrorName = "parameter_invalid"): number | undefined {
  const v = scalar(params[key]);
  if (v === undefined || v === null || v === "") return undefined;
  const s = typeof v === "number" ? String(v) : typeof v === "string" ? v.trim() : "x";
  if (!/^[+-]?\d{1,15}$/.test(s)) throw new ServiceError(error, `${key} must be an integer.`);
  const n = Number(s);
  if (!Number.isSafeInteger(n)) throw new ServiceError(error, `${key} must be an integer.`);
  return n;
}

/**
 * Reads a decimal number parameter.
 * @param error raised when present but not a finite decimal number
 */
export function readFloat(params: Params, key: string, error: ErrorName = "parameter_invalid"): number | undefined {
  const v = scalar(params[key]);
  if (v === undefined || v === null || v === "") return undefined;
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw new ServiceError(error, `${key} must be a decimal number.`);
    return v;
  }
  const s = typeof v === "string" ? v.trim() : "";
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) throw new ServiceError(error, `${key} must be a decimal number.`);
  return Number(s);
}

/**
 * Reads a boolean parameter: true/false, 1/0, yes/no, on/off (any case), or a JSON boolean.
 * @param error raised for any other value (default 316 parameter_supplied_not_boolean)
 */
export function readBoolean(
  params: Params,
  key: string,
  error: ErrorName = "parameter_supplied_not_boolean",
): boolean | undefined {
  const v = scalar(params[key]);
  if (v === undefined || v === null || v === "") return undefined;
  if (typeof v === "boolean") return v;
  const s = String(v).trim().toLowerCase();
  if (TRUE.has(s)) return true;
  if (FALSE.has(s)) return false;
  throw new ServiceError(error, `${key} must be a boolean (true or false).`);
}
