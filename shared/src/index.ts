export * from "./errors.ts";
export * from "./envelope.ts";
