/** The connector's configuration: every variable, one line per bad one without its value. */
import { describe, expect, it } from "vitest";
import { CONNECTOR_VARIABLES, parseConnectorConfig } from "./config.ts";

describe("parseConnectorConfig", () => {
  it("reads every variable it names", () => {
    expect(CONNECTOR_VARIABLES).toEqual([
      "DATABASE_URL", "HOST", "METRICS_TOKEN", "DATABASE_WAIT_SECONDS", "WEB_CONCURRENCY", "WEBSHOP_DB_NAME", "CONNECTOR_PORT", "SEED_CHAIN_ID", "SEED_INTEGRATION_TOKEN",
      "LOG_LEVEL", "TRUSTED_PROXIES", "SERVICE_SECRET_KEY",
    ]);
    const result = parseConnectorConfig({
      DATABASE_URL: "mysql://shop@db:3306", HOST: "::", METRICS_TOKEN: "t".repeat(20), DATABASE_WAIT_SECONDS: "0",
      WEBSHOP_DB_NAME: "shop_2", CONNECTOR_PORT: "0", SEED_CHAIN_ID: "7", SEED_INTEGRATION_TOKEN: "s".repeat(16),
      LOG_LEVEL: "warn", TRUSTED_PROXIES: "10.0.0.0/8, 192.168.1.1", SERVICE_SECRET_KEY: "k".repeat(40), WEB_CONCURRENCY: "4",
    });
    expect(result).toEqual({
      ok: true,
      config: {
        databaseUrl: "mysql://shop@db:3306", dbName: "shop_2", port: 0, host: "::", seedChainId: 7, seedIntegrationToken: "s".repeat(16),
        trustedProxies: ["10.0.0.0/8", "192.168.1.1"], bodyLimitBytes: 1024 * 1024, logLevel: "warn",
        metricsToken: "t".repeat(20), databaseWaitMs: 0, secretKey: "k".repeat(40), webConcurrency: 4,
      },
    });
  });

  it("reports every bad variable in one line each, never its value", () => {
    const result = parseConnectorConfig({
      CONNECTOR_PORT: "-1", SEED_CHAIN_ID: "first", SEED_INTEGRATION_TOKEN: "guessable", DATABASE_WAIT_SECONDS: "-5",
      LOG_LEVEL: "loud", TRUSTED_PROXIES: "10.0.0.0/33", SERVICE_SECRET_KEY: "kept-short", WEB_CONCURRENCY: "many",
    });
    expect(result).toEqual({
      ok: false,
      problems: [
        "DATABASE_WAIT_SECONDS: must be 0 or more seconds",
        "WEB_CONCURRENCY: must be a number of processes (1-256)",
        "CONNECTOR_PORT: must be a port number (0-65535)",
        "SEED_CHAIN_ID: must be a chain id",
        "SEED_INTEGRATION_TOKEN: must be at least 16 characters",
        "LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent",
        "TRUSTED_PROXIES: must be a comma-separated list of CIDR ranges or addresses",
        "SERVICE_SECRET_KEY: must be at least 32 characters (npm start generates one into .secret-key)",
      ],
    });
    expect(JSON.stringify(result)).not.toMatch(/guessable|loud|10\.0\.0\.0\/33|kept-short|many/);
  });
});
