/** The core API's configuration: defaults, and one line per bad variable without its value. */
import { describe, expect, it } from "vitest";
import { CORE_VARIABLES, loadCoreConfig, parseCoreConfig } from "./config.ts";

describe("parseCoreConfig", () => {
  it("applies the handbook's defaults; empty values count as unset", () => {
    expect(parseCoreConfig({ CORE_API_PORT: "", METRICS_TOKEN: "" })).toEqual({
      ok: true,
      config: {
        databaseUrl: "mysql://root@127.0.0.1:3306", dbName: "service_core", port: 8080, host: "127.0.0.1",
        trustedProxies: [], sessionTtlMs: 24 * 3600_000, logLevel: "info", metricsToken: undefined, databaseWaitMs: 60_000, secretKey: undefined,
        allowPrivateWebhooks: false, outboxPollMs: 1_000, outboxTimeoutMs: 10_000,
        webshopTimeoutMs: 5_000, webConcurrency: undefined, requestDeadlineMs: 5_000, groupCommit: true, compiledSelects: true, checkCoalescing: true,
        searchShapes: true, rowsAsWritten: true,
      },
    });
  });

  it("reads every variable it names", () => {
    const result = parseCoreConfig({
      DATABASE_URL: "mysql://app:pw@db:3307", CORE_DB_NAME: "core_2", CORE_API_PORT: "9000", HOST: "0.0.0.0",
      TRUSTED_PROXIES: "10.0.0.0/8, ::1", SESSION_TTL_HOURS: "1.5", METRICS_TOKEN: "m".repeat(16), DATABASE_WAIT_SECONDS: "5",
      LOG_LEVEL: "debug", SERVICE_SECRET_KEY: "s".repeat(32), WEBHOOK_ALLOW_PRIVATE: "true", OUTBOX_POLL_MS: "250", OUTBOX_TIMEOUT_MS: "3000",
      WEBSHOP_TIMEOUT_MS: "1500", WEB_CONCURRENCY: "3", REQUEST_DEADLINE_MS: "2500", GROUP_COMMIT: "off", COMPILED_SELECTS: "off",
      CHECK_COALESCING: "off", SEARCH_SHAPES: "off", ROWS_AS_WRITTEN: "off",
    });
    expect(result).toEqual({
      ok: true,
      config: {
        databaseUrl: "mysql://app:pw@db:3307", dbName: "core_2", port: 9000, host: "0.0.0.0", trustedProxies: ["10.0.0.0/8", "::1"],
        sessionTtlMs: 5_400_000, logLevel: "debug", metricsToken: "m".repeat(16), databaseWaitMs: 5_000, secretKey: "s".repeat(32),
        allowPrivateWebhooks: true, outboxPollMs: 250, outboxTimeoutMs: 3_000,
        webshopTimeoutMs: 1_500, webConcurrency: 3, requestDeadlineMs: 2_500, groupCommit: false, compiledSelects: false, checkCoalescing: false,
        searchShapes: false, rowsAsWritten: false,
      },
    });
    expect(CORE_VARIABLES).toEqual([
      "DATABASE_URL", "HOST", "METRICS_TOKEN", "DATABASE_WAIT_SECONDS", "WEB_CONCURRENCY", "REQUEST_DEADLINE_MS", "LOG_LEVEL", "TRUSTED_PROXIES", "SERVICE_SECRET_KEY",
      "CORE_DB_NAME", "CORE_API_PORT", "SESSION_TTL_HOURS", "WEBHOOK_ALLOW_PRIVATE", "OUTBOX_POLL_MS", "OUTBOX_TIMEOUT_MS", "WEBSHOP_TIMEOUT_MS", "GROUP_COMMIT", "COMPILED_SELECTS", "CHECK_COALESCING",
      "SEARCH_SHAPES", "ROWS_AS_WRITTEN",
    ]);
  });

  it("reports every bad variable in one line each, never its value", () => {
    const result = parseCoreConfig({
      DATABASE_URL: "https://secret-host", CORE_DB_NAME: "core-db", CORE_API_PORT: "70000", TRUSTED_PROXIES: "10.0.0.0/8,10.0.0/8",
      SESSION_TTL_HOURS: "0", METRICS_TOKEN: "too-short", DATABASE_WAIT_SECONDS: "soon", LOG_LEVEL: "loud", SERVICE_SECRET_KEY: "too-short-key",
      WEBHOOK_ALLOW_PRIVATE: "maybe", OUTBOX_POLL_MS: "5", OUTBOX_TIMEOUT_MS: "fast", WEBSHOP_TIMEOUT_MS: "50", WEB_CONCURRENCY: "0",
      REQUEST_DEADLINE_MS: "5s", GROUP_COMMIT: "maybe", COMPILED_SELECTS: "no", CHECK_COALESCING: "yes", SEARCH_SHAPES: "once",
      ROWS_AS_WRITTEN: "maybe",
    });
    expect(result).toEqual({
      ok: false,
      problems: [
        "DATABASE_URL: must be a mysql:// URL, for example mysql://root@127.0.0.1:3306",
        "METRICS_TOKEN: must be at least 16 characters (or unset: /metrics open on the service port)",
        "DATABASE_WAIT_SECONDS: must be a number of seconds",
        "WEB_CONCURRENCY: must be a number of processes (1-256)",
        "REQUEST_DEADLINE_MS: must be a number of milliseconds",
        "LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent",
        "TRUSTED_PROXIES: must be a comma-separated list of CIDR ranges or addresses",
        "SERVICE_SECRET_KEY: must be at least 32 characters (npm start generates one into .secret-key)",
        "CORE_DB_NAME: must be letters, digits and underscores",
        "CORE_API_PORT: must be a port number (0-65535)",
        "SESSION_TTL_HOURS: must be a positive number of hours",
        "WEBHOOK_ALLOW_PRIVATE: must be true or false",
        "OUTBOX_POLL_MS: must be at least 10 milliseconds",
        "OUTBOX_TIMEOUT_MS: must be a number of milliseconds",
        "WEBSHOP_TIMEOUT_MS: must be at least 100 milliseconds",
        "GROUP_COMMIT: must be on or off",
        "COMPILED_SELECTS: must be on or off",
        "CHECK_COALESCING: must be on or off",
        "SEARCH_SHAPES: must be on or off",
        "ROWS_AS_WRITTEN: must be on or off",
      ],
    });
    expect(JSON.stringify(result)).not.toMatch(/secret-host|too-short|soon|loud|too-short-key|maybe|fast/);
  });

  it("WEB_CONCURRENCY is a whole number of processes, 1 to 256", () => {
    for (const bad of ["two", "1.5", "257", "-1"]) {
      const result = parseCoreConfig({ WEB_CONCURRENCY: bad });
      expect(result.ok, bad).toBe(false);
      expect(!result.ok && result.problems[0]!.startsWith("WEB_CONCURRENCY: must be a")).toBe(true);
    }
    for (const good of ["1", "256"]) expect(parseCoreConfig({ WEB_CONCURRENCY: good }).ok).toBe(true);
  });

  it("loadCoreConfig throws with the same lines", () => {
    expect(() => loadCoreConfig({ CORE_API_PORT: "http" })).toThrow("invalid configuration: CORE_API_PORT: must be a port number");
  });
});
