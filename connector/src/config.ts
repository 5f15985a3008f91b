/**
 * Connector configuration from the environment (handbook, "Configuration"; names fixed so that
 * scripts, compose and tests agree).
 */
import { z } from "zod";

const envSchema = z.object({
  DATABASE_URL: z.string().url().default("mysql://root@127.0.0.1:3306"),
  WEBSHOP_DB_NAME: z.string().regex(/^[A-Za-z0-9_]+$/).default("service_webshop"),
  CONNECTOR_PORT: z.coerce.number().int().min(0).max(65535).default(8081),
  HOST: z.string().min(1).default("127.0.0.1"),
  /** the demo chain the seed maps to the shop's website (the demo chain gets id 1) */
  SEED_CHAIN_ID: z.coerce.number().int().positive().default(1),
  /** seeded as an accepted integration token when set */
  SEED_INTEGRATION_TOKEN: z.string().min(16).optional(),
  /** CIDRs (comma or space separated) whose X-Forwarded-For is believed for the client address */
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
  /** CIDRs of proxies whose X-Forwarded-For gives the client address (the authenticate limit counts per address) */
  trustedProxies: string[];
  /** largest accepted JSON body, bytes */
  bodyLimitBytes: number;
}

/** Largest JSON body the connector parses (the handbook's 1 MiB request limit). */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Reads the configuration; empty variables count as unset.
 * @param env defaults to process.env
 * @throws Error naming the invalid variables
 */
export function loadConnectorConfig(env: Record<string, string | undefined> = process.env): ConnectorConfig {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const names = parsed.error.issues.map((i) => i.path.join(".")).join(", ");
    throw new Error(`invalid connector configuration: ${names}`);
  }
  const e = parsed.data;
  return {
    databaseUrl: e.DATABASE_URL,
    dbName: e.WEBSHOP_DB_NAME,
    port: e.CONNECTOR_PORT,
    host: e.HOST,
    seedChainId: e.SEED_CHAIN_ID,
    seedIntegrationToken: e.SEED_INTEGRATION_TOKEN,
    trustedProxies: e.TRUSTED_PROXIES.split(/[\s,]+/).filter(Boolean),
    bodyLimitBytes: BODY_LIMIT_BYTES,
  };
}
