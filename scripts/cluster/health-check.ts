/**
 * The Galera health check the proxy asks (as Percona's clustercheck does): one small HTTP server
 * per node, answering 200 "synced" when the node's wsrep_local_state is 4 (Synced) and wsrep_ready
 * is ON in a primary component, else 503 with what it saw. haproxy (docker/galera/haproxy.cfg)
 * sends `GET /` to a node's check port every second and stops routing to a node that is not
 * synced: one that is joining, donating its state, cut off from the quorum, or dead.
 *
 * Run by `npm run cluster -- up` as its own process, one server per node of layout.ts:
 *   tsx scripts/cluster/health-check.ts
 * or, for nodes elsewhere (docker/compose.yml's cluster profile), one server per entry of
 * GALERA_CHECKS, `<check port>=<node host>:<node port>` separated by commas:
 *   GALERA_CHECKS=9201=galera1:3306,9202=galera2:3306 node scripts/cluster/health-check.ts
 * The checks listen on CHECK_HOST (default 127.0.0.1).
 */
import { createServer } from "node:http";
import mysql from "mysql2/promise";
import { NODES } from "./layout.ts";

/** Longest a check waits for the node before answering 503 (haproxy's own check timeout is longer). */
const CHECK_TIMEOUT_MS = 1_500;

/**
 * Asks the node whether it may take statements.
 * @returns `ok` and the line the check answers with
 */
export async function checkNode(host: string, port: number): Promise<{ ok: boolean; line: string }> {
  let conn: mysql.Connection | undefined;
  try {
    conn = await mysql.createConnection({ host, port, user: "root", connectTimeout: CHECK_TIMEOUT_MS });
    const [rows] = await conn.query<mysql.RowDataPacket[]>({
      sql: "SHOW GLOBAL STATUS WHERE Variable_name IN ('wsrep_local_state', 'wsrep_ready', 'wsrep_cluster_status')",
      timeout: CHECK_TIMEOUT_MS,
    });
    const status = Object.fromEntries(rows.map((r) => [String(r.Variable_name), String(r.Value)]));
    const ok = status.wsrep_local_state === "4" && status.wsrep_ready === "ON" && status.wsrep_cluster_status === "Primary";
    return { ok, line: ok ? "synced" : `not synced: ${JSON.stringify(status)}` };
  } catch (err) {
    return { ok: false, line: `unreachable: ${(err as Error).message}` };
  } finally {
    conn?.destroy();
  }
}

/** One check: the port it listens on and the node it asks. */
interface Check {
  checkPort: number;
  host: string;
  port: number;
}

/** The checks of GALERA_CHECKS, or of the local cluster's nodes (layout.ts) when it is unset. */
function checks(spec = process.env.GALERA_CHECKS): Check[] {
  if (!spec) return NODES.map((n) => ({ checkPort: n.checkPort, host: "127.0.0.1", port: n.port }));
  return spec.split(",").map((entry) => {
    const match = /^(\d+)=([^:]+):(\d+)$/.exec(entry.trim());
    if (!match) throw new Error(`GALERA_CHECKS: "${entry}" is not <check port>=<node host>:<node port>`);
    return { checkPort: Number(match[1]), host: match[2]!, port: Number(match[3]) };
  });
}

/** Serves the check of one node on its check port. */
function serve(check: Check, listenHost: string): void {
  createServer((_req, res) => {
    void checkNode(check.host, check.port).then(({ ok, line }) => {
      res.writeHead(ok ? 200 : 503, { "content-type": "text/plain", connection: "close" });
      res.end(`${check.host}:${check.port}: ${line}\n`);
    });
  }).listen(check.checkPort, listenHost);
}

const all = checks();
for (const check of all) serve(check, process.env.CHECK_HOST || "127.0.0.1");
console.log(`health checks: ${all.map((c) => `${c.checkPort} -> ${c.host}:${c.port}`).join(", ")}`);
