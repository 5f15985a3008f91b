/**
 * Test support of the cluster tests: the nodes' and the proxy's addresses, a second (third ...)
 * core API on another node over the same database, and reads straight from one node.
 *
 * A test starts its core with startCore() (test/helpers/core.ts), whose database lives on node 1
 * in these tests (vitest.cluster.config.ts); `coreOn(core, NODE_URLS[1])` is another core-api
 * instance, with its own pool, on node 2.
 */
import mysql from "mysql2/promise";
import { loadCoreConfig } from "../../core-api/src/config.ts";
import { createApp } from "../../core-api/src/app.ts";
import { openCoreDatabase, type CoreDb } from "../../core-api/src/db/client.ts";
import { clusterUrl, NODES } from "../../scripts/cluster/layout.ts";
import { TEST_SECRET_KEY, type TestCore } from "../helpers/core.ts";

/** Each node's own address (`mysql://root@127.0.0.1:3311` ...). */
export const NODE_URLS = NODES.map((n) => clusterUrl(n.port));

/** The proxy's address: the writer node, failing over to a synced backup. */
export const PROXY_URL = clusterUrl();

/** A core-api instance of the cluster tests. */
export interface ClusterCore {
  db: CoreDb;
  request(path: string, init?: RequestInit): Promise<Response>;
  json(path: string, init?: RequestInit): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/**
 * Another core API on the database of `core`, through `url` (a node, or the proxy; with a
 * `wsrep_sync_wait` parameter to change its sessions' read-your-writes setting).
 */
export function coreOn(core: Pick<TestCore, "dbName">, url: string): ClusterCore {
  const config = loadCoreConfig({ LOG_LEVEL: "error", SERVICE_SECRET_KEY: TEST_SECRET_KEY, DATABASE_URL: url, CORE_DB_NAME: core.dbName });
  const database = openCoreDatabase(url, core.dbName);
  const app = createApp({ db: database.db, config });
  const request = async (path: string, init?: RequestInit) => app.request(path, init);
  return {
    db: database.db,
    request,
    async json(path, init) {
      const res = await request(path, init);
      const text = await res.text();
      let body: unknown = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        body = text;
      }
      return { status: res.status, body };
    },
    close: database.close,
  };
}

/**
 * Runs `sql` on one node in a fresh session that waits for everything the cluster committed
 * (wsrep_sync_wait = 1), so the answer is that node's view of every acknowledged write.
 */
export async function queryNode<T = Record<string, unknown>>(url: string, database: string, sql: string, values: unknown[] = []): Promise<T[]> {
  const conn = await mysql.createConnection({ uri: `${url}/${database}`, connectTimeout: 5_000 });
  try {
    await conn.query("SET SESSION wsrep_sync_wait = 1");
    const [rows] = await conn.query(sql, values);
    return rows as T[];
  } finally {
    await conn.end();
  }
}

/** Waits `ms` milliseconds. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
