/**
 * Core API configuration from the environment (handbook, "Configuration"). Takes the
 * environment as a plain map so it runs the same on Node (`process.env`) and Deno
 * (`Deno.env.toObject()`). Every variable is checked before anything starts; a bad one is
 * reported as one line naming it (shared/src/node/service-env.ts).
 */
import { commonConfig, commonVariables, configOrThrow, databaseNameVariable, parseEnvironment, portVariable, type CommonConfig, type ConfigResult } from "@service/shared/node";
import { z } from "zod";
import { OUTBOX_DEFAULTS } from "./outbox/outbox-settings.ts";

const schema = z.object({
  ...commonVariables,
  CORE_DB_NAME: databaseNameVariable("service_core"),
  CORE_API_PORT: portVariable(8080),
  SESSION_TTL_HOURS: z.coerce.number({ error: "must be a number of hours" }).positive("must be a positive number of hours").default(24),
  WEBHOOK_ALLOW_PRIVATE: z.stringbool({ error: "must be true or false" }).default(false),
  OUTBOX_POLL_MS: z.coerce.number({ error: "must be a number of milliseconds" }).int("must be a whole number of milliseconds")
    .min(10, "must be at least 10 milliseconds").max(60_000, "must be at most 60000 milliseconds").default(OUTBOX_DEFAULTS.pollMs),
  OUTBOX_TIMEOUT_MS: z.coerce.number({ error: "must be a number of milliseconds" }).int("must be a whole number of milliseconds")
    .min(100, "must be at least 100 milliseconds").max(60_000, "must be at most 60000 milliseconds").default(OUTBOX_DEFAULTS.timeoutMs),
  /** how long a call to a chain's webshop connector (its authentication point) may take */
  WEBSHOP_TIMEOUT_MS: z.coerce.number({ error: "must be a number of milliseconds" }).int("must be a whole number of milliseconds")
    .min(100, "must be at least 100 milliseconds").max(60_000, "must be at most 60000 milliseconds").default(5_000),
  /** `off`: every add-business and every add-basket writes a transaction of its own (db/group-commit.ts), for measuring without group commit */
  GROUP_COMMIT: z.enum(["on", "off"], { error: "must be on or off" }).default("on"),
  /** `off`: the compiled selects run as drizzle's own prepared queries (db/compiled-select.ts), for measuring without them */
  COMPILED_SELECTS: z.enum(["on", "off"], { error: "must be on or off" }).default("on"),
  /** `off`: every request with credentials runs its own check (auth/check-coalescer.ts), for measuring without shared checks */
  CHECK_COALESCING: z.enum(["on", "off"], { error: "must be on or off" }).default("on"),
  /** `off`: the search's hot statements are rendered on every run (businesses/query.ts), for measuring without rendering once per shape */
  SEARCH_SHAPES: z.enum(["on", "off"], { error: "must be on or off" }).default("on"),
  /** `off`: new businesses (add-business, POST /resources/business) are read back instead of answered as written (db/inserted-row.ts), for measuring without that */
  ROWS_AS_WRITTEN: z.enum(["on", "off"], { error: "must be on or off" }).default("on"),
});

/** Every variable the core API reads (README, "Configuration", documents each). */
export const CORE_VARIABLES = Object.keys(schema.shape);

/** The core API's configuration: the common part (@service/shared/node, service-env.ts) and its own. */
export interface CoreConfig extends CommonConfig {
  /** lifetime of a login session in milliseconds */
  sessionTtlMs: number;
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
  /** GROUP_COMMIT: concurrent add-business calls share a transaction, and so do concurrent add-basket calls (default on; db/group-commit.ts, baskets/sale-batch.ts) */
  groupCommit: boolean;
  /** COMPILED_SELECTS: the hot selects run as compiled selects (default on; off: drizzle's prepared queries, db/compiled-select.ts) */
  compiledSelects: boolean;
  /** CHECK_COALESCING: concurrent requests with the same credentials share the check (default on; off: one check per request, auth/check-coalescer.ts) */
  checkCoalescing: boolean;
  /** SEARCH_SHAPES: the search's hot statements are rendered once per shape (default on; off: on every run, businesses/query.ts) */
  searchShapes: boolean;
  /** ROWS_AS_WRITTEN: new businesses are answered as written (default on; off: read back in the same transaction, businesses/business-repository.ts) */
  rowsAsWritten: boolean;
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
      ...commonConfig(e, { dbName: e.CORE_DB_NAME, port: e.CORE_API_PORT }),
      sessionTtlMs: e.SESSION_TTL_HOURS * 3600_000,
      allowPrivateWebhooks: e.WEBHOOK_ALLOW_PRIVATE,
      outboxPollMs: e.OUTBOX_POLL_MS,
      outboxTimeoutMs: e.OUTBOX_TIMEOUT_MS,
      webshopTimeoutMs: e.WEBSHOP_TIMEOUT_MS,
      groupCommit: e.GROUP_COMMIT === "on",
      compiledSelects: e.COMPILED_SELECTS === "on",
      checkCoalescing: e.CHECK_COALESCING === "on",
      searchShapes: e.SEARCH_SHAPES === "on",
      rowsAsWritten: e.ROWS_AS_WRITTEN === "on",
    },
  };
}

/**
 * parseCoreConfig for callers that cannot go on without a config (tests, the entries).
 * @param env environment variables
 * @throws Error whose message lists the problem lines, one per bad variable
 */
export function loadCoreConfig(env: Record<string, string | undefined>): CoreConfig {
  return configOrThrow(parseCoreConfig(env), "configuration");
}
