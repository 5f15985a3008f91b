/**
 * Where the CPU of a load goes, per request (a missed target comes with the
 * profile that explains it): the CPU time the database server, the service processes (every
 * process of their trees) and the bench process itself (the load driver, and the in-process floors)
 * spent while one target ran, read from /proc (Linux) before and after, divided by the operations
 * it completed. Everything runs on the same cores, so these add up to what one operation costs the
 * machine.
 *
 * The database server counts only where it runs on this machine (a `mariadbd` or `mysqld`
 * process); elsewhere, or without /proc, its column is empty. It is the one listening on the port
 * of the bench's DATABASE_URL, so a Galera node or the MySQL 8.4 server of the tests running
 * beside the shared server on 127.0.0.1:3306 is never taken for the one the bench talks to. Telling
 * which server holds the port reads the servers' open files (/proc/<pid>/fd: root, or the servers'
 * own user); otherwise only a machine's single database server is counted.
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { networkInterfaces } from "node:os";
import { processTrees } from "./process-memory.ts";

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;
const DATABASE_COMMANDS = new Set(["mariadbd", "mysqld"]);

/**
 * User + system CPU seconds of `pid` (its threads included), or of one of its threads; null when it
 * is gone.
 * @param thread a thread id of `pid` (its main thread: `pid` itself); omitted: the whole process
 */
export function cpuSeconds(pid: number, thread?: number): number | null {
  try {
    const stat = readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // fields[0] is the state (field 3): utime and stime are fields 14 and 15
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** Whether `pid` is a database server process. */
function isDatabaseServer(pid: number): boolean {
  try {
    return DATABASE_COMMANDS.has(readFileSync(`/proc/${pid}/comm`, "utf8").trim());
  } catch {
    return false;
  }
}

/** The port of `databaseUrl` when its host is this machine (a loopback or own address), else null. */
function localPort(databaseUrl: string): number | null {
  const url = new URL(databaseUrl);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const own = new Set(["localhost", "127.0.0.1", "::1"]);
  for (const addresses of Object.values(networkInterfaces())) for (const a of addresses ?? []) own.add(a.address);
  return own.has(host) ? Number(url.port || 3306) : null;
}

/** The inodes of the sockets listening on TCP `port`, IPv4 and IPv6 (/proc/net/tcp and tcp6). */
function listeningSockets(port: number): Set<string> {
  const inodes = new Set<string>();
  const hexPort = `:${port.toString(16).toUpperCase().padStart(4, "0")}`;
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = readFileSync(table, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      // sl, local_address (ADDR:PORT in hex), rem_address, st (0A: LISTEN), ..., inode (the tenth)
      const f = line.trim().split(/\s+/);
      if (f.length > 9 && f[1]!.endsWith(hexPort) && f[3] === "0A") inodes.add(f[9]!);
    }
  }
  return inodes;
}

/**
 * Whether one of `pid`'s open files is one of the sockets `inodes`; "unknown" when its open files
 * cannot be read (another user's process, for a bench not run as root).
 */
function holdsSocket(pid: number, inodes: Set<string>): boolean | "unknown" {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return "unknown";
  }
  return fds.some((fd) => {
    try {
      return inodes.has(/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1] ?? "");
    } catch {
      return false; // closed meanwhile
    }
  });
}

/**
 * The pid of the database server `databaseUrl` names, when it runs on this machine: the `mariadbd`
 * or `mysqld` process listening on the URL's port. Where the servers' open files cannot be read
 * (a bench not run as root), the only database server of the machine, if there is just one.
 * @param databaseUrl `mysql://user:pass@host:port` (port 3306 when left out)
 * @returns the pid, or null when the host is another machine, nothing local listens on the port,
 *   or /proc cannot tell
 */
export function databaseServerPid(databaseUrl: string): number | null {
  const port = localPort(databaseUrl);
  if (port === null) return null;
  const inodes = listeningSockets(port);
  if (inodes.size === 0) return null;
  let servers: number[];
  try {
    servers = readdirSync("/proc").filter((name) => /^\d+$/.test(name) && isDatabaseServer(Number(name))).map(Number);
  } catch {
    return null; // no /proc
  }
  const holds = servers.map((pid) => holdsSocket(pid, inodes));
  const found = holds.indexOf(true);
  if (found >= 0) return servers[found]!;
  return servers.length === 1 && holds[0] === "unknown" ? servers[0]! : null;
}

/** CPU seconds per group while one load ran (null: not measurable here). */
export interface CpuSpent {
  database: number | null;
  /** the service trees, by label (e.g. core-api, connector, floor server) */
  services: Map<string, number>;
  /**
   * the part of `services` spent on the main threads of the tree's processes (a Node process's
   * main thread runs its JavaScript; the rest is libuv's pool, such as the argon2id hashes, and V8's
   * helpers), by label
   */
  mainThreads: Map<string, number>;
  /** this process: the load driver and the floors that run in it */
  bench: number;
}

/** CPU seconds of a process: all its threads, and its main thread. */
interface ProcessSeconds {
  all: number;
  main: number;
}

