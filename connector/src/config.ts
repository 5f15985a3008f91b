/**
 * Connector configuration from the environment (handbook, "Configuration"; names fixed so that
 * scripts, compose and tests agree).
 */
import { commonConfig, commonVariables, configOrThrow, databaseNameVariable, parseEnvironment, portVariable, type CommonConfig, type ConfigResult } from "@service/shared/node";
import { z } from "zod";
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
  /** when the reconcile runs (sync/sync-cron.ts): a cron expression, or `off` */
  SYNC_CRON: z.string().trim().default(DEFAULT_SYNC_CRON)
    .refine(isSyncCronExpression, `must be a cron expression such as ${DEFAULT_SYNC_CRON}, or ${SYNC_CRON_OFF}`),
  /**
   * how many customer password hashes (argon2id, 64 MiB each) one process runs at once; unset:
   * its share of the cores (customers/hash-slots.ts reads it when the process loads)
   */
  HASH_SLOTS: z.coerce.number({ error: "must be a whole number from 1 to 64" }).int("must be a whole number from 1 to 64")
    .min(1, "must be a whole number from 1 to 64").max(64, "must be a whole number from 1 to 64").optional(),
});

/** Every variable the connector reads (README, "Configuration", documents each). */
export const CONNECTOR_VARIABLES = Object.keys(envSchema.shape);

/** The connector's configuration: the common part (@service/shared/node, service-env.ts) and its own. */
export interface ConnectorConfig extends CommonConfig {
  /** SEED_CHAIN_ID: the chain the seed maps the shop's website to; undefined: see the variable */
  seedChainId: number | undefined;
  seedIntegrationToken: string | undefined;
  /** largest accepted JSON body, bytes */
  bodyLimitBytes: number;
  /** SYNC_CRON: when the reconcile runs (a cron expression); null when `off` */
  syncCron: string | null;
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
      ...commonConfig(e, { dbName: e.WEBSHOP_DB_NAME, port: e.CONNECTOR_PORT }),
      seedChainId: e.SEED_CHAIN_ID,
      seedIntegrationToken: e.SEED_INTEGRATION_TOKEN,
      bodyLimitBytes: BODY_LIMIT_BYTES,
      syncCron: e.SYNC_CRON === SYNC_CRON_OFF ? null : e.SYNC_CRON,
    },
  };
}

/**
 * parseConnectorConfig for callers that cannot go on without a config (tests, the entry).
 * @param env defaults to process.env
 * @throws Error whose message lists the problem lines, one per bad variable
 */
export function loadConnectorConfig(env: Record<string, string | undefined> = process.env): ConnectorConfig {
  return configOrThrow(parseConnectorConfig(env), "connector configuration");
}
