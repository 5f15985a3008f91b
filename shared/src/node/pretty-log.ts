/**
 * pino-pretty for people at a terminal, for both services' logs (Node only: it asks the process
 * about its stdout and resolves a package from node_modules). Piped or redirected output stays
 * JSON lines, one per event, for log collectors.
 */
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** A pino transport (pino's `transport` option), without importing pino here. */
export interface PrettyTransport {
  target: "pino-pretty";
  options: { colorize: boolean };
}

/**
 * The pino transport that pretty-prints, when stdout is a terminal and pino-pretty is installed.
 * @param isTerminal whether stdout is a terminal; default `process.stdout.isTTY`
 * @returns undefined for JSON lines
 */
export function prettyWhenTerminal(isTerminal: boolean = process.stdout.isTTY === true): PrettyTransport | undefined {
  if (!isTerminal) return undefined;
  try {
    require.resolve("pino-pretty");
  } catch {
    // Not installed (a production image without dev tools): JSON lines, as when piped.
    return undefined;
  }
  return { target: "pino-pretty", options: { colorize: true } };
}
