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

/**
 * Parses `argv` against `options`, after handling --help.
 * @param usage printed for --help (stdout, exit 0)
 * @param options parseArgs options
 * @param argv default `process.argv.slice(2)`
 * @param allowPositionals whether positional arguments (a subcommand) are accepted
 * @returns parseArgs' `values` and `positionals`; never returns for --help or a bad command line
 */
export function parseCommandLine<O extends Options>(
  usage: string,
  options: O,
  argv: string[] = process.argv.slice(2),
  allowPositionals = false,
) {
  exitOnHelp(usage, argv);
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals });
  } catch (err) {
    console.error(`${(err as Error).message} (see --help)`);
    process.exit(2);
  }
}
