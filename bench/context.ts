/**
 * The BenchContext of a run (bench/section.ts): the services as child processes on the bench
 * databases, the bench chains with their stores, the bench admin's session, a direct database
 * connection, and a memo so sections share what they measured. run.ts creates one per run and
 * closes it at the end.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { sql } from "drizzle-orm";
import { openCoreDatabase, type CoreDatabase } from "../core-api/src/db/client.ts";
import { fetchJson, ServiceCallError } from "../scripts/lib/http-client.ts";
import type { Flags } from "../scripts/lib/options.ts";
import { countStores, ensureBenchAdmin, ensureChain, grantBenchAdmin, loadStores, wipeStores } from "./load.ts";
import { describeMachine } from "./machine.ts";
import type { BenchChain, BenchContext, BenchSettings, ServiceHandle } from "./section.ts";
import { CACHE_DIR, freePort, ProcessFleet, type ServiceVariant } from "./services.ts";

const SECRETS_PATH = `${CACHE_DIR}bench-secrets.json`;
const LOAD_RECORDS_PATH = `${CACHE_DIR}load.json`;

type LoadRecord = { seconds: number; stores: number; date: string };

/**
 * The bench's own SERVICE_SECRET_KEY and integration token, generated on first use and kept in
 * bench/.cache/ (git-ignored, mode 600), so the bench databases keep working across runs.
 */
function benchSecrets(): { serviceSecretKey: string; integrationToken: string } {
  try {
    return JSON.parse(readFileSync(SECRETS_PATH, "utf8"));
  } catch {
    const secrets = { serviceSecretKey: randomBytes(32).toString("base64"), integrationToken: `bench-${randomBytes(24).toString("hex")}` };
    mkdirSync(CACHE_DIR, { recursive: true });
    writeFileSync(SECRETS_PATH, JSON.stringify(secrets, null, 2), { mode: 0o600 });
    return secrets;
  }
}

function readLoadRecords(): Record<string, LoadRecord> {
  try {
    return JSON.parse(readFileSync(LOAD_RECORDS_PATH, "utf8")) as Record<string, LoadRecord>;
  } catch {
    return {};
  }
}

/** The name of the bench chain of `count` stores. */
export function benchChainName(count: number): string {
  return count === 1_000_000 ? "Bench Chain" : `Bench Chain ${count}`;
}

/** A run's context plus what only run.ts needs: closing everything. */
export interface RunContext extends BenchContext {
  /** stops every started process and closes the database connection */
  close(): Promise<void>;
  /** ends the started processes at once (exit on an error or a signal) */
  terminateNow(): void;
}

/**
 * Creates the context of one run.
 * @param settings the run's settings (run.ts reads them from the command line)
 * @param processPrefix put before the names (and log files) of the processes this context starts,
 *   so a second context (another database server) does not share their logs
 */
