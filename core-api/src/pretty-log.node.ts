/**
 * pino-pretty for people at a terminal (Node only: it asks the process about its stdout and
 * resolves a package from node_modules). Piped or redirected output stays JSON lines, one per
 * event, for log collectors.
 */
import { createRequire } from "node:module";
import type { LogOutput } from "./logger.ts";

const require = createRequire(import.meta.url);

/**
 * The pino transport that pretty-prints, when stdout is a terminal and pino-pretty is installed.
 * @param isTerminal whether stdout is a terminal; default `process.stdout.isTTY`
 * @returns undefined for JSON lines
 */
export function prettyWhenTerminal(isTerminal: boolean = process.stdout.isTTY === true): LogOutput["transport"] {
  if (!isTerminal) return undefined;
  try {
    require.resolve("pino-pretty");
  } catch {
    // Not installed (a production image without dev tools): JSON lines, as when piped.
    return undefined;
  }
  return { target: "pino-pretty", options: { colorize: true } };
}
