/**
 * Connector configuration from the environment (handbook, "Configuration"; names fixed so that
 * scripts, compose and tests agree).
 */
import { commonVariables, databaseNameVariable, parseEnvironment, portVariable, secretKeyVariable, splitList, type ConfigResult } from "@service/shared/service-env";
import { z } from "zod";
import { parseTrustedProxies } from "./http/trusted-proxies.ts";
import { LOG_LEVELS, type LogLevel } from "./logger.ts";
import { DEFAULT_SYNC_CRON, isSyncCronExpression, SYNC_CRON_OFF } from "./sync/sync-cron.ts";

const envSchema = z.object({
  ...commonVariables,
  WEBSHOP_DB_NAME: databaseNameVariable("service_webshop"),
  CONNECTOR_PORT: portVariable(8081),
  /**
   * the chain the seed maps the shop's website to; unset: the demo chain core-api seeded, when
   * both start in one process (npm start, npm run migrate), else no chain
   */
  SEED_CHAIN_ID: z.coerce.number({ error: "must be a chain id" }).int("must be a chain id").positive("must be a chain id").optional(),
  /** seeded as an accepted integration token when set */
  SEED_INTEGRATION_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  /** the lowest log level written */
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(", ")}` }).default("info"),
  /** CIDRs of our own proxies (comma or space separated): only their X-Forwarded-For and X-Request-Id are believed */
  TRUSTED_PROXIES: z.string().default("").refine((v) => {
    try {
      parseTrustedProxies(splitList(v));
      return true;
    } catch {
      return false;
    }
  }, "must be a comma-separated list of CIDR ranges or addresses"),
  SERVICE_SECRET_KEY: secretKeyVariable(),
  /** when the reconcile runs (sync/sync-cron.ts): a cron expression, or `off` */
  SYNC_CRON: z.string().trim().default(DEFAULT_SYNC_CRON)
    .refine(isSyncCronExpression, `must be a cron expression such as ${DEFAULT_SYNC_CRON}, or ${SYNC_CRON_OFF}`),
});

/** Every variable the connector reads (README, "Configuration", documents each). */
export const CONNECTOR_VARIABLES = Object.keys(envSchema.shape);

/** Typed connector configuration. */
export interface ConnectorConfig {
  databaseUrl: string;
  dbName: string;
  port: number;
  host: string;
  /** SEED_CHAIN_ID: the chain the seed maps the shop's website to; undefined: see the variable */
  seedChainId: number | undefined;
  seedIntegrationToken: string | undefined;
  /** CIDRs of our own proxies (TRUSTED_PROXIES): their X-Forwarded-For entries are skipped to reach the client address (http/client-address.ts) and their X-Request-Id is kept */
  trustedProxies: string[];
  /** largest accepted JSON body, bytes */
  bodyLimitBytes: number;
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
  /** SYNC_CRON: when the reconcile runs (a cron expression); null when `off` */
  syncCron: string | null;
  /** WEB_CONCURRENCY: worker processes the entries serve with (shared/src/worker-processes.ts); undefined: the core count */
  webConcurrency: number | undefined;
  /**
   * REQUEST_DEADLINE_MS: how long one request may spend on the database in all, in milliseconds
   * (default 5 s; @service/shared/node, request-deadline.ts), then 503 with Retry-After
   */
  requestDeadlineMs: number;
}

/** Largest JSON body the connector parses (the handbook's 1 MiB request limit). */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Reads and checks every connector variable; empty values count as unset.
 * @param env defaults to process.env
 * @returns the config, or `problems`: one line per bad variable, such as
 *   `CONNECTOR_PORT: must be a port number` (values are never echoed: they may be secrets)
 */
export function parseConnectorConfig(env: Record<string, string | undefined> = process.env): ConfigResult<ConnectorConfig> {
  const parsed = parseEnvironment(envSchema, env);
  if (!parsed.ok) return parsed;
  const e = parsed.config;
  return {
    ok: true,
    config: {
      databaseUrl: e.DATABASE_URL,
      dbName: e.WEBSHOP_DB_NAME,
      port: e.CONNECTOR_PORT,
      host: e.HOST,
      seedChainId: e.SEED_CHAIN_ID,
      seedIntegrationToken: e.SEED_INTEGRATION_TOKEN,
      trustedProxies: splitList(e.TRUSTED_PROXIES),
      bodyLimitBytes: BODY_LIMIT_BYTES,
      logLevel: e.LOG_LEVEL,
      metricsToken: e.METRICS_TOKEN,
      databaseWaitMs: e.DATABASE_WAIT_SECONDS * 1000,
      secretKey: e.SERVICE_SECRET_KEY,
      syncCron: e.SYNC_CRON === SYNC_CRON_OFF ? null : e.SYNC_CRON,
      webConcurrency: e.WEB_CONCURRENCY,
      requestDeadlineMs: e.REQUEST_DEADLINE_MS,
    },
  };
}

/**
 * parseConnectorConfig for callers that cannot go on without a config (tests, the entry).
 * @param env defaults to process.env
 * @throws Error whose message lists the problem lines, one per bad variable
 */
export function loadConnectorConfig(env: Record<string, string | undefined> = process.env): ConnectorConfig {
  const result = parseConnectorConfig(env);
  if (!result.ok) throw new Error(`invalid connector configuration: ${result.problems.join("; ")}`);
  return result.config;
}
