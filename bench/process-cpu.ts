/**
 * Where the CPU of a load goes, per request (a missed target comes with the
 * profile that explains it): the CPU time the database server, the service processes (every
 * process of their trees) and the bench process itself (the load driver, and the in-process floors)
 * spent while one target ran, read from /proc (Linux) before and after, divided by the operations
 * it completed. Everything runs on the same cores, so these add up to what one operation costs the
 * machine.
 *
 * The database server counts only where it runs on this machine (a `mariadbd` or `mysqld`
 * process); elsewhere, or without /proc, its column is empty. It is the server of the system's pid
 * file (/run/mysqld/mysqld.pid, the shared server on 127.0.0.1:3306) when that names one, so a
 * Galera node or the MySQL 8.4 server of the tests running beside it is not taken for it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { processTrees } from "./process-memory.ts";

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;
const DATABASE_COMMANDS = new Set(["mariadbd", "mysqld"]);

/** User + system CPU seconds of `pid` (its threads included), or null when it is gone. */
export function cpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // fields[0] is the state (field 3): utime and stime are fields 14 and 15
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** The system database server's pid file (Debian's; .ci/run starts the server with it). */
const SYSTEM_PID_FILE = "/run/mysqld/mysqld.pid";

/** Whether `pid` is a database server process. */
function isDatabaseServer(pid: number): boolean {
  try {
    return DATABASE_COMMANDS.has(readFileSync(`/proc/${pid}/comm`, "utf8").trim());
  } catch {
    return false;
  }
}

/** The pid of the database server running on this machine (the system's, else the first found), or null. */
export function databaseServerPid(): number | null {
  try {
    const pid = Number(readFileSync(SYSTEM_PID_FILE, "utf8").trim());
    if (Number.isInteger(pid) && pid > 0 && isDatabaseServer(pid)) return pid;
  } catch {
    // no pid file: look for one
  }
  try {
    for (const name of readdirSync("/proc")) {
      if (/^\d+$/.test(name) && isDatabaseServer(Number(name))) return Number(name);
    }
  } catch {
    // no /proc
  }
  return null;
}

/** CPU seconds per group while one load ran (null: not measurable here). */
export interface CpuSpent {
  database: number | null;
  /** the service trees, by label (e.g. core-api, connector, floor server) */
  services: Map<string, number>;
  /** this process: the load driver and the floors that run in it */
  bench: number;
}

/** The CPU seconds of every process of each tree of `roots` (label -> root pid), by label and pid. */
function treeSeconds(roots: Map<string, number>): Map<string, Map<number, number>> {
  const trees = processTrees([...roots.values()]);
  return new Map([...roots].map(([label, root]) => [label, new Map(trees.get(root)!.map((pid) => [pid, cpuSeconds(pid) ?? 0]))]));
}

/**
 * Measures the CPU of the database server, the trees of `roots` and this process while `load` runs.
 * @returns what `load` returned, and the CPU seconds each spent meanwhile
 */
export async function measureCpu<T>(roots: Map<string, number>, load: () => Promise<T>): Promise<{ result: T; cpu: CpuSpent }> {
  const dbPid = databaseServerPid();
  const dbBefore = dbPid === null ? null : cpuSeconds(dbPid);
  const before = treeSeconds(roots);
  const selfBefore = process.cpuUsage();
  const result = await load();
  const self = process.cpuUsage(selfBefore);
  const after = treeSeconds(roots);
  const dbAfter = dbPid === null ? null : cpuSeconds(dbPid);
  const services = new Map<string, number>();
  for (const [label, pids] of after) {
    // A process started meanwhile counts from its first reading (none): left out, as one that exited.
    let spent = 0;
    for (const [pid, seconds] of pids) spent += seconds - (before.get(label)?.get(pid) ?? seconds);
    services.set(label, spent);
  }
  return {
    result,
    cpu: { database: dbBefore === null || dbAfter === null ? null : dbAfter - dbBefore, services, bench: (self.user + self.system) / 1e6 },
  };
}
