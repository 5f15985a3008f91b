/**
 * The processes the bench starts and stops: core-api and the connector as `npm start` runs them
 * (scripts/start.ts, one service each, WEB_CONCURRENCY as asked), and the floor server
 * (bench/floor-server.ts), each on a free port of 127.0.0.1, on the bench databases, with its
 * output in bench/.cache/<name>.log. Every process is stopped by its pid at the end of the run
 * (SIGTERM; after 15 s SIGKILL to whatever of its tree is still there).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { processTree } from "./process-memory.ts";
import type { BenchSettings, ServiceHandle } from "./section.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const CACHE_DIR = fileURLToPath(new URL("./.cache/", import.meta.url));
/** How long a started process may take to answer (a fresh database is migrated first). */
const READY_LIMIT_MS = 180_000;
const STOP_LIMIT_MS = 15_000;

/**
 * How Node runs a TypeScript entry: natively where Node strips types itself (22.6+, as the
 * production images run the services), else through the tsx loader (Node 20).
 */
export const TYPESCRIPT_LOADER: string[] = typeof (process.features as { typescript?: unknown }).typescript === "string"
  ? ["--disable-warning=ExperimentalWarning"]
  : ["--import", "tsx"];

/** A free TCP port on 127.0.0.1 (taken and released at once). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The last `lines` lines of a log file (for an error message). */
function tail(path: string, lines = 15): string {
  try {
    return readFileSync(path, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no output)";
  }
}

/**
 * REQUEST_DEADLINE_MS of the services the bench starts: autocannon's own time-out (30 s). The
 * bench measures throughput, not the deadline: under 32 connections on a shared 2-core machine (and
 * a Galera cluster's certification retries) a request may wait for a pool connection longer than
 * the production default of 5 s, and a 503 there would count as a failure no patient client sees.
 */
export const BENCH_REQUEST_DEADLINE_MS = 30_000;

/** A differently configured process of a service (ProcessFleet.service). */
export interface ServiceVariant {
  /** tells the process apart from the default one: its key and log name, lower-case with dashes */
  name: string;
  /** added to and overriding the bench's environment of the service (null removes a variable) */
  env: Record<string, string | null>;
}

interface Started {
  name: string;
  child: ChildProcess;
  exited: Promise<void>;
}

/** Starts, tracks and stops the bench's child processes. */
export class ProcessFleet {
  private readonly started: Started[] = [];
  private readonly services = new Map<string, Promise<ServiceHandle>>();

  /**
   * @param settings database server and names, log level
   * @param secrets SERVICE_SECRET_KEY and the connector's integration token for the children
   */
  private readonly settings: BenchSettings;
  private readonly secrets: { serviceSecretKey: string; integrationToken: string };

  /** put before every process name and log file of this fleet (a second fleet on another server) */
  private readonly prefix: string;

  constructor(settings: BenchSettings, secrets: { serviceSecretKey: string; integrationToken: string }, prefix = "") {
    this.settings = settings;
    this.secrets = secrets;
    this.prefix = prefix;
  }

