/**
 * The operations endpoints of the core API, answered without authentication and before any
 * credential is read (app.ts registers them ahead of the authentication middleware), so a probe
 * never costs a session lookup (@service/shared/health; the readiness check is
 * databaseReadiness of @service/shared/node):
 * - `GET /health`: 200 while the process runs;
 * - `GET /ready`: 200 when the database answers and holds every migration shipped in
 *   db/migrations (the journal is imported as JSON: no file system, so Deno runs it too), 503
 *   otherwise;
 * - `GET /`: the service's name and version (package.json) and links (the docs page, the schema).
 */
import type { HealthDocument, MigrationJournal, ServiceDocument } from "@service/shared/health";
import { databaseReadiness } from "@service/shared/node";
import type { Hono } from "hono";
import packageJson from "../../package.json" with { type: "json" };
import journal from "../db/migrations/meta/_journal.json" with { type: "json" };
import type { CoreDb } from "../db/client.ts";
import type { AppEnv } from "../auth/request-context.ts";
import type { Logger } from "../logger.ts";

/** What the endpoints need. */
export interface HealthOptions {
  db: CoreDb;
  /** where an unreachable database is reported (one warning per failed check) */
  logger: Pick<Logger, "warn">;
  /** the links `GET /` shows, by purpose, for example `{ docs: "/docs" }` */
  links: Record<string, string>;
  /** how long `/ready` waits for the database; default READY_TIMEOUT_MS */
  readyTimeoutMs?: number;
  /** the migration journal to compare with; default the one shipped in db/migrations (tests pass another) */
  journal?: MigrationJournal;
}

/** Mounts `GET /health`, `GET /ready` and `GET /` on `app`. */
export function registerHealth(app: Hono<AppEnv>, options: HealthOptions): void {
  const shipped = options.journal ?? journal;
  app.get("/health", (c) => c.json({ status: "ok" } satisfies HealthDocument));
  app.get("/ready", async (c) => {
    const ready = await databaseReadiness(options.db, shipped, options.logger, options.readyTimeoutMs);
    return c.json(ready, ready.status === "ready" ? 200 : 503);
  });
  app.get("/", (c) => c.json({ name: packageJson.name, version: packageJson.version, links: options.links } satisfies ServiceDocument));
}
