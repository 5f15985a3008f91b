/**
 * The operator scripts' command-line reader (scripts/lib/command-line.ts): help wins over
 * anything else on the line, in either spelling, up to a `--`; a bad line is one sentence.
 * script-help.test.ts runs each script's real entry with --help.
 */
import { describe, expect, it } from "vitest";
import { readCommandLine, wantsHelp } from "../scripts/lib/command-line.ts";

const OPTIONS = { service: { type: "string" as const, default: "all" }, quiet: { type: "boolean" as const } };

describe("wantsHelp", () => {
  it("is -h or --help anywhere before a --", () => {
    expect(wantsHelp(["-h"])).toBe(true);
    expect(wantsHelp(["--help"])).toBe(true);
    expect(wantsHelp(["--service", "connector", "-h"])).toBe(true);
    expect(wantsHelp(["--bogus", "--help"])).toBe(true);
    expect(wantsHelp(["--", "-h"])).toBe(false);
    expect(wantsHelp(["--service", "-help"])).toBe(false);
    expect(wantsHelp([])).toBe(false);
  });
});

describe("readCommandLine", () => {
  it("answers help for -h and --help, even on an otherwise bad line", () => {
    expect(readCommandLine(OPTIONS, ["-h"])).toEqual({ help: true });
    expect(readCommandLine(OPTIONS, ["--bogus", "--help"])).toEqual({ help: true });
  });

  it("reads the flags, with their defaults", () => {
    expect(readCommandLine(OPTIONS, ["--quiet"])).toMatchObject({ help: false, values: { service: "all", quiet: true }, positionals: [] });
    expect(readCommandLine(OPTIONS, ["--service", "connector"])).toMatchObject({ help: false, values: { service: "connector" } });
  });

  it("says what is wrong with a bad line in one sentence pointing at --help", () => {
    expect(readCommandLine(OPTIONS, ["--bogus"])).toEqual({ help: false, error: "Unknown option '--bogus' (see --help)" });
    const positional = readCommandLine(OPTIONS, ["extra"]);
    expect(positional.help).toBe(false);
    expect((positional as { error?: string }).error).toMatch(/extra.*\(see --help\)$/);
  });
});
