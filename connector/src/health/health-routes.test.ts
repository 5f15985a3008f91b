/**
 * GET /health, GET /ready and GET / of the connector (health/health-routes.ts) over HTTP, against
 * real databases: the harness's migrated one, one missing its newest migration, one never
 * migrated, and a server that does not answer; none of them needs an integration token.
 */
import { readFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropDatabase, TEST_DATABASE_URL, throwawayDatabaseName } from "../../../test/helpers/databases.ts";
import { createApp } from "../app.ts";
import { openConnectorDatabase } from "../db/client.ts";
import { ensureDatabase } from "@service/shared/node";
import { startHarness, type Harness } from "../test-support/harness.ts";
import { captureLog } from "../test-support/log-capture.ts";

const packageJson = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { name: string; version: string };
const journal = JSON.parse(readFileSync(new URL("../db/migrations/meta/_journal.json", import.meta.url), "utf8")) as {
  entries: Array<{ tag: string; when: number }>;
};

let h: Harness;
beforeAll(async () => {
  h = await startHarness("health");
}, 60_000);
afterAll(() => h.close());

/** A connector app on database `dbName` of the server at `url`, served on an ephemeral port. */
async function serveOn(url: string, dbName: string) {
  const database = openConnectorDatabase(url, dbName, { connectionLimit: 1 });
  const log = captureLog();
  const app = createApp({ db: database.db, config: { bodyLimitBytes: 1024 }, logger: log.logger });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    log,
    get: (path: string) => fetch(base + path),
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      await database.close();
    },
  };
}

describe("GET /health", () => {
  it("answers 200 without a token", async () => {
    expect(await h.call("GET", "/health", undefined, { token: null })).toEqual({ status: 200, body: { status: "ok" } });
  });
});

describe("GET /ready", () => {
  it("answers 200 on the migrated store, without a token", async () => {
    expect(journal.entries.length).toBeGreaterThan(0);
    const res = await h.call("GET", "/ready", undefined, { token: null });
    expect(res).toEqual({ status: 200, body: { status: "ready", database: "ok", migrations: "current", pending: [] } });
  });

  it("answers 503 naming the migration a store lacks", async () => {
    const other = await startHarness("health_pending");
    const newest = journal.entries.at(-1)!;
    try {
      await other.exec("DELETE FROM __drizzle_migrations WHERE created_at = ?", [newest.when]);
      const res = await fetch(`${other.url}/ready`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ status: "not_ready", database: "ok", migrations: "pending", pending: [newest.tag] });
    } finally {
      await other.close();
    }
  });

  it("answers 503 with every migration pending on a store never migrated", async () => {
    const dbName = throwawayDatabaseName("health_empty");
    await ensureDatabase(TEST_DATABASE_URL, dbName);
    const served = await serveOn(TEST_DATABASE_URL, dbName);
    try {
      const res = await served.get("/ready");
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ status: "not_ready", database: "ok", migrations: "pending", pending: journal.entries.map((e) => e.tag) });
    } finally {
      await served.close();
      await dropDatabase(dbName);
    }
  });

  it("answers 503 when the database does not answer, logs why and shows no connection detail", async () => {
    const served = await serveOn("mysql://root:hunter2-secret@127.0.0.1:1", "service_webshop");
    try {
      const res = await served.get("/ready");
      expect(res.status).toBe(503);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ status: "not_ready", database: "unreachable", migrations: "unknown", pending: [] });
      for (const detail of ["hunter2", "127.0.0.1", "root", "ECONNREFUSED"]) expect(text).not.toContain(detail);
      const warnings = served.log.lines.filter((l) => l.level === "warn");
      expect(warnings.map((l) => [l.message, Object.keys(l.fields)])).toEqual([["ready: the database did not answer", ["err"]]]);
      expect(warnings[0]!.fields.err).toEqual(expect.objectContaining({ message: expect.any(String), stack: expect.any(String) }));
    } finally {
      await served.close();
    }
  });
});

describe("GET /", () => {
  it("names the service and its version and links /health and /ready, without a token", async () => {
    const res = await h.call("GET", "/", undefined, { token: null });
    expect(res).toEqual({ status: 200, body: { name: packageJson.name, version: packageJson.version, links: { health: "/health", ready: "/ready" } } });
  });

  it("the customer endpoints still need the integration token", async () => {
    expect((await h.call("GET", "/rest/V1/service/customer/user_info/1", undefined, { token: null })).status).toBe(401);
  });
});
