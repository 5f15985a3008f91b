import { z } from "zod";
import { ERRORS, type ErrorName } from "./errors.ts";

/**
 * Result wrapper of the Resources API and the internal calls (spec, "What the service does").
 * Success: `{"result":{"code":1,"status":"ok"},"results":{...}}`.
 */
export const successEnvelope = <T extends z.ZodType>(results: T) =>
  z.object({
    result: z.object({ code: z.literal(1), status: z.literal("ok") }),
    results,
  });

/**
 * Error body (handbook, "Decisions the spec leaves open"):
 * `{"result":{"code":<int>,"status":"error"},"error":{"code":<int>,"name":"<name>","description":"<text>"}}`.
 */
export const errorEnvelope = z.object({
  result: z.object({ code: z.number().int(), status: z.literal("error") }),
  error: z.object({
    code: z.number().int(),
    name: z.string(),
    description: z.string(),
  }),
});

export type ErrorEnvelope = z.infer<typeof errorEnvelope>;

/** Builds the success body around `results`. */
export function okBody<T>(results: T): { result: { code: 1; status: "ok" }; results: T } {
  return { result: { code: 1, status: "ok" }, results };
}

/**
 * Builds the error body for a catalogue error.
 * @param name error name of the catalogue (spec "Errors")
 * @param description overrides the catalogue's default description
 */
export function errorBody(name: ErrorName, description?: string): ErrorEnvelope {
  const def = ERRORS[name];
  return {
    result: { code: def.code, status: "error" },
    error: { code: def.code, name, description: description ?? def.description },
  };
}
