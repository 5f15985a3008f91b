/**
 * Request validation with the shared zod contracts: the first problem becomes a Magento-style
 * 400 (spec, "Errors": HTTP 400 with `{message}` for validation failures). A field that is absent
 * is "required"; a field sent with a value of the wrong type says which type it must be.
 */
import type { z } from "zod";
import { badRequest, requiredField, type ConnectorError } from "./errors.ts";

/** Dotted path of a zod issue (`user_info.username`). */
function pathOf(issue: z.core.$ZodIssue, prefix: string): string {
  return [prefix, ...issue.path.map(String)].filter(Boolean).join(".");
}

/** The value at `path` in `input`; undefined when any step is missing. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** "a boolean", "an object": the type a wrong-typed field must have, in words. */
function typeInWords(expected: string): string {
  return `${/^[aeiou]/.test(expected) ? "an" : "a"} ${expected}`;
}

/**
 * Turns the first zod issue of parsing `input` into a ConnectorError: "%fieldName" is required
 * when the field is absent (zod 4 issues do not carry the input, so the input is looked at),
 * "must be a boolean" (the expected type) when it is present with another type, otherwise zod's
 * message as the reason.
 */
export function validationError(error: z.ZodError, prefix = "", input?: unknown): ConnectorError {
  const issue = error.issues[0]!;
  const fieldName = pathOf(issue, prefix) || "body";
  if (issue.code === "invalid_type") {
    if (valueAt(input, issue.path) === undefined) return requiredField(fieldName);
    return badRequest('Invalid value for "%fieldName": %reason', { fieldName, reason: `must be ${typeInWords(issue.expected)}` });
  }
  return badRequest('Invalid value for "%fieldName": %reason', { fieldName, reason: issue.message });
}

/**
 * Parses `input` with `schema`.
 * @param prefix prepended to field names in messages (e.g. a path parameter's name)
 * @throws ConnectorError 400 naming the first invalid field
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, prefix = ""): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw validationError(result.error, prefix, input);
  return result.data;
}
