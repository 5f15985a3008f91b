/**
 * The cluster section: the product on the 3-node MariaDB Galera cluster of `npm run cluster -- up`
 * next to the same product on the single server, in the same run, in interleaved rounds, as ratios.
 *
 * Targets (autocannon, 32 connections, as the throughput section):
 * - by-id read and add-business on the single server (the run's DATABASE_URL), a chain of
 *   `--cluster-count` stores there;
 * - the same through one node (a core-api on node 1) and through two nodes (a core-api on node 1
 *   and one on node 2, 16 connections each); every node's core-api is started with half the cores'
 *   workers when it shares the load with another, so one node and two nodes run as many workers;
 * - by-id through node 1 with read-your-writes off (`?wsrep_sync_wait=0` in DATABASE_URL) next to
 *   the default (`wsrep_sync_wait=1`): the cost of waiting for the node to apply what the cluster
 *   committed before every read.
 * The cluster's own bench database (same name as on the single server) holds a small chain, not
 * the million: three nodes share this machine with the single server. When node 1 or 2 is not a
 * synced member of a primary component, the section is skipped with one line.
 */
import os from "node:os";
import { NODES, clusterUrl } from "../scripts/cluster/layout.ts";
import { isSynced, nodeState } from "../scripts/cluster/nodes.ts";
import { migrateCoreDatabase } from "../core-api/src/db/migrate.node.ts";
import { createRunContext } from "./context.ts";
import { httpLoad, type LoadResult } from "./load-drivers.ts";
import { median } from "./measure.ts";
import { wipeStores } from "./load.ts";
import { addBusinessRequest, byIdRequest, sampleIds, writesChain, type ProductRequest } from "./product-requests.ts";
import { markdownTable, textTable } from "./report.ts";
import type { BenchChain, BenchSection, ServiceHandle, TargetCheck } from "./section.ts";
import { numberOption } from "../scripts/lib/options.ts";

const CONNECTIONS = 32;
const DEFAULT_CLUSTER_COUNT = 5000;

interface Target {
  key: string;
  label: string;
  /** the core-api processes the load is split over (equally) */
  servers: ServiceHandle[];
  next: (n: number) => ProductRequest;
}

interface Ratio {
  label: string;
  product: string;
  floor: string;
}

const fmtRate = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const fmtRatio = (x: number) => (Number.isFinite(x) ? `${x.toFixed(2)}x` : "-");
const loadAverage = () => Math.round(os.loadavg()[0]! * 100) / 100;

/** Requests sent per target so far. */
const sent = new WeakMap<Target, number>();

/**
 * Loads every server of `t` at once for `seconds`, the connections split equally between them.
 * @returns the sums of the completed and failed requests and of the rates; p50 / p99: the highest
 *   of the servers'
 */
async function runSplit(t: Target, seconds: number): Promise<LoadResult> {
  const per = Math.floor(CONNECTIONS / t.servers.length);
  // one numbering per target over the warm-up and every round: add-business needs a new store each time
  const parts = await Promise.all(t.servers.map((svc) => httpLoad(svc.url, per, seconds, () => t.next(sent.set(t, (sent.get(t) ?? 0) + 1).get(t)!))));
  return {
    ok: parts.reduce((a, r) => a + r.ok, 0),
    failed: parts.reduce((a, r) => a + r.failed, 0),
    seconds,
    perSecond: parts.reduce((a, r) => a + r.perSecond, 0),
    p50Ms: Math.max(...parts.map((r) => r.p50Ms)),
    p99Ms: Math.max(...parts.map((r) => r.p99Ms)),
  };
}

