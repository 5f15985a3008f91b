/**
 * GET /health, GET /ready and GET / of the core API (health/health-routes.ts), against real
 * databases: a migrated one, one missing its newest migration, one never migrated, and a server
 * that does not answer.
 */
import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startCore, type TestCore } from "../../../test/helpers/core.ts";
import { dropDatabase, TEST_DATABASE_URL, throwawayDatabaseName } from "../../../test/helpers/databases.ts";
import { createApp } from "../app.ts";
import { loadCoreConfig } from "../config.ts";
import { openCoreDatabase, type CoreDb } from "../db/client.ts";
import { ensureDatabase } from "@service/shared/node";
import type { AppEnv } from "../auth/request-context.ts";
import { registerHealth } from "./health-routes.ts";

const packageJson = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { name: string; version: string };
const journal = JSON.parse(readFileSync(new URL("../db/migrations/meta/_journal.json", import.meta.url), "utf8")) as {
  entries: Array<{ tag: string; when: number }>;
};
const silent = () => ({ error: vi.fn(), warn: vi.fn(), info: vi.fn() });

let core: TestCore;
beforeAll(async () => {
  core = await startCore();
}, 60_000);
afterAll(() => core.close());

/** A core app on database `dbName` of the server at `url`, with a logger to look at. */
function appOn(url: string, dbName: string) {
  const database = openCoreDatabase(url, dbName, { connectionLimit: 1 });
  const logger = silent();
  const app = createApp({ db: database.db, config: loadCoreConfig({ DATABASE_URL: url, CORE_DB_NAME: dbName }), logger });
  return { app, logger, close: () => database.close() };
}

describe("GET /health", () => {
  it("answers 200 without credentials and without a database query", async () => {
    core.statements.reset();
    const res = await core.json("/health");
    expect(res).toEqual({ status: 200, body: { status: "ok" } });
    expect(core.statements.statements).toEqual([]);
  });

  it("reads no credentials: a bad session is not refused there", async () => {
    const res = await core.json("/health", { headers: { "X-Service-Session-User-ID": "1", "X-Service-Session-Key": "not-a-session" } });
    expect(res.status).toBe(200);
  });
});

describe("GET /ready", () => {
  it("answers 200 on a database holding every shipped migration", async () => {
    expect(journal.entries.length).toBeGreaterThan(0);
    const res = await core.json("/ready");
    expect(res).toEqual({ status: 200, body: { status: "ready", database: "ok", migrations: "current", pending: [] } });
  });

  it("answers 503 naming the migration a database lacks", async () => {
    const newest = journal.entries.at(-1)!;
    const other = await startCore();
    const { app, close } = appOn(TEST_DATABASE_URL, other.dbName);
    try {
      await other.db.execute(sql`DELETE FROM __drizzle_migrations WHERE created_at = ${newest.when}`);
      const res = await app.request("/ready");
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ status: "not_ready", database: "ok", migrations: "pending", pending: [newest.tag] });
    } finally {
      await close();
      await other.close();
    }
  });

  it("answers 503 with every migration pending on a database never migrated", async () => {
    const dbName = throwawayDatabaseName("ready");
    await ensureDatabase(TEST_DATABASE_URL, dbName);
    const { app, close } = appOn(TEST_DATABASE_URL, dbName);
    try {
      const res = await app.request("/ready");
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ status: "not_ready", database: "ok", migrations: "pending", pending: journal.entries.map((e) => e.tag) });
    } finally {
      await close();
      await dropDatabase(dbName);
    }
  });

  it("answers 503 when the database does not answer, logs why and shows no connection detail", async () => {
    // Port 1 on the loopback: nothing listens, the connection is refused at once.
    const { app, logger, close } = appOn("mysql://root:hunter2-secret@127.0.0.1:1", "service_core");
    try {
      const res = await app.request("/ready");
      expect(res.status).toBe(503);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ status: "not_ready", database: "unreachable", migrations: "unknown", pending: [] });
      for (const detail of ["hunter2", "127.0.0.1", "root", "ECONNREFUSED"]) expect(text).not.toContain(detail);
      expect(logger.warn).toHaveBeenCalledOnce();
      expect(logger.warn).toHaveBeenCalledWith({ err: expect.any(Error) }, "ready: the database did not answer");
      const logged = logger.warn.mock.calls[0]![0] as { err: Error & { cause?: unknown } };
      expect(`${logged.err.message} ${String(logged.err.cause)} ${logged.err.stack}`).not.toContain("hunter2");
    } finally {
      await close();
    }
  });

  it("answers 503 when the database hangs past the time limit", async () => {
    const hanging = { execute: () => new Promise(() => {}) } as unknown as CoreDb;
    const app = new Hono<AppEnv>();
    const logger = silent();
    registerHealth(app, { db: hanging, logger, links: {}, readyTimeoutMs: 50 });
    const started = Date.now();
    const res = await app.request("/ready");
    expect(res.status).toBe(503);
    expect(((await res.json()) as { database: string }).database).toBe("unreachable");
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(logger.warn).toHaveBeenCalledOnce();
  });
});

describe("GET /", () => {
  it("names the service and its version, and links the docs page and the schema, which answer", async () => {
    const res = await core.json("/");
    expect(res).toEqual({
      status: 200,
      body: { name: packageJson.name, version: packageJson.version, links: { docs: "/docs", schema: "/resources/schema" } },
    });
    for (const link of Object.values(res.body.links as Record<string, string>)) expect((await core.request(link)).status, link).toBe(200);
  });

  it("other methods on / are 405 named for the GET it needs", async () => {
    const res = await core.json("/", { method: "POST" });
    expect([res.status, res.body.error.code, res.body.error.name]).toEqual([405, 13, "http_request_method_non_GET_not_allowed"]);
  });
});
