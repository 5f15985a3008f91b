/**
 * Core API configuration from the environment (handbook, "Configuration"). Takes the
 * environment as a plain map so it runs the same on Node (`process.env`) and Deno
 * (`Deno.env.toObject()`).
 */
import { z } from "zod";
import { LOG_LEVELS, type LogLevel } from "./logger.ts";

const schema = z.object({
  DATABASE_URL: z.string().url().default("mysql://root@127.0.0.1:3306"),
  CORE_DB_NAME: z.string().regex(/^[A-Za-z0-9_]+$/).default("service_core"),
  CORE_API_PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default("127.0.0.1"),
  TRUSTED_PROXIES: z.string().default(""),
  SESSION_TTL_HOURS: z.coerce.number().positive().default(24),
  LOG_LEVEL: z.enum(LOG_LEVELS).default("info"),
});

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
}

/**
 * @param env environment variables
 * @throws Error naming the offending variable when a value is malformed
 */
export function loadCoreConfig(env: Record<string, string | undefined>): CoreConfig {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`invalid configuration ${issue?.path.join(".")}: ${issue?.message}`);
  }
  const e = parsed.data;
  return {
    databaseUrl: e.DATABASE_URL,
    dbName: e.CORE_DB_NAME,
    port: e.CORE_API_PORT,
    host: e.HOST,
    trustedProxies: e.TRUSTED_PROXIES.split(",").map((s) => s.trim()).filter(Boolean),
    sessionTtlMs: e.SESSION_TTL_HOURS * 3600_000,
    logLevel: e.LOG_LEVEL,
  };
}
