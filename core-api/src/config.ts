/**
 * Core API configuration from the environment (handbook, "Configuration"). Takes the
 * environment as a plain map so it runs the same on Node (`process.env`) and Deno
 * (`Deno.env.toObject()`). Every variable is checked before anything starts; a bad one is
 * reported as one line naming it (shared/src/service-env.ts).
 */
import { commonVariables, databaseNameVariable, parseEnvironment, portVariable, secretKeyVariable, splitList, type ConfigResult } from "@service/shared/service-env";
import { z } from "zod";
import { parseCidr } from "./ip-ranges/cidr.ts";
import { LOG_LEVELS, type LogLevel } from "./logger.ts";
import { OUTBOX_DEFAULTS } from "./outbox/outbox-settings.ts";

const schema = z.object({
  ...commonVariables,
  CORE_DB_NAME: databaseNameVariable("service_core"),
  CORE_API_PORT: portVariable(8080),
  TRUSTED_PROXIES: z.string().default("")
    .refine((v) => splitList(v).every((cidr) => parseCidr(cidr) !== null), "must be a comma-separated list of CIDR ranges or addresses"),
  SESSION_TTL_HOURS: z.coerce.number({ error: "must be a number of hours" }).positive("must be a positive number of hours").default(24),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(", ")}` }).default("info"),
  SERVICE_SECRET_KEY: secretKeyVariable(),
  WEBHOOK_ALLOW_PRIVATE: z.stringbool({ error: "must be true or false" }).default(false),
  OUTBOX_POLL_MS: z.coerce.number({ error: "must be a number of milliseconds" }).int("must be a whole number of milliseconds")
    .min(10, "must be at least 10 milliseconds").max(60_000, "must be at most 60000 milliseconds").default(OUTBOX_DEFAULTS.pollMs),
  OUTBOX_TIMEOUT_MS: z.coerce.number({ error: "must be a number of milliseconds" }).int("must be a whole number of milliseconds")
    .min(100, "must be at least 100 milliseconds").max(60_000, "must be at most 60000 milliseconds").default(OUTBOX_DEFAULTS.timeoutMs),
  /** how long a call to a chain's webshop connector (its authentication point) may take */
  WEBSHOP_TIMEOUT_MS: z.coerce.number({ error: "must be a number of milliseconds" }).int("must be a whole number of milliseconds")
    .min(100, "must be at least 100 milliseconds").max(60_000, "must be at most 60000 milliseconds").default(5_000),
});

/** Every variable the core API reads (README, "Configuration", documents each). */
export const CORE_VARIABLES = Object.keys(schema.shape);

export interface CoreConfig {
  databaseUrl: string;
  dbName: string;
  port: number;
  host: string;
  /** CIDRs whose X-Forwarded-For is believed */
  trustedProxies: string[];
  /** lifetime of a login session in milliseconds */
  sessionTtlMs: number;
  /** the lowest log level written (LOG_LEVEL) */
  logLevel: LogLevel;
  /**
   * bearer token `GET /metrics` requires; undefined: /metrics answers whoever reaches the service
   * port (bound to 127.0.0.1 unless HOST says otherwise), as a Prometheus scrape expects
   */
  metricsToken: string | undefined;
  /** how long start-up retries an unreachable database, in milliseconds (default 60 s) */
  databaseWaitMs: number;
  /** SERVICE_SECRET_KEY (shared/src/secret-box.ts); the entry refuses to start without it */
  secretKey: string | undefined;
  /**
   * WEBHOOK_ALLOW_PRIVATE: outbound targets (webhook target_url, a chain's jwt_jwks_url) on
   * loopback, private, link-local, unique-local and other non-public addresses are accepted (and
   * fetched); false (default) refuses them with 419 (SSRF, net/public-target.ts)
   */
  allowPrivateWebhooks: boolean;
  /** how often an idle outbox worker looks for due deliveries, in milliseconds (OUTBOX_POLL_MS) */
  outboxPollMs: number;
  /** longest wait for a receiver's answer to one delivery attempt, in milliseconds (OUTBOX_TIMEOUT_MS) */
  outboxTimeoutMs: number;
  /**
   * how long one call to a chain's webshop connector may take, in milliseconds (WEBSHOP_TIMEOUT_MS,
   * default 5 s): a shopper login through the webshop waits no longer before answering 503
   */
  webshopTimeoutMs: number;
  /**
   * WEB_CONCURRENCY: worker processes the Node entries serve with (shared/src/worker-processes.ts);
   * undefined: the machine's core count. The Deno entry serves in one process.
   */
  webConcurrency: number | undefined;
}

/**
 * Reads and checks every core API variable; empty values count as unset.
 * @param env environment variables
 * @returns the config, or `problems`: one line per bad variable, such as
 *   `CORE_API_PORT: must be a port number` (values are never echoed: they may be secrets)
 */
export function parseCoreConfig(env: Record<string, string | undefined>): ConfigResult<CoreConfig> {
  const parsed = parseEnvironment(schema, env);
  if (!parsed.ok) return parsed;
  const e = parsed.config;
  return {
    ok: true,
    config: {
      databaseUrl: e.DATABASE_URL,
      dbName: e.CORE_DB_NAME,
      port: e.CORE_API_PORT,
      host: e.HOST,
      trustedProxies: splitList(e.TRUSTED_PROXIES),
      sessionTtlMs: e.SESSION_TTL_HOURS * 3600_000,
      logLevel: e.LOG_LEVEL,
      metricsToken: e.METRICS_TOKEN,
      databaseWaitMs: e.DATABASE_WAIT_SECONDS * 1000,
      secretKey: e.SERVICE_SECRET_KEY,
      allowPrivateWebhooks: e.WEBHOOK_ALLOW_PRIVATE,
      outboxPollMs: e.OUTBOX_POLL_MS,
      outboxTimeoutMs: e.OUTBOX_TIMEOUT_MS,
      webshopTimeoutMs: e.WEBSHOP_TIMEOUT_MS,
      webConcurrency: e.WEB_CONCURRENCY,
    },
  };
}

/**
 * parseCoreConfig for callers that cannot go on without a config (tests, the entries).
 * @param env environment variables
 * @throws Error whose message lists the problem lines, one per bad variable
 */
export function loadCoreConfig(env: Record<string, string | undefined>): CoreConfig {
  const result = parseCoreConfig(env);
  if (!result.ok) throw new Error(`invalid configuration: ${result.problems.join("; ")}`);
  return result.config;
}
