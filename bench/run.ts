/**
 * `npm run bench`: measures the product on this machine and writes bench/RESULTS.md.
 *
 * The bench starts what it measures: core-api and the connector as child processes (`npm start
 * --service ...`) on databases of its own (bench_core, bench_webshop by default, created and
 * migrated when missing), the floors it compares them with, and the data (a million stores,
 * loaded once and reused). Only the database server must be running.
 *
 * Sections run in the order of SECTIONS; `--only` picks some. Adding one: a module exporting a
 * BenchSection (bench/section.ts) and one line in SECTIONS.
 */
import os from "node:os";
import { fileURLToPath } from "node:url";
import { migrateCoreDatabase } from "../core-api/src/db/migrate.node.ts";
import { exitOnHelp } from "../scripts/lib/command-line.ts";
import { booleanOption, numberOption, parseFlags, stringOption, type Flags } from "../scripts/lib/options.ts";
import { createRunContext, type RunContext } from "./context.ts";
import { clusterSection } from "./cluster.ts";
import { eventLatencySection } from "./event-latency.ts";
import { latencySection } from "./latency.ts";
import { writeResultBlocks, type ResultBlock } from "./results-file.ts";
import { scalingSection } from "./scaling.ts";
import type { BenchSection, BenchSettings, TargetCheck } from "./section.ts";
import { syncReconcileSection } from "./sync-reconcile.ts";
import { throughputSection } from "./throughput.ts";

/** Every section, in the order they run and appear in bench/RESULTS.md. */
const SECTIONS: BenchSection[] = [latencySection, scalingSection, throughputSection, clusterSection, eventLatencySection, syncReconcileSection];

const RESULTS_PATH = fileURLToPath(new URL("./RESULTS.md", import.meta.url));
const QUICK_RESULTS_PATH = fileURLToPath(new URL("./.cache/RESULTS.quick.md", import.meta.url));
/** Exit status of a bad command line (nothing was started). */
const EXIT_USAGE = 2;

const GLOBAL_FLAGS = [
  "--only <a,b>           run only these sections (default: all, in the order listed below)",
  "--quick                a short check of everything: --count 10000 --scaling 2000,10000 --duration 1 and",
  "                       fewer runs; written to bench/.cache/RESULTS.quick.md, not bench/RESULTS.md",
  "--count <n>            stores in the big data set (default 1000000)",
  "--scaling <n,n>        store counts of the scaling section (default 100000,1000000)",
  "--duration <s>         seconds per throughput target and round (default 10)",
  "--rounds <n>           interleaved throughput rounds (default 3)",
  "--reload               wipe and load the bench chains again",
  "--log-level <level>    LOG_LEVEL of the started services (default info, as in production)",
  "--results <path>       where to write the results (default bench/RESULTS.md)",
  "--database-url <url>   the database server (DATABASE_URL, default mysql://root@127.0.0.1:3306)",
  "--core-db <name>       the bench's core database (default bench_core)",
  "--webshop-db <name>    the bench's webshop database (default bench_webshop)",
];

const USAGE = `Usage: npm run bench [-- options]

Starts core-api and the connector as child processes on databases of its own (created and migrated
when missing; only the database server must run), loads the stores once (reused while the count holds),
measures the sections below and writes bench/RESULTS.md (a block per section; --only keeps the others).

Sections:
${SECTIONS.map((s) => `  ${s.name.padEnd(20)} ${s.summary}`).join("\n")}

Options:
${GLOBAL_FLAGS.map((l) => `  ${l}`).join("\n")}
  -h, --help             print this text and exit; nothing is started, loaded or measured
${SECTIONS.filter((s) => s.flags?.length).map((s) => `\nOptions of ${s.name}:\n${s.flags!.map((l) => `  ${l}`).join("\n")}`).join("\n")}

The final figures: an idle machine, the InnoDB buffer pool sized for a million stores
(SET GLOBAL innodb_buffer_pool_size = 2147483648), then \`npm run bench\`: about 15 minutes once the
stores are loaded; the first run loads 1.1 million stores and builds the anchor first (about 8 minutes more).`;

/** The flag name of a usage line (`--only <a,b>   ...` -> `only`). */
const flagName = (line: string) => /^--([a-z0-9-]+)/.exec(line)?.[1];

/** Prints one line and exits with the usage status. */
function usageError(line: string): never {
  console.error(`${line} (see --help)`);
  process.exit(EXIT_USAGE);
}

/** A positive integer option. */
function positiveInt(flags: Flags, name: string, fallback: number): number {
  const n = numberOption(flags, name, null, fallback);
  if (!Number.isInteger(n) || n <= 0) usageError(`--${name} must be a positive whole number`);
  return n;
}

