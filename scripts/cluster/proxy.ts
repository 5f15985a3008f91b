/**
 * The two helper processes of the local cluster: the health checks (health-check.ts) and haproxy
 * (docker/galera/haproxy.cfg), each started in the background with a pid file of its own and
 * recognised by its command line, like the nodes (nodes.ts).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { HEALTH, NODES, PROXY, PROXY_PORT, PROXY_STATS_PORT, ROOT } from "./layout.ts";
import { sleep } from "./nodes.ts";

/** haproxy of Debian's package. */
export const HAPROXY = "/usr/sbin/haproxy";

/** The pid in `pidFile` when that process is alive and its command line contains `marker`. */
export function livePid(pidFile: string, marker: string): number | undefined {
  if (!existsSync(pidFile)) return undefined;
  const pid = Number(readFileSync(pidFile, "utf8").trim());
  if (!Number.isInteger(pid) || pid <= 1) return undefined;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(marker) ? pid : undefined;
  } catch {
    return undefined;
  }
}

const HEALTH_SCRIPT = path.join(ROOT, "scripts/cluster/health-check.ts");

/** The health checks' pid, when they run. */
export const healthPid = () => livePid(HEALTH.pidFile, HEALTH_SCRIPT);
/** haproxy's pid, when it runs with our configuration. */
export const proxyPid = () => livePid(PROXY.pidFile, PROXY.config);

/** Starts the health-check server unless it runs; resolves once every check port answers. */
export async function startHealthChecks(): Promise<void> {
  if (healthPid() === undefined) {
    const log = openSync(HEALTH.log, "a");
    // node itself with tsx's loader: the pid file then names the process that serves (the tsx
    // command would serve from a child of its own, which a kill of the pid would leave running)
    const child = spawn(process.execPath, ["--import", "tsx", HEALTH_SCRIPT], {
      cwd: ROOT, detached: true, stdio: ["ignore", log, log], env: { ...process.env, GALERA_CHECKS: "" },
    });
    child.unref();
    writeFileSync(HEALTH.pidFile, String(child.pid));
  }
  for (let i = 0; i < 60; i++) {
    const answers = await Promise.all(NODES.map((n) => fetch(`http://127.0.0.1:${n.checkPort}/`).then(() => true, () => false)));
    if (answers.every(Boolean)) return;
    await sleep(250);
  }
  throw new Error(`the health checks did not answer; see ${HEALTH.log}`);
}

/** The environment docker/galera/haproxy.cfg reads, for the local cluster. */
export function proxyEnvironment(): Record<string, string> {
  const env: Record<string, string> = {
    GALERA_PROXY_BIND: `127.0.0.1:${PROXY_PORT}`,
    GALERA_STATS_BIND: `127.0.0.1:${PROXY_STATS_PORT}`,
    GALERA_CHECK_HOST: "127.0.0.1",
  };
  for (const n of NODES) {
    env[`GALERA_NODE${n.index}`] = `127.0.0.1:${n.port}`;
    env[`GALERA_CHECK${n.index}`] = String(n.checkPort);
  }
  return env;
}

/** Starts haproxy unless it runs (it daemonises itself and writes its pid file). */
export function startProxy(): void {
  if (proxyPid() !== undefined) return;
  rmSync(PROXY.pidFile, { force: true });
  const result = spawnSync(HAPROXY, ["-D", "-p", PROXY.pidFile, "-f", PROXY.config], {
    env: { ...process.env, ...proxyEnvironment() }, encoding: "utf8", timeout: 30_000,
  });
  if (result.status !== 0) throw new Error(`haproxy did not start:\n${result.stdout}${result.stderr}`);
}

/** Stops a helper process by its pid file (SIGTERM, then SIGKILL after 10 s). */
export async function stopHelper(pid: number | undefined, pidFile: string): Promise<void> {
  if (pid !== undefined) {
    process.kill(pid, "SIGTERM");
    for (let i = 0; i < 40 && existsSync(`/proc/${pid}`); i++) await sleep(250);
    if (existsSync(`/proc/${pid}`)) process.kill(pid, "SIGKILL");
  }
  rmSync(pidFile, { force: true });
}

/** One server line of haproxy's statistics: its name, UP / DOWN, and whether it is a backup. */
export interface ProxyServer {
  name: string;
  status: string;
  backup: boolean;
  /** sessions open on it now */
  sessions: number;
}

/** haproxy's view of the nodes (its statistics CSV), or undefined when it does not answer. */
export async function proxyServers(): Promise<ProxyServer[] | undefined> {
  try {
    const res = await fetch(`http://127.0.0.1:${PROXY_STATS_PORT}/;csv`, { signal: AbortSignal.timeout(2_000) });
    const [header, ...rows] = (await res.text()).trim().split("\n").map((l) => l.split(","));
    const col = (name: string) => header!.indexOf(name === "pxname" ? "# pxname" : name);
    return rows
      .filter((r) => r[col("pxname")] === "galera" && !["FRONTEND", "BACKEND"].includes(r[col("svname")]!))
      .map((r) => ({ name: r[col("svname")]!, status: r[col("status")]!, backup: r[col("bck")] === "1", sessions: Number(r[col("scur")]) }));
  } catch {
    return undefined;
  }
}
