/**
 * Connector configuration from the environment (handbook, "Configuration"; names fixed so that
 * scripts, compose and tests agree).
 */
import { z } from "zod";
import { parseTrustedProxies } from "./http/trusted-proxies.ts";
import { LOG_LEVELS, type LogLevel } from "./logger.ts";

const envSchema = z.object({
  DATABASE_URL: z.string().url().default("mysql://root@127.0.0.1:3306"),
  WEBSHOP_DB_NAME: z.string().regex(/^[A-Za-z0-9_]+$/).default("service_webshop"),
  CONNECTOR_PORT: z.coerce.number().int().min(0).max(65535).default(8081),
  HOST: z.string().min(1).default("127.0.0.1"),
  /** the demo chain the seed maps to the shop's website (the demo chain gets id 1) */
  SEED_CHAIN_ID: z.coerce.number().int().positive().default(1),
  /** seeded as an accepted integration token when set */
  SEED_INTEGRATION_TOKEN: z.string().min(16).optional(),
  /** the lowest log level written */
  LOG_LEVEL: z.enum(LOG_LEVELS).default("info"),
  /** CIDRs of our own proxies (comma or space separated): only their X-Forwarded-For and X-Request-Id are believed */
  TRUSTED_PROXIES: z.string().default(""),
});

/** Typed connector configuration. */
export interface ConnectorConfig {
  databaseUrl: string;
  dbName: string;
  port: number;
  host: string;
  seedChainId: number;
  seedIntegrationToken: string | undefined;
  /** CIDRs of our own proxies (TRUSTED_PROXIES): their X-Forwarded-For gives the client address (the authenticate limit counts per address) and their X-Request-Id is kept */
  trustedProxies: string[];
  /** largest accepted JSON body, bytes */
  bodyLimitBytes: number;
  /** the lowest log level written (LOG_LEVEL) */
  logLevel: LogLevel;
}

/** Largest JSON body the connector parses (the handbook's 1 MiB request limit). */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Reads the configuration; empty variables count as unset.
 * @param env defaults to process.env
 * @throws Error naming the invalid variables, or the malformed TRUSTED_PROXIES entry
 */
export function loadConnectorConfig(env: Record<string, string | undefined> = process.env): ConnectorConfig {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const names = parsed.error.issues.map((i) => i.path.join(".")).join(", ");
    throw new Error(`invalid connector configuration: ${names}`);
  }
  const e = parsed.data;
  const trustedProxies = e.TRUSTED_PROXIES.split(/[\s,]+/).filter(Boolean);
  parseTrustedProxies(trustedProxies); // refused at start-up, naming the bad entry
  return {
    databaseUrl: e.DATABASE_URL,
    dbName: e.WEBSHOP_DB_NAME,
    port: e.CONNECTOR_PORT,
    host: e.HOST,
    seedChainId: e.SEED_CHAIN_ID,
    seedIntegrationToken: e.SEED_INTEGRATION_TOKEN,
    bodyLimitBytes: BODY_LIMIT_BYTES,
    logLevel: e.LOG_LEVEL,
    trustedProxies,
  };
}
