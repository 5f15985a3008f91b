/**
 * Starting, stopping and asking one Galera node of the local cluster (layout.ts). A node is known
 * by its pid file only, and a pid counts as the node's only while that process's command line names
 * the node's own option file: the shared server on 3306 (also a mariadbd) is never signalled.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, chownSync } from "node:fs";
import mysql from "mysql2/promise";
import { MARIADBD, NODE_USER, optionFile, type GaleraNode } from "./layout.ts";

/** What a node reports about itself (SHOW STATUS), or why it could not be asked. */
export interface NodeState {
  running: boolean;
  /** wsrep_local_state: 4 = synced, 1 = joining, 2 = donor, 3 = joined */
  localState?: number;
  /** wsrep_local_state_comment, for example "Synced" */
  stateComment?: string;
  ready?: boolean;
  clusterSize?: number;
  /** wsrep_cluster_status: Primary, or non-Primary when the node lost its quorum */
  clusterStatus?: string;
  error?: string;
}

/** The galera saved state of a stopped node (grastate.dat). */
export interface SavedState {
  uuid: string;
  seqno: number;
  safeToBootstrap: boolean;
}

/** The uid and gid of the node user. */
function nodeUser(): { uid: number; gid: number } {
  const id = (flag: string) => Number(spawnSync("id", [flag, NODE_USER], { encoding: "utf8" }).stdout.trim());
  return { uid: id("-u"), gid: id("-g") };
}

/** The node's pid when its process is alive and is this node's mariadbd, else undefined. */
export function nodePid(node: GaleraNode): number | undefined {
  if (!existsSync(node.pidFile)) return undefined;
  const pid = Number(readFileSync(node.pidFile, "utf8").trim());
  if (!Number.isInteger(pid) || pid <= 1) return undefined;
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    return cmdline.includes(node.optionFile) ? pid : undefined;
  } catch {
    return undefined; // no such process
  }
}

/** Creates the node's directory (owned by the node user) and writes its option file. */
export function prepareNode(node: GaleraNode): void {
  const { uid, gid } = nodeUser();
  mkdirSync(node.dataDir, { recursive: true });
  for (const dir of [node.dir, node.dataDir]) chownSync(dir, uid, gid);
  writeFileSync(node.optionFile, optionFile(node));
}

/** Removes the node's data (it gets a full copy from a donor, or a fresh system database, when next started). */
export function wipeNode(node: GaleraNode): void {
  rmSync(node.dataDir, { recursive: true, force: true });
  prepareNode(node);
}

/**
 * Creates the system tables of a first node (mariadb-install-db), with root@127.0.0.1 and
 * root@localhost without password ("normal" authentication), as the services connect.
 * @throws Error with the tool's output when it fails
 */
export function installSystemTables(node: GaleraNode): void {
  const result = spawnSync("mariadb-install-db", [
    `--defaults-file=${node.optionFile}`, "--auth-root-authentication-method=normal", "--skip-test-db",
    `--user=${NODE_USER}`, `--datadir=${node.dataDir}`,
  ], { encoding: "utf8", timeout: 120_000 });
  if (result.status !== 0) throw new Error(`mariadb-install-db for ${node.name} failed:\n${result.stdout}\n${result.stderr}`);
}

/**
 * Starts the node's mariadbd in the background (it switches to the node user itself, `user=` in
 * its option file). `bootstrap`: it forms a new cluster (--wsrep-new-cluster) instead of joining.
 * A joiner that crashed first recovers its last committed position from InnoDB and announces it
 * (as Debian's galera_recovery does), so that it catches up by incremental transfer rather than a
 * full copy.
 */
export function startNode(node: GaleraNode, bootstrap: boolean): void {
  const saved = bootstrap ? undefined : savedState(node);
  const recovered = saved && saved.seqno < 0 && /[1-9a-f]/.test(saved.uuid) ? recoveredSeqno(node) : -1;
  const args = [
    `--defaults-file=${node.optionFile}`,
    ...(bootstrap ? ["--wsrep-new-cluster"] : []),
    ...(recovered >= 0 ? [`--wsrep-start-position=${saved!.uuid}:${recovered}`] : []),
  ];
  const child = spawn(MARIADBD, args, { detached: true, stdio: "ignore" });
  child.unref();
}

/** Sends `signal` to the node's process and waits (at most `waitMs`) until it is gone. */
export async function signalNode(node: GaleraNode, signal: NodeJS.Signals, waitMs: number): Promise<boolean> {
  const pid = nodePid(node);
  if (pid === undefined) return true;
  process.kill(pid, signal);
  const until = Date.now() + waitMs;
  while (Date.now() < until) {
    if (nodePid(node) === undefined) return true;
    await sleep(200);
  }
  return nodePid(node) === undefined;
}

