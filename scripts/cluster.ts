/**
 * `npm run cluster -- up|down|status`: a 3-node MariaDB Galera cluster on this machine, from
 * Debian's `mariadb-server` and `galera-4`, behind haproxy (layout.ts has every port and path).
 * `up` is idempotent and repairs what a crash or an interrupted run left behind; the shared
 * MariaDB server on 3306 is never touched (nodes are known by their own pid files).
 */
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { parseCommandLine } from "./lib/command-line.ts";
import { BASE_DIR, clusterUrl, GALERA_PROVIDER, HEALTH, MARIADBD, NODES, PROXY, PROXY_STATS_PORT, type GaleraNode } from "./cluster/layout.ts";
import {
  installSystemTables, isSynced, markSafeToBootstrap, nodePid, nodeState, prepareNode, recoveredSeqno, savedState,
  startNode, stopNode, waitSynced, wipeNode,
} from "./cluster/nodes.ts";
import { HAPROXY, healthPid, proxyPid, proxyServers, startHealthChecks, startProxy, stopHelper } from "./cluster/proxy.ts";

const USAGE = `Usage: npm run cluster -- <up|down|status> [--wipe]

A 3-node MariaDB Galera cluster on this machine (nodes 127.0.0.1:3311-3313) behind haproxy
(${clusterUrl()}: one writer, two backups, health-checked). Data, logs and option files in
${BASE_DIR} (GALERA_DIR overrides).

  up        start whatever is not running (idempotent); after a crash the most advanced node
            forms the cluster again, a node that cannot rejoin gets a fresh copy
  down      stop the proxy and the nodes cleanly (the data stays)
  status    each node's Galera state and cluster size, and the proxy's view; exit 1 unless all is well

Options:
  --wipe    with down: also delete the data
  -h, --help  this text

Then: DATABASE_URL=${clusterUrl()} npm start`;

/** How long a node may take to form or join the cluster (a full state transfer included). */
const SYNC_WAIT_MS = 180_000;

/** Fails with a clear line when something the cluster needs is not installed. */
function checkInstalled(): void {
  const missing = [
    [MARIADBD, "mariadb-server"], [GALERA_PROVIDER, "galera-4"], [HAPROXY, "haproxy"], ["/usr/bin/rsync", "rsync"],
  ].filter(([file]) => !existsSync(file!)).map(([, pkg]) => pkg);
  if (missing.length) throw new Error(`missing packages: ${missing.join(" ")} (apt-get install -y ${missing.join(" ")})`);
}

/** Whether a node has data that can form or rejoin a cluster (system tables and Galera state). */
function hasData(node: GaleraNode): boolean {
  return existsSync(`${node.dataDir}/mysql`) && savedState(node) !== undefined;
}

/** Forms the cluster from scratch: every node wiped, system tables on node1, node1 bootstraps. */
async function formFresh(): Promise<void> {
  console.log("forming a new cluster (fresh data)");
  for (const node of NODES) await stopNode(node);
  for (const node of NODES) wipeNode(node);
  installSystemTables(NODES[0]!);
  startNode(NODES[0]!, true);
  await waitSynced(NODES[0]!, SYNC_WAIT_MS);
}

/**
 * No node is synced: stops any leftover node process (alone it has no quorum), then bootstraps
 * the node that committed most (the one grastate.dat marks safe, else the highest recovered
 * position), or forms a fresh cluster when no node has usable data or the bootstrap fails.
 */
async function bootstrap(): Promise<void> {
  for (const node of NODES) await stopNode(node);
  const candidates = NODES.filter(hasData);
  if (candidates.length === 0) return formFresh();
  const marked = candidates.find((n) => savedState(n)!.safeToBootstrap);
  const ranked = marked ? [{ node: marked, seqno: 0 }] : candidates.map((node) => ({ node, seqno: recoveredSeqno(node) })).sort((a, b) => b.seqno - a.seqno);
  const first = ranked[0]!.node;
  console.log(`${first.name} forms the cluster again${marked ? "" : ` (recovered position ${ranked[0]!.seqno})`}`);
  markSafeToBootstrap(first);
  startNode(first, true);
  try {
    await waitSynced(first, SYNC_WAIT_MS);
  } catch (err) {
    console.log(`${first.name} could not form the cluster: ${(err as Error).message.split("\n")[0]}`);
    await formFresh();
  }
}

