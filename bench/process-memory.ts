/**
 * Resident memory of process trees, read from /proc (Linux): the bench samples the services it
 * started (the process it spawned and every worker below it) while it loads them. On a system
 * without /proc every reading is empty and the memory table says so.
 */
import { readdirSync, readFileSync } from "node:fs";

/** The parent pid of `pid`, or null when the process is gone. */
function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // pid (comm) state ppid ...: comm may hold spaces and parentheses, so split after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[1]);
  } catch {
    return null;
  }
}

/**
 * The trees of `roots`: each root and all its descendants that are alive, root first, from one
 * scan of /proc (a root that is gone maps to an empty list; so does every root without /proc).
 */
export function processTrees(roots: readonly number[]): Map<number, number[]> {
  let pids: number[];
  try {
    pids = readdirSync("/proc").filter((n) => /^\d+$/.test(n)).map(Number);
  } catch {
    return new Map(roots.map((root) => [root, []]));
  }
  const children = new Map<number, number[]>();
  for (const pid of pids) {
    const parent = parentOf(pid);
    if (parent !== null) children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  const alive = new Set(pids);
  return new Map(roots.map((root) => {
    if (!alive.has(root)) return [root, []];
    const out: number[] = [];
    const queue = [root];
    while (queue.length > 0) {
      const pid = queue.shift()!;
      out.push(pid);
      queue.push(...(children.get(pid) ?? []));
    }
    return [root, out];
  }));
}

/**
 * `root` and all its descendants that are alive, root first.
 * @returns an empty list when /proc cannot be read or `root` is gone
 */
export function processTree(root: number): number[] {
  return processTrees([root]).get(root)!;
}

/** The command name of `pid` (/proc/<pid>/comm, e.g. "node", "esbuild"), or null when it is gone. */
function commandOf(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  } catch {
    return null;
  }
}

/**
 * The Node processes of the trees of `roots`, root first in each: the helpers a loader runs
 * beside them (tsx's esbuild service) are not workers of the service.
 */
export function nodeProcessTrees(roots: readonly number[]): Map<number, number[]> {
  const trees = processTrees(roots);
  return new Map([...trees].map(([root, tree]) => {
    const own = commandOf(root);
    return [root, tree.filter((pid) => pid === root || commandOf(pid) === own)];
  }));
}

/** Resident set size of `pid` in bytes (VmRSS), or null when the process is gone. */
export function rssBytes(pid: number): number | null {
  try {
    const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Memory of one process over the three phases of a measurement, in bytes (null: not seen). */
export interface ProcessMemory {
  pid: number;
  /** "primary" (the spawned process, when it has workers), "worker n", or "single process" */
  role: string;
  /** before any load (cold: no request path compiled yet) */
  idle: number | null;
  /** right after the warm-up: the process as serving every target left it, before the timed rounds */
  warm: number | null;
  peak: number | null;
  after: number | null;
}

/** Peak samples that reuse one scan of /proc at most (16: 4 s at the default interval). */
export const RESCAN_EVERY = 16;

/**
 * Samples the RSS of every process in the trees of `roots` (one tree per service) on an
 * interval. Call `idle()` before the load, `start()` as the load begins, `warm()` after the warm-up, `stop()` when it ends,
 * then `after()` once the services had time to settle.
 *
 * The trees are found by a scan of all of /proc, which costs tens of milliseconds of this
 * process's CPU on a VM (a file per process of the machine): the samples under load reuse the
 * trees of the last scan and read only those processes' status, so the sampler neither takes a
 * core's share from the load nor stalls the load driver's event loop. A scan runs again at every
 * reading outside the load, after a process of the trees was gone, and every RESCAN_EVERY peak
 * samples (a worker forked meanwhile is found within seconds).
 */
export class MemorySampler {
  private readonly byService = new Map<string, Map<number, ProcessMemory>>();
  private timer: NodeJS.Timeout | undefined;
  private readonly roots: Map<string, number>;
  private readonly scan: (roots: readonly number[]) => Map<number, number[]>;
  /** root pid -> its Node processes, as the last scan of /proc found them; null: scan again */
  private trees: Map<number, number[]> | null = null;
  /** peak samples since the last scan */
  private reused = 0;

  /**
   * @param roots service label -> pid the bench spawned
   * @param scan finds the trees of the roots (default nodeProcessTrees: one scan of /proc)
   */
  constructor(roots: Map<string, number>, scan: (roots: readonly number[]) => Map<number, number[]> = nodeProcessTrees) {
    this.roots = roots;
    this.scan = scan;
  }

  private read(phase: "idle" | "warm" | "peak" | "after"): void {
    if (phase !== "peak" || this.trees === null || ++this.reused >= RESCAN_EVERY) {
      this.trees = this.scan([...this.roots.values()]);
      this.reused = 0;
    }
    const trees = this.trees;
    for (const [service, root] of this.roots) {
      const tree = trees.get(root) ?? [];
      const known = this.byService.get(service) ?? new Map<number, ProcessMemory>();
      this.byService.set(service, known);
      tree.forEach((pid, i) => {
        const rss = rssBytes(pid);
        if (rss === null) {
          this.trees = null;
          return;
        }
        const role = pid === root ? (tree.length > 1 ? "primary" : "single process") : `worker ${i}`;
        const entry = known.get(pid) ?? { pid, role, idle: null, warm: null, peak: null, after: null };
        entry.role = role;
        if (phase === "peak") entry.peak = Math.max(entry.peak ?? 0, rss);
        else entry[phase] = rss;
        known.set(pid, entry);
      });
    }
  }

  /** Reads the idle RSS of every process (before any load). */
  idle(): void {
    this.read("idle");
  }

  /** Reads the RSS of every process after the warm-up (before the timed rounds). */
  warm(): void {
    this.read("warm");
  }

  /** Starts sampling the peak every `intervalMs` (default 250 ms). */
  start(intervalMs = 250): void {
    this.read("peak");
    this.timer = setInterval(() => this.read("peak"), intervalMs);
    this.timer.unref();
  }

  /** Stops sampling. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.read("peak");
  }

  /** Reads the RSS after the load. */
  after(): void {
    this.read("after");
  }

  /** The readings, per service label, processes in tree order. */
  results(): Map<string, ProcessMemory[]> {
    return new Map([...this.byService].map(([service, m]) => [service, [...m.values()]]));
  }
}
