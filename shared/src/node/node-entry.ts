/**
 * The Node runtime entry of the shared package (`@service/shared/node`): what both services and
 * the scripts share beyond the contracts, and which may use Node's built-in modules (Deno provides
 * them too) and do I/O: the configuration helpers, the listen / workers / graceful-shutdown
 * bootstrap, the metrics set-up, trusted proxies, the database sessions' settings, pool guards and
 * retry policy, the canonical `last_hash` of a user info object (node:crypto), and the migrations
 * runner. The contracts entry (`@service/shared`) stays free of all of it.
 */
export * from "./applied-migrations.ts";
export * from "./cluster-metrics.ts";
export * from "./database-pool.ts";
export * from "./database-session.ts";
export * from "./db-timeouts.ts";
export * from "./listen-error.ts";
export * from "./migrations.ts";
export * from "./pool-gauges.ts";
export * from "./log-output.ts";
export * from "./pretty-log.ts";
export * from "./request-deadline.ts";
export * from "./request-metrics.ts";
export * from "./secret-key-file.ts";
export * from "./service-entry.ts";
export * from "./service-env.ts";
export * from "./transaction-runner.ts";
export * from "./trusted-proxies.ts";
export * from "./user-info-hash.ts";
export * from "./worker-processes.ts";