/** Sends `r` to `url` once; throws unless it answers 200 (a target that fails is not measured). */
async function probe(url: string, r: ProductRequest): Promise<void> {
  const res = await fetch(`${url}${r.path}`, { method: r.method, headers: r.headers, body: r.body });
  if (res.status !== 200) throw new Error(`probe ${r.method} ${url}${r.path} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
}

/** Why the cluster cannot be measured (node 1 or 2 not synced), or null when it can. */
async function clusterDown(): Promise<string | null> {
  for (const node of NODES.slice(0, 2)) {
    const state = await nodeState(node);
    if (!isSynced(state)) return `${node.name} (127.0.0.1:${node.port}) is not a synced member of a primary component (${state.error ?? state.stateComment ?? "not running"})`;
  }
  return null;
}

/** The cluster section (see the module comment); registered in run.ts. */
export const clusterSection: BenchSection = {
  name: "cluster",
  summary: "add-business and by-id through one and two Galera nodes vs the single server, the cost of read-your-writes",
  flags: ["--cluster-count <n>    stores of the cluster section's chain, here and on the cluster (default 5000)"],
  async run(ctx) {
    const s = ctx.settings;
    const down = await clusterDown();
    if (down) {
      const line = `Skipped: the cluster is not up: ${down}. Start it with \`npm run cluster -- up\`, then \`npm run bench -- --only cluster\`.`;
      console.log(line);
      return { title: "Cluster", markdown: line, targets: [] };
    }
    const count = numberOption(ctx.flags, "cluster-count", null, s.quick ? 1000 : DEFAULT_CLUSTER_COUNT);
    if (!Number.isInteger(count) || count < 1000) throw new Error("--cluster-count must be a whole number of at least 1000 (the by-id sample)");
    const seconds = s.durationSeconds;
    const warmSeconds = Math.min(2, seconds);
    const cores = os.availableParallelism();
    const half = Math.max(1, Math.floor(cores / 2));
    const [node1, node2] = [clusterUrl(NODES[0]!.port), clusterUrl(NODES[1]!.port)];

    await migrateCoreDatabase(node1, s.coreDb);
    const cluster = await createRunContext({ ...s, databaseUrl: node1, count }, ctx.flags, "cluster-");
    try {
      const single = await ctx.benchChain(count);
      const singleWrites = await writesChain(ctx);
      const onCluster = await cluster.benchChain(count);
      const clusterWrites = await writesChain(cluster);
      const singleCore = await ctx.core(cores);
      const oneNode = await cluster.core(cores);
      const twoNodes = [
        await cluster.core(half, { name: "node1", env: {} }),
        await cluster.core(half, { name: "node2", env: { DATABASE_URL: node2 } }),
      ];
      const noWait = await cluster.core(cores, { name: "sync-wait-0", env: { DATABASE_URL: `${node1}?wsrep_sync_wait=0` } });
      const singleIds = await sampleIds(ctx.db, single.chainId, 1000);
      const clusterIds = await sampleIds(cluster.db, onCluster.chainId, 1000);
      const runTag = `c${Date.now().toString(36)}`;
      const byId = (chain: BenchChain, ids: number[]) => (n: number) => byIdRequest(chain, ids[n % ids.length]!);
      const add = (writes: BenchChain, tag: string) => (n: number) => addBusinessRequest(writes, `${runTag}${tag}`, n);

      const targets: Target[] = [
        { key: "by-id-single", label: "GET /resources/business/{id}, single server", servers: [singleCore], next: byId(single, singleIds) },
        { key: "by-id-node", label: "GET /resources/business/{id}, one node", servers: [oneNode], next: byId(onCluster, clusterIds) },
        { key: "by-id-nodes", label: "GET /resources/business/{id}, two nodes", servers: twoNodes, next: byId(onCluster, clusterIds) },
        { key: "by-id-no-wait", label: "GET /resources/business/{id}, one node, wsrep_sync_wait=0", servers: [noWait], next: byId(onCluster, clusterIds) },
        { key: "add-single", label: "add-business, single server", servers: [singleCore], next: add(singleWrites, "s") },
        { key: "add-node", label: "add-business, one node", servers: [oneNode], next: add(clusterWrites, "o") },
        { key: "add-nodes", label: "add-business, two nodes", servers: twoNodes, next: add(clusterWrites, "t") },
      ];
      const ratios: Ratio[] = [
        { label: "by-id: one node / single server", product: "by-id-node", floor: "by-id-single" },
        { label: "by-id: two nodes / single server", product: "by-id-nodes", floor: "by-id-single" },
        { label: "add-business: one node / single server", product: "add-node", floor: "add-single" },
        { label: "add-business: two nodes / single server", product: "add-nodes", floor: "add-single" },
        { label: "by-id: two nodes / one node", product: "by-id-nodes", floor: "by-id-node" },
        { label: "add-business: two nodes / one node", product: "add-nodes", floor: "add-node" },
        { label: "read-your-writes: by-id with wsrep_sync_wait=1 / =0 (one node)", product: "by-id-node", floor: "by-id-no-wait" },
      ];
      for (const t of targets) for (const [i, svc] of t.servers.entries()) await probe(svc.url, t.next(1_000_000 + i));

      const results = await runRounds(targets, s.rounds, seconds, warmSeconds);
      await wipeStores(ctx.db, singleWrites.chainId);
      await wipeStores(cluster.db, clusterWrites.chainId);
      return report(results, targets, ratios, { count, cores, half, seconds, warmSeconds, rounds: s.rounds, coreDb: s.coreDb, single: single.name });
    } finally {
      await cluster.close();
    }
  },
};

type Rounds = { results: Map<string, LoadResult[]>; loads: Array<{ start: number; end: number }> };