export async function createRunContext(settings: BenchSettings, flags: Flags, processPrefix = ""): Promise<RunContext> {
  // Bulk loads of up to a million stores: no statement timeout.
  const database: CoreDatabase = openCoreDatabase(settings.databaseUrl, settings.coreDb, { connectionLimit: 4, timeouts: { queryTimeoutMs: 0 } });
  const db = database.db;
  const secrets = benchSecrets();
  const fleet = new ProcessFleet(settings, secrets, processPrefix);
  const memos = new Map<string, Promise<unknown>>();
  const memo = <T>(key: string, make: () => Promise<T>): Promise<T> => {
    let p = memos.get(key) as Promise<T> | undefined;
    if (!p) {
      p = make();
      memos.set(key, p);
    }
    return p;
  };
  const defaultWorkers = os.availableParallelism();
  const core = (workers = defaultWorkers, variant?: ServiceVariant): Promise<ServiceHandle> => fleet.service("core-api", workers, variant);
  const connector = (workers = defaultWorkers): Promise<ServiceHandle> => fleet.service("connector", workers);

  /** The bench admin (once per run) and its session on the core-api child, logged in over HTTP. */
  const session = () =>
    memo("bench-admin-session", async () => {
      const service = await core();
      const admin = await ensureBenchAdmin(db);
      const url = `${service.url}/auth/login`;
      const { status, body } = await fetchJson(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: admin.username, password: admin.password }),
      });
      if (status !== 200 || body?.result?.code !== 1) throw new ServiceCallError("POST", url, status, body);
      // The session is the admin's whatever chain a request names: X-Service-Chain-ID is added per chain.
      const info = body.results.session_info as { session_user_id: number | string; session_key: string };
      return {
        adminId: admin.adminId,
        headers: { "X-Service-Session-User-ID": String(info.session_user_id), "X-Service-Session-Key": info.session_key },
      };
    });

  const benchChain = (count: number): Promise<BenchChain> =>
    memo(`bench-chain-${count}`, async () => {
      await core(); // migrates the database and seeds the demo chain (id 1) on an empty one
      const name = benchChainName(count);
      const { chainId } = await ensureChain(db, name);
      const existing = await countStores(db, chainId);
      const records = readLoadRecords();
      const cacheKey = `${settings.coreDb}/${name}/${chainId}`;
      let load: string;
      if (!settings.reload && existing === count) {
        const r = records[cacheKey];
        console.log(`chain "${name}" (id ${chainId}) already holds ${count} stores: load skipped (--reload forces it)`);
        load = r ? `loaded in ${r.seconds.toFixed(0)} s (${Math.round(r.stores / r.seconds)} stores/s) on ${r.date.slice(0, 10)}; reused by this run` : "loaded earlier; reused by this run";
      } else {
        if (existing > 0) {
          console.log(`chain "${name}" (id ${chainId}) holds ${existing} stores, want ${count}: wiping them`);
          await wipeStores(db, chainId);
        }
        console.log(`loading ${count} stores into chain "${name}" (id ${chainId}) through insertBusinesses`);
        const seconds = await loadStores(db, chainId, count);
        console.log(`loaded ${count} stores in ${seconds.toFixed(1)} s (${Math.round(count / seconds)} stores/s); analysing tables`);
        await db.execute(sql`ANALYZE TABLE businesses, business_search_tokens`);
        records[cacheKey] = { seconds, stores: count, date: new Date().toISOString() };
        mkdirSync(CACHE_DIR, { recursive: true });
        writeFileSync(LOAD_RECORDS_PATH, JSON.stringify(records, null, 2));
        load = `${seconds.toFixed(0)} s (${Math.round(count / seconds)} stores/s), measured by this run`;
      }
      const { adminId, headers } = await session();
      await grantBenchAdmin(db, adminId, chainId);
      return { chainId, name, count, load, headers: { ...headers, "X-Service-Chain-ID": String(chainId) } };
    });

  const emptyChain = (name: string): Promise<BenchChain> =>
    memo(`empty-chain-${name}`, async () => {
      await core();
      const { chainId } = await ensureChain(db, name);
      await wipeStores(db, chainId);
      const { adminId, headers } = await session();
      await grantBenchAdmin(db, adminId, chainId);
      return { chainId, name, count: 0, load: "none: a chain to write into, emptied by this run", headers: { ...headers, "X-Service-Chain-ID": String(chainId) } };
    });

  return {
    settings,
    flags,
    machine: await describeMachine(db),
    db,
    core,
    connector,
    benchChain,
    emptyChain,
    memo,
    async startProcess(name, script, env, readyPath) {
      const port = await freePort();
      return fleet.spawnNode(name, script, [], { ...env, BENCH_PORT: String(port) }, port, readyPath);
    },
    secrets,
    async close() {
      await fleet.stopAll();
      await database.close();
    },
    terminateNow: () => fleet.terminateAllNow(),
  };
}
