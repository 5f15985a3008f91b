/**
 * The test run's global setup (`globalSetup` of vitest.config.ts, vitest.processes.config.ts and
 * vitest.cluster.config.ts): names the run for its database templates (database-templates.ts),
 * drops the test databases killed runs left (older than a day), and at the end drops the run's
 * templates. The throwaway databases themselves are dropped
 * by the files that made them.
 */
import mysql from "mysql2/promise";
import type { TestProject } from "vitest/node";
import { dropStaleTestDatabases, TEMPLATE_PREFIX, TEST_DATABASE_URL, uniqueSuffix } from "./databases.ts";

/** Test databases older than this are a killed run's, in milliseconds. */
export const STALE_AFTER_MS = 24 * 3600 * 1000;

/** Provides `testDatabaseRun`; returns the teardown that drops the run's templates. */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const run = uniqueSuffix();
  project.provide("testDatabaseRun", run);
  try {
    await dropStaleTestDatabases(TEST_DATABASE_URL, STALE_AFTER_MS);
  } catch (err) {
    // No database server: the tests that need one say so themselves; the others still run.
    console.warn(`test databases: could not drop stale ones (${(err as Error).message})`);
  }
  return () => dropRunTemplates(TEST_DATABASE_URL, run);
}

/** Drops the templates of run `run` (every service, every migrations hash). */
export async function dropRunTemplates(databaseUrl: string, run: string): Promise<void> {
  const conn = await mysql.createConnection(databaseUrl).catch(() => undefined);
  if (!conn) return;
  try {
    const [rows] = await conn.query<mysql.RowDataPacket[]>(
      "SELECT SCHEMA_NAME AS name FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE ?",
      [`${TEMPLATE_PREFIX.replace(/_/g, "\\_")}%\\_${run.replace(/_/g, "\\_")}`]);
    for (const { name } of rows) await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
  } finally {
    await conn.end();
  }
}
