/**
 * The connector's operations endpoints, answered without an integration token
 * (@service/shared/health; the readiness check is databaseReadiness of @service/shared/node):
 * - `GET /health`: 200 while the process runs;
 * - `GET /ready`: 200 when the customer store answers and holds every migration shipped in
 *   db/migrations, 503 otherwise;
 * - `GET /`: the service's name and version (package.json) and links to the two above.
 */
import type { HealthDocument, MigrationJournal, ServiceDocument } from "@service/shared/health";
import { databaseReadiness } from "@service/shared/node";
import { Router } from "express";
import packageJson from "../../package.json" with { type: "json" };
import journal from "../db/migrations/meta/_journal.json" with { type: "json" };
import type { ConnectorDb } from "../db/client.ts";
import type { Logger } from "../logger.ts";

/** What the endpoints need. */
export interface ConnectorHealthOptions {
  db: ConnectorDb;
  /** where an unreachable database is reported (one warning per failed check) */
  logger: Pick<Logger, "warn">;
  /** how long `/ready` waits for the database; default READY_TIMEOUT_MS */
  readyTimeoutMs?: number;
  /** the migration journal to compare with; default the one shipped in db/migrations */
  journal?: MigrationJournal;
}

/** The router of `GET /health`, `GET /ready` and `GET /`, to mount at the root. */
export function healthRoutes(options: ConnectorHealthOptions): Router {
  const shipped = options.journal ?? journal;
  const router = Router();
  router.get("/health", (_req, res) => {
    res.json({ status: "ok" } satisfies HealthDocument);
  });
  router.get("/ready", async (_req, res) => {
    const ready = await databaseReadiness(options.db, shipped, options.logger, options.readyTimeoutMs);
    res.status(ready.status === "ready" ? 200 : 503).json(ready);
  });
  router.get("/", (_req, res) => {
    res.json({ name: packageJson.name, version: packageJson.version, links: { health: "/health", ready: "/ready" } } satisfies ServiceDocument);
  });
  return router;
}
