/**
 * The contract between `npm run bench` (bench/run.ts) and its sections. A section is one
 * measurement (latency, scaling, throughput ...) registered in run.ts's SECTIONS list; `--only`
 * picks sections by name, `--help` lists them with their own flags. A section gets a
 * BenchContext (services started on the bench databases, the bench chains, a direct database
 * connection, the settings) and returns the Markdown block run.ts writes into bench/RESULTS.md.
 *
 * @example a new section in its own module, registered with one line in run.ts:
 *   export const mySection: BenchSection = {
 *     name: "my-thing",
 *     summary: "what it measures, one line",
 *     async run(ctx) {
 *       const core = await ctx.core();
 *       const chain = await ctx.benchChain(ctx.settings.count);
 *       // ... measure against core.url with chain.headers ...
 *       return { title: "My thing", markdown: "| ... |", targets: [{ label: "x below 5 ms", met: true, detail: "3.1 ms" }] };
 *     },
 *   };
 */
import type { CoreDb } from "../core-api/src/db/client.ts";
import type { Flags } from "../scripts/lib/options.ts";
import type { Machine } from "./machine.ts";
import type { ServiceVariant } from "./services.ts";

/** The settings every section shares, read once from the command line by run.ts. */
export interface BenchSettings {
  /** MySQL / MariaDB server of the bench databases (DATABASE_URL) */
  databaseUrl: string;
  /** the bench's core database (created and migrated when missing) */
  coreDb: string;
  /** the bench's webshop (connector) database */
  webshopDb: string;
  /** stores in the big data set (--count) */
  count: number;
  /** store counts of the scaling section, ascending (--scaling) */
  scalingCounts: number[];
  /** --quick: a short check of every code path, figures not meant for the record */
  quick: boolean;
  /** seconds per throughput target and round (--duration) */
  durationSeconds: number;
  /** interleaved throughput rounds (--rounds) */
  rounds: number;
  /** LOG_LEVEL of the services the bench starts (--log-level) */
  serviceLogLevel: string;
  /** wipe and reload the bench chains (--reload) */
  reload: boolean;
}

/** One measured target of a section, for the summary at the top of the results. */
export interface TargetCheck {
  /** what is required, e.g. "by-id read >= 0.5x Hono + mysql2 primary-key select" */
  label: string;
  met: boolean;
  /** the measured value(s), e.g. "0.31-0.35x" */
  detail: string;
}

/** What a section hands back: its block of bench/RESULTS.md. */
export interface SectionResult {
  /** heading of the block (run.ts writes `## <title>`) */
  title: string;
  /** the block's body, Markdown (run.ts adds the heading and the date / machine line) */
  markdown: string;
  /** targets with their outcome; listed in the block and printed at the end of the run */
  targets: TargetCheck[];
}

/** A core-api or connector process tree the bench started (bench/services.ts). */
export interface ServiceHandle {
  /** "core-api" or "connector" */
  service: "core-api" | "connector";
  /** WEB_CONCURRENCY passed to it; undefined: not set (the service's default) */
  workers: number | undefined;
  /** base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  /** pid of the process the bench spawned */
  pid: number;
  /** the process log (stdout and stderr), in bench/.cache/ */
  logPath: string;
}

/** A chain of the bench with `count` stores, and a logged-in admin who may read and write it. */
export interface BenchChain {
  chainId: number;
  name: string;
  count: number;
  /** one sentence on how the stores got there (loaded now, or reused) */
  load: string;
  /** admin session headers plus `X-Service-Chain-ID` of this chain */
  headers: Record<string, string>;
}

/** What a section can use; everything is started lazily and shared between sections. */
export interface BenchContext {
  settings: BenchSettings;
  /** the whole command line, for a section's own flags (declared in BenchSection.flags) */
  flags: Flags;
  machine: Machine;
  /** a direct connection (pool of 4) to the bench core database */
  db: CoreDb;
  /** the services' SERVICE_SECRET_KEY and the bearer token the connector accepts (kept in bench/.cache/) */
  secrets: { serviceSecretKey: string; integrationToken: string };
  /**
   * core-api as a child process on the bench core database (`npm start --service core-api`),
   * started on first use and stopped at the end of the run.
   * @param workers WEB_CONCURRENCY to pass (default: the machine's core count, the service's default)
   * @param variant a differently configured core-api next to the default one (e.g. GROUP_COMMIT=off,
   *   another DATABASE_URL), started once per name and worker count
   */
  core(workers?: number, variant?: ServiceVariant): Promise<ServiceHandle>;
  /** the connector as a child process on the bench webshop database; see `core` */
  connector(workers?: number): Promise<ServiceHandle>;
  /**
   * The bench chain with `count` stores ("Bench Chain" for 1,000,000, else "Bench Chain <count>"),
   * loaded once and reused while it holds that many stores (--reload forces a reload).
   */
  benchChain(count: number): Promise<BenchChain>;
  /**
   * Starts a helper process of the bench (`node <script>`, through tsx on Node 20; e.g. bench/floor-server.ts)
   * with `env` added to the environment and a free port of 127.0.0.1 in BENCH_PORT; resolves when
   * `readyPath` answers 200. Stopped at the end of the run like the services.
   */
  startProcess(name: string, script: string, env: Record<string, string>, readyPath: string): Promise<{ url: string; pid: number; logPath: string }>;
  /**
   * A chain named `name` for a section to write into: created when missing, its stores wiped
   * (once per run), the bench admin's rights and session headers as for benchChain.
   */
  emptyChain(name: string): Promise<BenchChain>;
  /** runs `make` once per key and run; later calls get the same promise */
  memo<T>(key: string, make: () => Promise<T>): Promise<T>;
}

/** One section of `npm run bench`. */
export interface BenchSection {
  /** name used by `--only`, lower-case with dashes */
  name: string;
  /** one line for `--help` */
  summary: string;
  /** the section's own flags for `--help`, one line each (`--name <x>   meaning`) */
  flags?: string[];
  run(ctx: BenchContext): Promise<SectionResult>;
}