/** Starts a node that is not synced so that it joins; a node that cannot join is wiped and copied afresh. */
async function join(node: GaleraNode): Promise<void> {
  if (nodePid(node) === undefined) {
    console.log(`${node.name} joins`);
    startNode(node, false);
  }
  try {
    await waitSynced(node, SYNC_WAIT_MS);
  } catch (err) {
    console.log(`${node.name} did not rejoin (${(err as Error).message.split("\n")[0]}); copying it afresh`);
    await stopNode(node);
    wipeNode(node);
    startNode(node, false);
    await waitSynced(node, SYNC_WAIT_MS);
  }
}

async function up(): Promise<void> {
  checkInstalled();
  mkdirSync(BASE_DIR, { recursive: true });
  for (const node of NODES) prepareNode(node);
  const states = await Promise.all(NODES.map(nodeState));
  if (!states.some(isSynced)) await bootstrap();
  for (const node of NODES) if (!isSynced(await nodeState(node))) await join(node);
  await startHealthChecks();
  startProxy();
  // until haproxy's checks have seen every node synced (3 good checks a second apart), at most 30 s
  for (let i = 0; i < 60; i++) {
    const servers = await proxyServers();
    if (servers?.length === NODES.length && servers.every((s) => s.status === "UP")) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  await status();
}

async function down(wipe: boolean): Promise<void> {
  await stopHelper(proxyPid(), PROXY.pidFile);
  await stopHelper(healthPid(), HEALTH.pidFile);
  // the last node to stop is the one marked safe to form the cluster again
  for (const node of [...NODES].reverse()) {
    if (nodePid(node) !== undefined) console.log(`stopping ${node.name}`);
    await stopNode(node);
  }
  if (wipe) rmSync(BASE_DIR, { recursive: true, force: true });
  console.log(wipe ? `stopped; ${BASE_DIR} deleted` : "stopped");
}

/** Prints the cluster's state. @returns whether every node is synced and the proxy has a writer */
async function status(): Promise<boolean> {
  let healthy = true;
  for (const node of NODES) {
    const s = await nodeState(node);
    healthy &&= isSynced(s);
    const what = !s.running ? "stopped" : s.error ? `running, not answering (${s.error})`
      : `wsrep_local_state ${s.localState} (${s.stateComment}), ready ${s.ready ? "ON" : "OFF"}, cluster size ${s.clusterSize}, ${s.clusterStatus}`;
    console.log(`${node.name} 127.0.0.1:${node.port}  ${what}`);
  }
  const servers = await proxyServers();
  if (!servers || proxyPid() === undefined) {
    healthy = false;
    console.log("proxy    stopped");
  } else {
    const writer = servers.find((s) => s.status === "UP");
    healthy &&= writer !== undefined;
    console.log(`proxy    ${clusterUrl()}  writer ${writer?.name ?? "none"}; ${servers.map((s) => `${s.name}${s.backup ? " (backup)" : ""} ${s.status}`).join(", ")}; stats http://127.0.0.1:${PROXY_STATS_PORT}/`);
  }
  return healthy;
}

async function main(): Promise<void> {
  const { values, positionals } = parseCommandLine(USAGE, { wipe: { type: "boolean" } }, process.argv.slice(2), true);
  const [command, ...rest] = positionals;
  if (rest.length || !["up", "down", "status"].includes(command ?? "")) {
    console.error("npm run cluster: say up, down or status (--help for more)");
    process.exit(2);
  }
  if (process.getuid?.() !== 0) throw new Error("run as root: the nodes are started as the mysql user");
  if (command === "up") await up();
  else if (command === "down") await down(values.wipe === true);
  else process.exitCode = (await status()) ? 0 : 1;
}

main().catch((err: Error) => {
  console.error(`npm run cluster: ${err.message}`);
  process.exit(1);
});
