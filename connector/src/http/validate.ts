/**
 * Request validation with the shared zod contracts: the first problem becomes a Magento-style
 * 400 (spec, "Errors": HTTP 400 with `{message}` for validation failures).
 */
import type { z } from "zod";
import { badRequest, requiredField, type ConnectorError } from "./errors.ts";

/** Dotted path of a zod issue (`user_info.username`). */
function pathOf(issue: z.core.$ZodIssue, prefix: string): string {
  return [prefix, ...issue.path.map(String)].filter(Boolean).join(".");
}

/** Turns the first zod issue into a ConnectorError. */
export function validationError(error: z.ZodError, prefix = ""): ConnectorError {
  const issue = error.issues[0]!;
  const fieldName = pathOf(issue, prefix) || "body";
  if (issue.code === "invalid_type" && issue.input === undefined) return requiredField(fieldName);
  return badRequest('Invalid value for "%fieldName": %reason', { fieldName, reason: issue.message });
}

/**
 * Parses `input` with `schema`.
 * @param prefix prepended to field names in messages (e.g. a path parameter's name)
 * @throws ConnectorError 400 naming the first invalid field
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, prefix = ""): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw validationError(result.error, prefix);
  return result.data;
}
