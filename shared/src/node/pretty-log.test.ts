/** pino-pretty only for people at a terminal, and only when installed (pretty-log.ts). */
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { prettyWhenTerminal } from "./pretty-log.ts";

const installed = (() => {
  try {
    createRequire(import.meta.url).resolve("pino-pretty");
    return true;
  } catch {
    return false;
  }
})();

describe("prettyWhenTerminal", () => {
  it("keeps JSON lines when stdout is not a terminal", () => {
    expect(prettyWhenTerminal(false)).toBeUndefined();
  });

  it("pretty-prints on a terminal when pino-pretty is installed, JSON lines otherwise", () => {
    expect(prettyWhenTerminal(true)).toEqual(installed ? { target: "pino-pretty", options: { colorize: true } } : undefined);
  });
});