/** Stops the node cleanly (SIGTERM, up to 90 s), killing it only if it does not stop. */
export async function stopNode(node: GaleraNode): Promise<void> {
  if (await signalNode(node, "SIGTERM", 90_000)) return;
  await signalNode(node, "SIGKILL", 10_000);
}

/** Asks the node for its Galera state over TCP (root@127.0.0.1); never throws. */
export async function nodeState(node: GaleraNode): Promise<NodeState> {
  if (nodePid(node) === undefined) return { running: false };
  let conn: mysql.Connection | undefined;
  try {
    conn = await mysql.createConnection({ host: "127.0.0.1", port: node.port, user: "root", connectTimeout: 2_000 });
    const [rows] = await conn.query<mysql.RowDataPacket[]>("SHOW GLOBAL STATUS WHERE Variable_name IN ('wsrep_local_state', 'wsrep_local_state_comment', 'wsrep_ready', 'wsrep_cluster_size', 'wsrep_cluster_status')");
    const status = Object.fromEntries(rows.map((r) => [String(r.Variable_name), String(r.Value)]));
    return {
      running: true,
      localState: Number(status.wsrep_local_state),
      stateComment: status.wsrep_local_state_comment,
      ready: status.wsrep_ready === "ON",
      clusterSize: Number(status.wsrep_cluster_size),
      clusterStatus: status.wsrep_cluster_status,
    };
  } catch (err) {
    return { running: true, error: (err as Error).message };
  } finally {
    await conn?.end().catch(() => undefined);
  }
}

/** Whether the node is synced with a primary component and accepts statements. */
export function isSynced(state: NodeState): boolean {
  return state.localState === 4 && state.ready === true && state.clusterStatus === "Primary";
}

/**
 * Waits until the node is synced, at most `waitMs`.
 * @throws Error naming the node and the end of its error log when its process exits or time runs out
 */
export async function waitSynced(node: GaleraNode, waitMs: number): Promise<void> {
  const until = Date.now() + waitMs;
  let state: NodeState = { running: false };
  // A node just spawned writes its pid file within a second or two, but a joiner copied by rsync
  // writes it only once the state transfer is done: on a loaded machine that took over 15 s, and
  // the node was given up (and started again beside itself) while it was still receiving.
  const startGrace = Date.now() + 90_000;
  while (Date.now() < until) {
    state = await nodeState(node);
    if (isSynced(state)) return;
    if (!state.running && Date.now() > startGrace) break;
    await sleep(500);
  }
  throw new Error(`${node.name} did not become synced (${JSON.stringify(state)}); end of ${node.errorLog}:\n${logTail(node)}`);
}

/** The last lines of the node's error log. */
export function logTail(node: GaleraNode, lines = 15): string {
  return existsSync(node.errorLog) ? readFileSync(node.errorLog, "utf8").trimEnd().split("\n").slice(-lines).join("\n") : "(no log)";
}

/** The node's grastate.dat, or undefined when it has none (never started, or wiped). */
export function savedState(node: GaleraNode): SavedState | undefined {
  const file = `${node.dataDir}/grastate.dat`;
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, "utf8");
  const field = (name: string) => new RegExp(`^${name}:\\s*(\\S+)`, "m").exec(text)?.[1];
  return { uuid: field("uuid") ?? "", seqno: Number(field("seqno") ?? -1), safeToBootstrap: field("safe_to_bootstrap") === "1" };
}

/** Marks the node as the one to form the cluster from (after a crash no node is marked). */
export function markSafeToBootstrap(node: GaleraNode): void {
  const file = `${node.dataDir}/grastate.dat`;
  writeFileSync(file, readFileSync(file, "utf8").replace(/^safe_to_bootstrap:\s*\d/m, "safe_to_bootstrap: 1"));
}

/**
 * The last committed position of a stopped node: grastate.dat's seqno after a clean stop; after a
 * crash (seqno -1) the one InnoDB recovers (`mariadbd --wsrep-recover`). -1 when unknown.
 */
export function recoveredSeqno(node: GaleraNode): number {
  const saved = savedState(node);
  if (!saved) return -1;
  if (saved.seqno >= 0) return saved.seqno;
  const log = `${node.dir}/recover.log`;
  rmSync(log, { force: true });
  spawnSync(MARIADBD, [`--defaults-file=${node.optionFile}`, "--wsrep-recover", `--log-error=${log}`], { timeout: 120_000 });
  const text = existsSync(log) ? readFileSync(log, "utf8") : "";
  const match = /WSREP: Recovered position: [0-9a-f-]+:(-?\d+)/.exec(text);
  return match ? Number(match[1]) : -1;
}

/** Waits `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
