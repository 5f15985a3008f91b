/**
 * Where the local Galera cluster of `npm run cluster` lives: three MariaDB nodes on this machine,
 * each on its own ports, data directory and option file, plus the health checks and the proxy in
 * front of them. Every name and port is fixed here so that the script, the proxy's configuration,
 * the cluster tests and the README agree.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Everything the cluster writes: data directories, option files, logs, pid files (GALERA_DIR overrides). */
export const BASE_DIR = process.env.GALERA_DIR || "/var/tmp/service-galera";

/** The Galera library of Debian's `galera-4` package. */
export const GALERA_PROVIDER = "/usr/lib/galera/libgalera_smm.so";

/** Debian's MariaDB server binary (never started without --defaults-file and a pid file of ours). */
export const MARIADBD = "/usr/sbin/mariadbd";

/** The system user the nodes run as: rsync state transfer refuses to run as root. */
export const NODE_USER = "mysql";

/** The name every node joins (wsrep_cluster_name). */
export const CLUSTER_NAME = "service-galera";

/** The proxy's listening port: the one address the services use (`mysql://root@127.0.0.1:3310`). */
export const PROXY_PORT = 3310;

/** haproxy's statistics page (HTTP, 127.0.0.1 only): which node is up and which one takes writes. */
export const PROXY_STATS_PORT = 3319;

/** One node of the cluster. */
export interface GaleraNode {
  /** 1-3 */
  index: number;
  name: string;
  /** the MySQL protocol port */
  port: number;
  /** group communication (gmcast.listen_addr) */
  gcommPort: number;
  /** incremental state transfer (ist.recv_addr) */
  istPort: number;
  /** full state transfer by rsync (wsrep_sst_receive_address) */
  sstPort: number;
  /** the HTTP health check the proxy asks: 200 when the node is synced, 503 otherwise */
  checkPort: number;
  dir: string;
  dataDir: string;
  optionFile: string;
  pidFile: string;
  errorLog: string;
  socket: string;
}

/** The three nodes: MySQL 3311-3313, gcomm 4571-4573, IST 4581-4583, SST 4591-4593, checks 9201-9203. */
export const NODES: readonly GaleraNode[] = [1, 2, 3].map((index) => {
  const dir = path.join(BASE_DIR, `node${index}`);
  return {
    index,
    name: `node${index}`,
    port: 3310 + index,
    gcommPort: 4570 + index,
    istPort: 4580 + index,
    sstPort: 4590 + index,
    checkPort: 9200 + index,
    dir,
    dataDir: path.join(dir, "data"),
    optionFile: path.join(dir, "my.cnf"),
    pidFile: path.join(dir, "mariadbd.pid"),
    errorLog: path.join(dir, "error.log"),
    socket: path.join(dir, "mariadbd.sock"),
  };
});

/** The health-check server's pid file and log (one process serving every node's check port). */
export const HEALTH = { pidFile: path.join(BASE_DIR, "health.pid"), log: path.join(BASE_DIR, "health.log") };

/** haproxy's pid file and log; its configuration is docker/galera/haproxy.cfg (ports from the environment). */
export const PROXY = {
  pidFile: path.join(BASE_DIR, "haproxy.pid"),
  log: path.join(BASE_DIR, "haproxy.log"),
  config: path.join(ROOT, "docker/galera/haproxy.cfg"),
};

/** `mysql://root@127.0.0.1:<port>`: a node's address, or the proxy's by default. */
export function clusterUrl(port = PROXY_PORT): string {
  return `mysql://root@127.0.0.1:${port}`;
}

/**
 * A node's option file: read with --defaults-file only (never /etc/mysql), bound to 127.0.0.1,
 * Galera on with rsync state transfer, auto-increment offsets per node (wsrep_auto_increment_control),
 * row-based binary log and interleaved auto-increment locks as Galera requires. Small buffers:
 * three nodes share one machine with the shared server.
 */
export function optionFile(node: GaleraNode): string {
  const peers = NODES.map((n) => `127.0.0.1:${n.gcommPort}`).join(",");
  return `# Written by npm run cluster (scripts/cluster/layout.ts); rewritten on every up.
[mariadbd]
user=${NODE_USER}
datadir=${node.dataDir}
socket=${node.socket}
pid-file=${node.pidFile}
log-error=${node.errorLog}
port=${node.port}
bind-address=127.0.0.1
skip-name-resolve
performance_schema=OFF
max_connections=400
character-set-server=utf8mb4
collation-server=utf8mb4_unicode_ci
default_storage_engine=InnoDB
innodb_buffer_pool_size=64M
innodb_log_file_size=32M
innodb_flush_log_at_trx_commit=2
innodb_autoinc_lock_mode=2
binlog_format=ROW

wsrep_on=ON
wsrep_provider=${GALERA_PROVIDER}
wsrep_cluster_name=${CLUSTER_NAME}
wsrep_cluster_address=gcomm://${peers}
wsrep_node_name=${node.name}
wsrep_node_address=127.0.0.1
wsrep_node_incoming_address=127.0.0.1:${node.port}
wsrep_provider_options="gmcast.listen_addr=tcp://127.0.0.1:${node.gcommPort};ist.recv_addr=127.0.0.1:${node.istPort};gcache.size=64M"
wsrep_sst_method=rsync
wsrep_sst_receive_address=127.0.0.1:${node.sstPort}
wsrep_auto_increment_control=ON
wsrep_slave_threads=2
`;
}
