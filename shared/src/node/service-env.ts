/**
 * The environment variables both services read the same way (handbook, "Configuration": names
 * fixed so that scripts, compose and tests agree), and the one way a bad variable is reported:
 * one line per variable naming it and what it must be, never its value (it may be a secret).
 */
import { DEFAULT_REQUEST_DEADLINE_MS } from "./db-timeouts.ts";
import { z } from "zod";
import { parseSyncWait, SYNC_WAIT_PARAMETER, syncWaitProblem } from "./database-session.ts";
import { LOG_LEVELS, type LogLevel } from "../logging.ts";
import { MIN_SECRET_KEY_LENGTH } from "../secret-box.ts";
import { parseTrustedProxies } from "./trusted-proxies.ts";

/** The longest start-up wait for the database that DATABASE_WAIT_SECONDS accepts (an hour). */
const MAX_DATABASE_WAIT_SECONDS = 3600;
/** The most worker processes WEB_CONCURRENCY accepts per service. */
const MAX_WEB_CONCURRENCY = 256;

/** A listening port; 0 picks a free one. */
export const portVariable = (fallback: number) =>
  z.coerce.number({ error: "must be a port number" }).int("must be a port number")
    .min(0, "must be a port number (0-65535)").max(65535, "must be a port number (0-65535)").default(fallback);

/** A MySQL database name (it is quoted into CREATE DATABASE, so only a safe alphabet). */
export const databaseNameVariable = (fallback: string) =>
  z.string().regex(/^[A-Za-z0-9_]+$/, "must be letters, digits and underscores").default(fallback);

/**
 * SERVICE_SECRET_KEY: the key of the secrets a service keeps for its outbound calls
 * (shared/src/secret-box.ts). Optional here so migrate and admin run without it; each service's
 * entry refuses to start without it (`npm start` generates one into .secret-key).
 */
export const secretKeyVariable = () =>
  z.string().min(MIN_SECRET_KEY_LENGTH, `must be at least ${MIN_SECRET_KEY_LENGTH} characters (npm start generates one into .secret-key)`).optional();

/**
 * TRUSTED_PROXIES: CIDRs of our own proxies, comma-separated (trusted-proxies.ts reads them; a
 * malformed entry is refused here, at start-up). Default none.
 */
export const trustedProxiesVariable = () =>
  z.string().default("").refine((v) => {
    try {
      parseTrustedProxies(splitList(v));
      return true;
    } catch {
      return false;
    }
  }, "must be a comma-separated list of CIDR ranges or addresses");

/** The one line a service entry prints when SERVICE_SECRET_KEY is unset. */
export const SECRET_KEY_MISSING = "SERVICE_SECRET_KEY: must be set: the key of the secrets kept for outbound calls (npm start generates one into .secret-key)";

/** Variables every service reads. */
export const commonVariables = {
  /**
   * the MySQL / MariaDB server (or the proxy in front of a Galera cluster); an optional
   * `wsrep_sync_wait` parameter sets the sessions' read-your-writes wait (database-session.ts)
   */
  DATABASE_URL: z.url({ protocol: /^mysql$/, error: "must be a mysql:// URL, for example mysql://root@127.0.0.1:3306" })
    .refine((v) => {
      const raw = new URL(v).searchParams.get(SYNC_WAIT_PARAMETER);
      return raw === null || parseSyncWait(raw) !== undefined;
    }, syncWaitProblem())
    .default("mysql://root@127.0.0.1:3306"),
  /** the listening address */
  HOST: z.string().min(1).default("127.0.0.1"),
  /**
   * bearer token `GET /metrics` requires; unset: /metrics answers whoever reaches the service port
   * (bound to 127.0.0.1 unless HOST says otherwise), as a Prometheus scrape expects
   */
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters (or unset: /metrics open on the service port)").optional(),
  /** seconds start-up retries an unreachable database before giving up (compose start order) */
  DATABASE_WAIT_SECONDS: z.coerce.number({ error: "must be a number of seconds" }).min(0, "must be 0 or more seconds")
    .max(MAX_DATABASE_WAIT_SECONDS, `must be at most ${MAX_DATABASE_WAIT_SECONDS} seconds`).default(60),
  /** worker processes per service on Node (worker-processes.ts); unset: the machine's core count */
  WEB_CONCURRENCY: z.coerce.number({ error: `must be a number of processes (1-${MAX_WEB_CONCURRENCY})` })
    .int(`must be a whole number of processes (1-${MAX_WEB_CONCURRENCY})`)
    .min(1, `must be a number of processes (1-${MAX_WEB_CONCURRENCY})`)
    .max(MAX_WEB_CONCURRENCY, `must be a number of processes (1-${MAX_WEB_CONCURRENCY})`)
    .optional(),
  /**
   * milliseconds a request may spend on the database in all (its statements, waits for a
   * connection, the transaction runner's retries) before it is answered 503 (904) with Retry-After
   */
  REQUEST_DEADLINE_MS: z.coerce.number({ error: "must be a number of milliseconds" }).int("must be a whole number of milliseconds")
    .min(100, "must be at least 100 milliseconds").max(120_000, "must be at most 120000 milliseconds").default(DEFAULT_REQUEST_DEADLINE_MS),
  /** the lowest log level written */
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(", ")}` }).default("info"),
  /** CIDRs of our own proxies: only their X-Forwarded-For and X-Request-Id are believed */
  TRUSTED_PROXIES: trustedProxiesVariable(),
  SERVICE_SECRET_KEY: secretKeyVariable(),
};

/** The variables of commonVariables, parsed. */
export type CommonEnvironment = z.output<z.ZodObject<typeof commonVariables>>;

/** What every service's configuration holds, from commonVariables and its own name and port. */
export interface CommonConfig {
  /** DATABASE_URL: the server, for example `mysql://root@127.0.0.1:3306` */
  databaseUrl: string;
  /** the service's database (CORE_DB_NAME, WEBSHOP_DB_NAME) */
  dbName: string;
  /** the service's listening port (CORE_API_PORT, CONNECTOR_PORT); 0 picks a free one */
  port: number;
  /** HOST: the listening address */
  host: string;
  /** TRUSTED_PROXIES: CIDRs of our own proxies (parseTrustedProxies reads them) */
  trustedProxies: string[];
  /** the lowest log level written (LOG_LEVEL) */
  logLevel: LogLevel;
  /**
   * bearer token `GET /metrics` requires; undefined: /metrics answers whoever reaches the service
   * port (bound to 127.0.0.1 unless HOST says otherwise), as a Prometheus scrape expects
   */
  metricsToken: string | undefined;
  /** how long start-up retries an unreachable database, in milliseconds (default 60 s) */
  databaseWaitMs: number;
  /** SERVICE_SECRET_KEY (shared/src/secret-box.ts); the entries refuse to start without it */
  secretKey: string | undefined;
  /**
   * WEB_CONCURRENCY: worker processes the Node entries serve with (worker-processes.ts);
   * undefined: the machine's core count. The core API's Deno entry serves in one process.
   */
  webConcurrency: number | undefined;
  /**
   * REQUEST_DEADLINE_MS: how long one request may spend on the database in all, in milliseconds
   * (default 5 s; request-deadline.ts), then 503 with Retry-After
   */
  requestDeadlineMs: number;
}

