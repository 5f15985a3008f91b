/**
 * Command lines of the operator scripts (start, migrate, admin): node:util parseArgs in strict
 * mode, plus `-h` / `--help`, which prints the usage and exits 0 before the script does anything
 * (no database is touched, no file written), whatever else the command line holds. A malformed
 * command line is one line on stderr and exit status 2.
 */
import { parseArgs } from "node:util";

type Options = Record<string, { type: "string" | "boolean"; short?: string; multiple?: boolean; default?: string | boolean }>;

/** Whether `argv` asks for help (`-h` or `--help` before any `--` end of options). */
export function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => a === "--help" || a === "-h");
}

/**
 * Prints `usage` and exits 0 when `argv` asks for help; returns otherwise (for scripts that read
 * their flags with lib/options.ts).
 */
export function exitOnHelp(usage: string, argv: readonly string[] = process.argv.slice(2)): void {
  if (!wantsHelp(argv)) return;
  console.log(usage);
  process.exit(0);
}

/** What a command line asks for: help, or the parsed flags, or nothing (a malformed line, said in `error`). */
export type CommandLine<O extends Options> =
  | { help: true }
  | { help: false; error: string }
  | { help: false; error?: undefined; values: ReturnType<typeof parseArgs<{ options: O; allowPositionals: boolean; strict: true }>>["values"]; positionals: string[] };

/**
 * Reads `argv` against `options` without printing or exiting: for a script that runs in-process
 * (scripts/admin/cli.ts).
 * @returns `{ help: true }` when it asks for help; `{ error }` (the line to print, exit status 2)
 *   when it is malformed; else parseArgs' `values` and `positionals`
 */
export function readCommandLine<O extends Options>(options: O, argv: string[], allowPositionals = false): CommandLine<O> {
  if (wantsHelp(argv)) return { help: true };
  try {
    const { values, positionals } = parseArgs({ args: argv, options, strict: true, allowPositionals });
    return { help: false, values, positionals } as CommandLine<O>;
  } catch (err) {
    return { help: false, error: `${(err as Error).message} (see --help)` };
  }
}

/**
 * Parses `argv` against `options`, after handling --help.
 * @param usage printed for --help (stdout, exit 0)
 * @param options parseArgs options
 * @param argv default `process.argv.slice(2)`
 * @param allowPositionals whether positional arguments (a subcommand) are accepted
 * @returns the command line read (readCommandLine's `{ help: false, values, positionals }`); never
 *   returns for --help (usage on stdout, exit 0) or a bad command line (one line on stderr, exit 2)
 */
export function parseCommandLine<O extends Options>(
  usage: string,
  options: O,
  argv: string[] = process.argv.slice(2),
  allowPositionals = false,
) {
  const line = readCommandLine(options, argv, allowPositionals);
  if (line.help) {
    console.log(usage);
    process.exit(0);
  }
  if (line.error !== undefined) {
    console.error(line.error);
    process.exit(2);
  }
  return line;
}