/** Reads and checks the command line. */
function readSettings(flags: Flags): { settings: BenchSettings; sections: BenchSection[]; resultsPath: string } {
  const known = new Set([...GLOBAL_FLAGS, ...SECTIONS.flatMap((s) => s.flags ?? [])].map(flagName).filter(Boolean));
  for (const name of flags.keys()) if (!known.has(name)) usageError(`Unknown option '--${name}'`);
  const quick = booleanOption(flags, "quick");
  if (flags.get("only") === true) usageError("--only needs section names, e.g. --only latency,scaling");
  const only = stringOption(flags, "only", null);
  const names = only ? only.split(",").map((n) => n.trim()).filter(Boolean) : SECTIONS.map((s) => s.name);
  const unknown = names.filter((n) => !SECTIONS.some((s) => s.name === n));
  if (unknown.length) usageError(`--only: no section ${unknown.join(", ")}; sections: ${SECTIONS.map((s) => s.name).join(", ")}`);
  const count = positiveInt(flags, "count", quick ? 10_000 : 1_000_000);
  const scalingRaw = stringOption(flags, "scaling", null, quick ? "2000,10000" : "100000,1000000")!;
  const scalingCounts = scalingRaw.split(",").map((x) => Number(x.replace(/_/g, "")));
  if (scalingCounts.length < 2 || scalingCounts.some((n) => !Number.isInteger(n) || n <= 0)) {
    usageError("--scaling must list at least two store counts, e.g. 100000,1000000");
  }
  scalingCounts.sort((a, b) => a - b);
  const durationSeconds = numberOption(flags, "duration", null, quick ? 1 : 10);
  if (!(durationSeconds > 0)) usageError("--duration must be a positive number of seconds");
  const settings: BenchSettings = {
    databaseUrl: stringOption(flags, "database-url", "DATABASE_URL", "mysql://root@127.0.0.1:3306")!,
    coreDb: stringOption(flags, "core-db", null, "bench_core")!,
    webshopDb: stringOption(flags, "webshop-db", null, "bench_webshop")!,
    count,
    scalingCounts,
    quick,
    durationSeconds,
    rounds: positiveInt(flags, "rounds", 3),
    serviceLogLevel: stringOption(flags, "log-level", null, "info")!,
    reload: booleanOption(flags, "reload"),
  };
  for (const db of [settings.coreDb, settings.webshopDb]) if (!/^[A-Za-z0-9_]+$/.test(db)) usageError(`database name ${db}: letters, digits and _ only`);
  const resultsPath = stringOption(flags, "results", null, quick ? QUICK_RESULTS_PATH : RESULTS_PATH)!;
  return { settings, sections: SECTIONS.filter((s) => names.includes(s.name)), resultsPath };
}

/** The first lines of a section's block: when, where, how. */
function blockHeading(ctx: RunContext, title: string, started: Date, seconds: number, load: { start: number; end: number }, targets: TargetCheck[]): string {
  const m = ctx.machine;
  const argv = process.argv.slice(2).join(" ");
  const pool = m.bufferPoolMiB <= 128 ? `${m.bufferPoolMiB} MiB (the server default: smaller than a million stores, so reads go to disk)` : `${m.bufferPoolMiB} MiB`;
  const lines = [
    `## ${title}`,
    "",
    `Taken ${started.toISOString().slice(0, 16).replace("T", " ")} UTC in ${seconds.toFixed(0)} s with \`npm run bench${argv ? ` -- ${argv}` : ""}\`${ctx.settings.quick ? " (a quick check: the figures are not for the record)" : ""}.`,
    `Machine: ${m.cores} cores (${m.cpuModel}), ${m.memoryGiB} GiB, ${m.os}, Node ${m.node}, MariaDB/MySQL ${m.database}, InnoDB buffer pool ${pool}.`,
    `Load average (1 minute) at the start / end of the section: ${load.start} / ${load.end} on ${m.cores} cores.`,
  ];
  if (targets.length) {
    lines.push("", "Targets:", "", ...targets.map((t) => `- **${t.met ? "met" : "MISSED"}**: ${t.label}: ${t.detail}`));
  }
  return lines.join("\n");
}

async function main(): Promise<void> {
  exitOnHelp(USAGE);
  let flags: Flags;
  try {
    flags = parseFlags();
  } catch (err) {
    usageError((err as Error).message);
  }
  const { settings, sections, resultsPath } = readSettings(flags);

  await migrateCoreDatabase(settings.databaseUrl, settings.coreDb).catch((err: Error) => {
    const reason = (err.cause as Error | undefined)?.message ?? err.message;
    throw new Error(`cannot prepare database ${settings.coreDb} at ${settings.databaseUrl.replace(/:[^:@/]*@/, ":***@")}: ${reason}`);
  });
  const ctx = await createRunContext(settings, flags);
  const onSignal = (signal: string) => {
    console.error(`${signal}: stopping the started processes`);
    ctx.terminateNow();
    process.exit(130);
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  if (settings.count >= 1_000_000 && ctx.machine.bufferPoolMiB < 1024) {
    console.log(`note: the InnoDB buffer pool is ${ctx.machine.bufferPoolMiB} MiB: a million stores and their indexes do not fit; see --help`);
  }

  const blocks: ResultBlock[] = [];
  const allTargets: Array<TargetCheck & { section: string }> = [];
  try {
    for (const section of sections) {
      console.log(`\n=== ${section.name} ===`);
      const started = new Date();
      const loadStart = Math.round(os.loadavg()[0]! * 100) / 100;
      const result = await section.run(ctx);
      const seconds = (Date.now() - started.getTime()) / 1000;
      const load = { start: loadStart, end: Math.round(os.loadavg()[0]! * 100) / 100 };
      blocks.push({ name: section.name, markdown: `${blockHeading(ctx, result.title, started, seconds, load, result.targets)}\n\n${result.markdown}` });
      allTargets.push(...result.targets.map((t) => ({ ...t, section: section.name })));
      // Written after every section, so an interrupted run keeps what it measured.
      await writeResultBlocks(resultsPath, blocks, SECTIONS.map((s) => s.name));
    }
  } finally {
    await ctx.close();
  }
  console.log("\ntargets:");
  for (const t of allTargets) console.log(`  ${t.met ? "met   " : "MISSED"} ${t.section}: ${t.label}: ${t.detail}`);
  console.log(`\nwritten to ${resultsPath}`);
}

main().catch((err: unknown) => {
  console.error(`bench failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
