/** The connector's configuration: every variable, one line per bad one without its value. */
import { describe, expect, it } from "vitest";
import { CONNECTOR_VARIABLES, parseConnectorConfig } from "./config.ts";

describe("parseConnectorConfig", () => {
  it("reads every variable it names", () => {
    expect(CONNECTOR_VARIABLES).toEqual([
      "DATABASE_URL", "HOST", "METRICS_TOKEN", "DATABASE_WAIT_SECONDS", "WEB_CONCURRENCY", "REQUEST_DEADLINE_MS", "LOG_LEVEL", "TRUSTED_PROXIES", "SERVICE_SECRET_KEY",
      "WEBSHOP_DB_NAME", "CONNECTOR_PORT", "SEED_CHAIN_ID", "SEED_INTEGRATION_TOKEN", "SYNC_CRON", "HASH_SLOTS",
    ]);
    const result = parseConnectorConfig({
      DATABASE_URL: "mysql://shop@db:3306", HOST: "::", METRICS_TOKEN: "t".repeat(20), DATABASE_WAIT_SECONDS: "0",
      WEBSHOP_DB_NAME: "shop_2", CONNECTOR_PORT: "0", SEED_CHAIN_ID: "7", SEED_INTEGRATION_TOKEN: "s".repeat(16),
      LOG_LEVEL: "warn", TRUSTED_PROXIES: "10.0.0.0/8, 192.168.1.1", SERVICE_SECRET_KEY: "k".repeat(40), WEB_CONCURRENCY: "4",
      SYNC_CRON: "0 */2 * * *", REQUEST_DEADLINE_MS: "750", HASH_SLOTS: "3",
    });
    expect(result).toEqual({
      ok: true,
      config: {
        databaseUrl: "mysql://shop@db:3306", dbName: "shop_2", port: 0, host: "::", seedChainId: 7, seedIntegrationToken: "s".repeat(16),
        trustedProxies: ["10.0.0.0/8", "192.168.1.1"], bodyLimitBytes: 1024 * 1024, logLevel: "warn",
        metricsToken: "t".repeat(20), databaseWaitMs: 0, secretKey: "k".repeat(40), syncCron: "0 */2 * * *", webConcurrency: 4, requestDeadlineMs: 750,
      },
    });
  });

  it("runs the reconcile every 5 minutes unless SYNC_CRON says otherwise; off turns it off", () => {
    const syncCron = (value: string | undefined) => {
      const result = parseConnectorConfig({ SYNC_CRON: value });
      return result.ok ? result.config.syncCron : result.problems;
    };
    expect(syncCron(undefined)).toBe("*/5 * * * *");
    expect(syncCron("")).toBe("*/5 * * * *");
    expect(syncCron("*/30 * * * * *")).toBe("*/30 * * * * *");
    expect(syncCron("off")).toBeNull();
    for (const bad of ["every 5 minutes", "61 * * * *", "* * * *", "*/5 * * * * * *"]) {
      expect(syncCron(bad)).toEqual(["SYNC_CRON: must be a cron expression such as */5 * * * *, or off"]);
    }
  });

  it("takes HASH_SLOTS as a whole number from 1 to 64 (customers/hash-slots.ts reads it), unset by default", () => {
    const problems = (value: string | undefined) => {
      const result = parseConnectorConfig({ HASH_SLOTS: value });
      return result.ok ? [] : result.problems;
    };
    for (const good of [undefined, "", "1", "2", "64"]) expect(problems(good)).toEqual([]);
    for (const bad of ["0", "65", "1.5", "two", "-1"]) expect(problems(bad)).toEqual(["HASH_SLOTS: must be a whole number from 1 to 64"]);
  });

  it("reports every bad variable in one line each, never its value", () => {
    const result = parseConnectorConfig({
      CONNECTOR_PORT: "-1", SEED_CHAIN_ID: "first", SEED_INTEGRATION_TOKEN: "guessable", DATABASE_WAIT_SECONDS: "-5",
      LOG_LEVEL: "loud", TRUSTED_PROXIES: "10.0.0.0/33", SERVICE_SECRET_KEY: "kept-short", SYNC_CRON: "hourly-ish", WEB_CONCURRENCY: "many", HASH_SLOTS: "0",
    });
    expect(result).toEqual({
      ok: false,
      problems: [
        "DATABASE_WAIT_SECONDS: must be 0 or more seconds",
        "WEB_CONCURRENCY: must be a number of processes (1-256)",
        "LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent",
        "TRUSTED_PROXIES: must be a comma-separated list of CIDR ranges or addresses",
        "SERVICE_SECRET_KEY: must be at least 32 characters (npm start generates one into .secret-key)",
        "CONNECTOR_PORT: must be a port number (0-65535)",
        "SEED_CHAIN_ID: must be a chain id",
        "SEED_INTEGRATION_TOKEN: must be at least 16 characters",
        "SYNC_CRON: must be a cron expression such as */5 * * * *, or off",
        "HASH_SLOTS: must be a whole number from 1 to 64",
      ],
    });
    expect(JSON.stringify(result)).not.toMatch(/guessable|loud|10\.0\.0\.0\/33|kept-short|hourly-ish|many/);
  });
});