  /**
   * Spawns `node <script> ...args` (TYPESCRIPT_LOADER) with `env` added to this process's environment
   * (null removes a variable) and waits until `readyPath` answers 200.
   * @returns the base URL and the spawned pid
   * @throws Error naming the log and quoting its end when the process exits or does not answer in time
   */
  async spawnNode(
    name: string,
    script: string,
    args: string[],
    env: Record<string, string | null>,
    port: number,
    readyPath: string,
  ): Promise<{ url: string; pid: number; logPath: string }> {
    mkdirSync(CACHE_DIR, { recursive: true });
    const logPath = `${CACHE_DIR}${this.prefix}${name}.log`;
    const fd = openSync(logPath, "w");
    const childEnv: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...process.env, ...env })) if (v !== null && v !== undefined) childEnv[k] = v;
    const child = spawn(process.execPath, [...TYPESCRIPT_LOADER, script, ...args], {
      cwd: ROOT,
      env: childEnv,
      stdio: ["ignore", fd, fd],
    });
    closeSync(fd);
    let gone = false;
    const exited = new Promise<void>((resolve) => child.once("exit", () => ((gone = true), resolve())));
    this.started.push({ name, child, exited });
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + READY_LIMIT_MS;
    for (;;) {
      if (gone) throw new Error(`${name} exited during start-up (log ${logPath}):\n${tail(logPath)}`);
      const ok = await fetch(`${url}${readyPath}`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.ok, () => false);
      if (ok) return { url, pid: child.pid!, logPath };
      if (Date.now() > deadline) throw new Error(`${name} did not answer ${readyPath} within ${READY_LIMIT_MS / 1000} s (log ${logPath}):\n${tail(logPath)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /**
   * core-api or the connector through `npm start --service <service>` (migrates, seeds the demo on
   * an empty database, serves), once per service and worker count.
   * @param workers WEB_CONCURRENCY for the service
   * @param variant a differently configured process of the same service: `name` tells it apart
   *   (its log, its key), `env` is added to (and overrides) the bench's environment of it, e.g.
   *   GROUP_COMMIT=off or another DATABASE_URL
   */
  service(service: "core-api" | "connector", workers: number, variant?: ServiceVariant): Promise<ServiceHandle> {
    const key = `${service}-w${workers}${variant ? `-${variant.name}` : ""}`;
    let handle = this.services.get(key);
    if (!handle) {
      handle = (async () => {
        const port = await freePort();
        const s = this.settings;
        const { url, pid, logPath } = await this.spawnNode(key, "scripts/start.ts", ["--service", service], {
          DATABASE_URL: s.databaseUrl,
          CORE_DB_NAME: s.coreDb,
          WEBSHOP_DB_NAME: s.webshopDb,
          CORE_API_PORT: service === "core-api" ? String(port) : null,
          CONNECTOR_PORT: service === "connector" ? String(port) : null,
          HOST: "127.0.0.1",
          LOG_LEVEL: s.serviceLogLevel,
          SERVICE_SECRET_KEY: this.secrets.serviceSecretKey,
          SEED_INTEGRATION_TOKEN: this.secrets.integrationToken,
          WEB_CONCURRENCY: String(workers),
          DATABASE_WAIT_SECONDS: "10",
          METRICS_TOKEN: null,
          // the events section's receiver listens on 127.0.0.1
          WEBHOOK_ALLOW_PRIVATE: service === "core-api" ? "true" : null,
          // the bench speaks as many shoppers through X-Forwarded-For (bench/webshop-customers.ts)
          ...(service === "connector" ? { TRUSTED_PROXIES: "127.0.0.1" } : {}),
          // see BENCH_REQUEST_DEADLINE_MS
          REQUEST_DEADLINE_MS: String(BENCH_REQUEST_DEADLINE_MS),
          ...variant?.env,
        }, port, "/ready");
        console.log(`started ${service}${variant ? ` (${variant.name})` : ""} with WEB_CONCURRENCY=${workers} at ${url} (pid ${pid}, log ${logPath.slice(ROOT.length)})`);
        return { service, workers, url, pid, logPath };
      })();
      this.services.set(key, handle);
    }
    return handle;
  }

  /** Stops every process this fleet started, by pid: SIGTERM, then SIGKILL for what is left. */
  async stopAll(): Promise<void> {
    await Promise.all(
      this.started.map(async ({ child, exited }) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill("SIGTERM");
        const timer = new Promise<"late">((r) => setTimeout(() => r("late"), STOP_LIMIT_MS).unref());
        if ((await Promise.race([exited.then(() => "exited" as const), timer])) === "exited") return;
        // Still there after the grace period: the tree as it is now, children first.
        for (const pid of processTree(child.pid!).reverse()) {
          try {
            process.kill(pid, "SIGKILL");
          } catch {
            // already gone
          }
        }
      }),
    );
  }

  /** Ends every started process tree at once with SIGTERM (the bench is exiting on an error or a signal). */
  terminateAllNow(): void {
    for (const { child } of this.started) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      for (const pid of processTree(child.pid!).reverse()) {
        try {
          process.kill(pid, "SIGTERM");
        } catch {
          // already gone
        }
      }
    }
  }
}