/** Warms every target up once, then runs `rounds` interleaved rounds of every target. */
async function runRounds(targets: Target[], rounds: number, seconds: number, warmSeconds: number): Promise<Rounds> {
  console.log(`\ncluster: ${targets.length} targets, ${rounds} interleaved rounds of ${seconds} s each, after a ${warmSeconds} s warm-up of each`);
  for (const t of targets) await runSplit(t, warmSeconds);
  const results = new Map<string, LoadResult[]>(targets.map((t) => [t.key, []]));
  const loads: Rounds["loads"] = [];
  for (let round = 1; round <= rounds; round++) {
    const start = loadAverage();
    console.log(`round ${round} (load average ${start})`);
    for (const t of targets) {
      const r = await runSplit(t, seconds);
      results.get(t.key)!.push(r);
      console.log(`  ${t.label.padEnd(64)} ${fmtRate(r.perSecond).padStart(8)}/s  p50 ${r.p50Ms.toFixed(1)} ms${r.failed ? `  ${r.failed} FAILED` : ""}`);
    }
    loads.push({ start, end: loadAverage() });
  }
  return { results, loads };
}

interface ReportInfo {
  count: number;
  cores: number;
  half: number;
  seconds: number;
  warmSeconds: number;
  rounds: number;
  coreDb: string;
  single: string;
}

/** The section's Markdown block and its (informational) targets. */
function report({ results, loads }: Rounds, targets: Target[], ratios: Ratio[], info: ReportInfo) {
  const cell = (key: string) => results.get(key)!;
  const ratioValues = ratios.map((q) => ({
    ...q,
    perRound: cell(q.product).map((r, i) => (r.perSecond > 0 && cell(q.floor)[i]!.perSecond > 0 ? r.perSecond / cell(q.floor)[i]!.perSecond : NaN)),
  }));
  const perTargetHeader = ["target", "core-api processes (WEB_CONCURRENCY each)", ...loads.map((_, i) => `round ${i + 1} /s`), "median /s", "p50 ms (median)", "failed"];
  const perTargetRows = targets.map((t) => [
    t.label, `${t.servers.length} (${t.servers.map((x) => x.workers).join(", ")})`, ...cell(t.key).map((r) => fmtRate(r.perSecond)),
    fmtRate(median(cell(t.key).map((r) => r.perSecond))), median(cell(t.key).map((r) => r.p50Ms)).toFixed(1), String(cell(t.key).reduce((n, r) => n + r.failed, 0)),
  ]);
  const ratioHeader = ["ratio", ...loads.map((_, i) => `round ${i + 1}`), "median"];
  const ratioRows = ratioValues.map((q) => [q.label, ...q.perRound.map(fmtRatio), fmtRatio(median(q.perRound))]);
  console.log("");
  console.log(textTable(ratioHeader, ratioRows));
  const failures = targets.filter((t) => cell(t.key).some((r) => r.failed > 0));
  const targetChecks: TargetCheck[] = [{
    label: "every cluster request answered 2xx",
    met: failures.length === 0,
    detail: failures.length ? `failures in: ${failures.map((t) => t.label).join("; ")}` : "no failures",
  }];
  const markdown = `A chain of ${info.count.toLocaleString("en-US")} stores on each side ("${info.single}"): on the single server (the run's
DATABASE_URL, database \`${info.coreDb}\`) and on the Galera cluster of \`npm run cluster -- up\` (database \`${info.coreDb}\` there,
nodes 127.0.0.1:3311 and :3312 addressed directly, the proxy not in the path). ${info.rounds} interleaved rounds: every round runs
every target once for ${info.seconds} s, after a ${info.warmSeconds} s warm-up of each target. Autocannon in the bench process, ${CONNECTIONS}
connections in all; "two nodes" splits them between a core-api on node 1 and one on node 2 (${CONNECTIONS / 2} each), each started with
WEB_CONCURRENCY=${info.half}, so one node and two nodes run as many workers. The three nodes, the single server, the services and
autocannon share the machine's ${info.cores} cores, so the cluster's figures show what replication and certification cost here, not what
three machines would serve. by-id reads rotate over 1000 stores of the chain as the bench admin; add-business creates a new store
per request in "Bench Writes" (emptied after the run) on the side it runs on. Every core-api runs with the default read-your-writes
(\`wsrep_sync_wait=1\` per session) except the one started with \`?wsrep_sync_wait=0\` in its DATABASE_URL.

${markdownTable(perTargetHeader, perTargetRows)}

#### Ratios (per round)

${markdownTable(ratioHeader, ratioRows)}

#### Load average (1 minute) per round

${markdownTable(["round", "at start", "at end"], loads.map((r, i) => [String(i + 1), String(r.start), String(r.end)]))}
${failures.length ? `\nTargets with failed requests: ${failures.map((t) => t.label).join("; ")} (see the process logs in bench/.cache/).\n` : ""}`;
  return { title: "Cluster", markdown, targets: targetChecks };
}