/** The CPU seconds of every process of each tree of `roots` (label -> root pid), by label and pid. */
function treeSeconds(roots: Map<string, number>): Map<string, Map<number, ProcessSeconds>> {
  const trees = processTrees([...roots.values()]);
  return new Map([...roots].map(([label, root]) => [
    label,
    new Map(trees.get(root)!.map((pid) => [pid, { all: cpuSeconds(pid) ?? 0, main: cpuSeconds(pid, pid) ?? 0 }])),
  ]));
}

/**
 * Measures the CPU of the database server, the trees of `roots` and this process while `load` runs.
 * @param databaseUrl the server the load talks to (databaseServerPid finds its process)
 * @returns what `load` returned, and the CPU seconds each spent meanwhile
 */
export async function measureCpu<T>(databaseUrl: string, roots: Map<string, number>, load: () => Promise<T>): Promise<{ result: T; cpu: CpuSpent }> {
  const dbPid = databaseServerPid(databaseUrl);
  const dbBefore = dbPid === null ? null : cpuSeconds(dbPid);
  const before = treeSeconds(roots);
  const selfBefore = process.cpuUsage();
  const result = await load();
  const self = process.cpuUsage(selfBefore);
  const after = treeSeconds(roots);
  const dbAfter = dbPid === null ? null : cpuSeconds(dbPid);
  const services = new Map<string, number>();
  const mainThreads = new Map<string, number>();
  for (const [label, pids] of after) {
    // A process started meanwhile counts from its first reading (none): left out, as one that exited.
    let spent = 0;
    let onMain = 0;
    for (const [pid, seconds] of pids) {
      const was = before.get(label)?.get(pid) ?? seconds;
      spent += seconds.all - was.all;
      onMain += seconds.main - was.main;
    }
    services.set(label, spent);
    mainThreads.set(label, onMain);
  }
  return {
    result,
    cpu: { database: dbBefore === null || dbAfter === null ? null : dbAfter - dbBefore, services, mainThreads, bench: (self.user + self.system) / 1e6 },
  };
}

/** Quiet: the database server and the started services together spend at most this share of one core over QUIET_STEP_MS. */
export const QUIET_CORE_SHARE = 0.1;
/** The interval waitForQuiet judges, ms (/proc counts CPU in 10 ms ticks). */
export const QUIET_STEP_MS = 250;
/** The longest waitForQuiet waits by default, ms. */
export const QUIET_MAX_MS = 10_000;

/** The CPU seconds of each process of the trees of `roots`, by pid. */
function secondsByPid(roots: Map<string, number>): Map<number, number> {
  const byPid = new Map<number, number>();
  for (const pids of treeSeconds(roots).values()) for (const [pid, seconds] of pids) byPid.set(pid, seconds.all);
  return byPid;
}

/**
 * Waits until the database server of `databaseUrl` and every process of the trees of `roots` are
 * quiet: one interval of QUIET_STEP_MS in which together they spent at most QUIET_CORE_SHARE of one
 * core. A load driver's time can be up while requests are still being served (autocannon leaves
 * the ones in flight: 8 logins are 8 argon2 hashes, about a second of CPU), and the database may
 * still be writing back a write load's pages; a target started then would share the machine with
 * that work and be charged its CPU. Gives up after `maxMs` (a machine that never gets quiet is
 * reported, not waited for). Only processes seen at both ends of an interval count in it, so one
 * that starts or exits meanwhile neither adds nor hides work.
 * @param databaseUrl the server the loads talk to (databaseServerPid finds its process; none found:
 *   it is not counted, and `databaseCounted` says so)
 * @param roots the started services and floors: label -> root pid (every process of each tree counts)
 * @param options.stepMs the interval judged, ms (default QUIET_STEP_MS)
 * @param options.maxMs the longest wait, ms (default QUIET_MAX_MS)
 * @returns the milliseconds waited, whether it got quiet within `maxMs`, and whether the database
 *   server was among what was counted
 */
export async function waitForQuiet(
  databaseUrl: string,
  roots: Map<string, number>,
  options: { stepMs?: number; maxMs?: number } = {},
): Promise<{ waitedMs: number; quiet: boolean; databaseCounted: boolean }> {
  const { stepMs = QUIET_STEP_MS, maxMs = QUIET_MAX_MS } = options;
  const dbPid = databaseServerPid(databaseUrl);
  const reading = () => {
    const byPid = secondsByPid(roots);
    const db = dbPid === null ? null : cpuSeconds(dbPid);
    if (dbPid !== null && db !== null) byPid.set(dbPid, db);
    return byPid;
  };
  const started = performance.now();
  let before = reading();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, stepMs));
    const now = reading();
    let spent = 0;
    for (const [pid, seconds] of now) {
      const was = before.get(pid);
      if (was !== undefined) spent += seconds - was;
    }
    const waitedMs = performance.now() - started;
    if (spent <= (QUIET_CORE_SHARE * stepMs) / 1000) return { waitedMs, quiet: true, databaseCounted: dbPid !== null };
    if (waitedMs >= maxMs) return { waitedMs, quiet: false, databaseCounted: dbPid !== null };
    before = now;
  }
}
