/**
 * Migrated throwaway databases in a fraction of a migration's time. Each service's migrations run
 * once per test run, into a template database `test_tpl_<service>_<migrations hash>_<run id>`,
 * built by the first test file that needs it (a server-wide named lock, GET_LOCK, makes the other
 * workers wait for it and then share it); every further database is a copy (database-copy.ts).
 * The hash of the migrations folder is in the name, so a changed migration (watch mode) gets a new
 * template; a template left half-built by a killed worker is rebuilt (its journal is short).
 *
 * The run id comes from the run's global setup (test-run-databases.ts), which drops the run's
 * templates at the end and, at the start, every test database older than a day (killed runs).
 * Without it (the helpers used outside `vitest` with this repo's config) databases are migrated
 * for real.
 *
 * Tests of migrating itself call migrateCoreDatabase / migrateConnectorDatabase, not this.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import mysql from "mysql2/promise";
import { inject } from "vitest";
import { CORE_MIGRATIONS_FOLDER, migrateCoreDatabase } from "../../core-api/src/db/migrate.node.ts";
import { CONNECTOR_MIGRATIONS_FOLDER, migrateConnectorDatabase } from "../../connector/src/db/migrate.node.ts";
import { copyDatabase, readCopyPlan, type CopyPlan } from "./database-copy.ts";
import { TEMPLATE_PREFIX, TEST_DATABASE_URL } from "./databases.ts";

/** The services whose databases tests make: core-api's and the connector's customer store. */
export type MigratedService = "core" | "connector";

const MIGRATIONS: Record<MigratedService, { folder: string; migrate: (url: string, name: string) => Promise<void> }> = {
  core: { folder: CORE_MIGRATIONS_FOLDER, migrate: migrateCoreDatabase },
  connector: { folder: CONNECTOR_MIGRATIONS_FOLDER, migrate: migrateConnectorDatabase },
};

declare module "vitest" {
  export interface ProvidedContext {
    /** `<base-36 seconds>_<8 hex>`: names this run's templates (test-run-databases.ts) */
    testDatabaseRun: string;
  }
}

/** How long a worker waits for another to build a template, in seconds. */
const BUILD_WAIT_SECONDS = 300;

/**
 * Creates database `name` (must not exist) with `service`'s newest schema and the rows its
 * migrations seed, the drizzle journal included: the same as migrating it, in a copy's time.
 * @throws Error when the server is unreachable, `name` exists or is not `[A-Za-z0-9_]+`, or a
 *   migration fails (the template is then rebuilt by the next caller)
 */
export async function createMigratedDatabase(service: MigratedService, name: string): Promise<void> {
  const run = currentRun();
  if (run === undefined) return MIGRATIONS[service].migrate(TEST_DATABASE_URL, name);
  const plan = await templatePlan(service, run);
  await copyDatabase(TEST_DATABASE_URL, plan, name);
}

/** A short hash of every file under `folder` (names and contents), 10 hex characters. */
export function migrationsHash(folder: string): string {
  const hash = createHash("sha256");
  const files = readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
  for (const file of files) hash.update(relative(folder, file)).update("\0").update(readFileSync(file)).update("\0");
  return hash.digest("hex").slice(0, 10);
}

/** The name of `service`'s template in run `run`. */
export function templateName(service: MigratedService, run: string): string {
  return `${TEMPLATE_PREFIX}${service}_${migrationsHash(MIGRATIONS[service].folder)}_${run}`;
}

/** The run id the global setup provided; undefined outside such a run. */
function currentRun(): string | undefined {
  try {
    return inject("testDatabaseRun") || undefined;
  } catch {
    return undefined;
  }
}

const plans = new Map<string, Promise<CopyPlan>>();

/** The copy plan of `service`'s template in `run`, building the template first if needed (once per process). */
function templatePlan(service: MigratedService, run: string): Promise<CopyPlan> {
  const name = templateName(service, run);
  let plan = plans.get(name);
  if (!plan) {
    plan = ensureTemplate(service, name);
    plans.set(name, plan);
    plan.catch(() => plans.delete(name));
  }
  return plan;
}

/**
 * Under a server-wide lock named after the template (so concurrent workers build it once):
 * migrates template `name` of `service` unless it is complete, and reads its copy plan.
 * @throws Error when another worker's build takes longer than BUILD_WAIT_SECONDS, or migrating fails
 */
export async function ensureTemplate(service: MigratedService, name: string): Promise<CopyPlan> {
  const conn = await mysql.createConnection(TEST_DATABASE_URL);
  try {
    const [[locked]] = await conn.query<mysql.RowDataPacket[]>("SELECT GET_LOCK(?, ?) AS ok", [name, BUILD_WAIT_SECONDS]);
    if (Number(locked!.ok) !== 1) throw new Error(`createMigratedDatabase: waited ${BUILD_WAIT_SECONDS} s for template ${name}`);
    try {
      if (!(await isComplete(conn, service, name))) {
        await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
        await MIGRATIONS[service].migrate(TEST_DATABASE_URL, name);
      }
      return await readCopyPlan(conn, name);
    } finally {
      await conn.query("SELECT RELEASE_LOCK(?)", [name]);
    }
  } finally {
    await conn.end();
  }
}

/** Whether template `name` holds a journal row for every migration (drizzle writes each after its SQL). */
async function isComplete(conn: mysql.Connection, service: MigratedService, name: string): Promise<boolean> {
  const journal = JSON.parse(readFileSync(join(MIGRATIONS[service].folder, "meta", "_journal.json"), "utf8")) as { entries: unknown[] };
  try {
    const [[row]] = await conn.query<mysql.RowDataPacket[]>(`SELECT COUNT(*) AS n FROM \`${name}\`.__drizzle_migrations`);
    return Number(row!.n) === journal.entries.length;
  } catch {
    return false; // no database or no journal yet
  }
}