/**
 * The common part of a service's configuration.
 * @param service the service's own database name and port, as its variables gave them
 */
export function commonConfig(e: CommonEnvironment, service: { dbName: string; port: number }): CommonConfig {
  return {
    databaseUrl: e.DATABASE_URL,
    dbName: service.dbName,
    port: service.port,
    host: e.HOST,
    trustedProxies: splitList(e.TRUSTED_PROXIES),
    logLevel: e.LOG_LEVEL,
    metricsToken: e.METRICS_TOKEN,
    databaseWaitMs: e.DATABASE_WAIT_SECONDS * 1000,
    secretKey: e.SERVICE_SECRET_KEY,
    webConcurrency: e.WEB_CONCURRENCY,
    requestDeadlineMs: e.REQUEST_DEADLINE_MS,
  };
}

/**
 * The config of `result`, for callers that cannot go on without one (tests, the entries).
 * @param what how the message names the configuration, for example `configuration`
 * @throws Error `invalid <what>: <problem>; <problem>` listing one line per bad variable
 */
export function configOrThrow<T>(result: ConfigResult<T>, what: string): T {
  if (!result.ok) throw new Error(`invalid ${what}: ${result.problems.join("; ")}`);
  return result.config;
}

/**
 * The configuration an entry serves with, or the end of the process: each problem line and exit
 * 2, or SECRET_KEY_MISSING and exit 2 when SERVICE_SECRET_KEY is unset (no service runs without it).
 * Runtime-neutral: the Node entries and the Deno entry (core-api/src/main.deno.ts) both call it;
 * `process.exit` and `console.error` are globals on Deno 2 as on Node.
 */
export function configOrExit<T extends { secretKey: string | undefined }>(result: ConfigResult<T>): T & { secretKey: string } {
  if (!result.ok) {
    for (const line of result.problems) console.error(line);
    process.exit(2);
  }
  if (!result.config.secretKey) {
    console.error(SECRET_KEY_MISSING);
    process.exit(2);
  }
  return result.config as T & { secretKey: string };
}

/** The outcome of reading a configuration: the config, or one line per bad variable. */
export type ConfigResult<T> = { ok: true; config: T } | { ok: false; problems: string[] };

/**
 * Checks `env` against `schema`; empty values count as unset (compose passes unset ones so).
 * @returns the parsed variables, or `problems`: one line per bad variable, such as
 *   `CORE_API_PORT: must be a port number`
 */
export function parseEnvironment<S extends z.ZodType>(
  schema: S,
  env: Record<string, string | undefined>,
): ConfigResult<z.output<S>> {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = schema.safeParse(present);
  if (parsed.success) return { ok: true, config: parsed.data };
  const byName = new Map<string, string[]>();
  for (const issue of parsed.error.issues) {
    const name = String(issue.path[0] ?? "configuration");
    byName.set(name, [...new Set([...(byName.get(name) ?? []), issue.message])]);
  }
  return { ok: false, problems: [...byName].map(([name, messages]) => `${name}: ${messages.join("; ")}`) };
}

/** A comma-separated list, trimmed, without empty entries. */
export function splitList(value: string): string[] {
  return value.split(",").map((s) => s.trim()).filter(Boolean);
}
