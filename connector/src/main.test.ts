/** startConnector: a real server on an ephemeral port over a migrated, seeded database. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMigratedDatabase } from "../../test/helpers/database-templates.ts";
import { dropDatabase, TEST_DATABASE_URL, throwawayDatabaseName } from "../../test/helpers/databases.ts";
import { loadConnectorConfig } from "./config.ts";
import { openConnectorDatabase } from "./db/client.ts";
import { seedConnector } from "./db/seed.ts";
import { startConnector, type RunningConnector } from "./main.ts";

const name = throwawayDatabaseName("webshop_main");
let running: RunningConnector;

beforeAll(async () => {
  await createMigratedDatabase("connector", name);
  const seedDb = openConnectorDatabase(TEST_DATABASE_URL, name);
  await seedConnector(seedDb.db, { chainId: 1, integrationToken: "main-test-token-0123456789" });
  await seedDb.close();
  running = await startConnector({ databaseUrl: TEST_DATABASE_URL, dbName: name, port: 0, host: "127.0.0.1", logLevel: "warn" });
});
afterAll(async () => {
  await running?.close();
  await dropDatabase(name);
});

describe("startConnector", () => {
  it("serves the endpoints at the returned url", async () => {
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${running.url}/rest/V1/service/customer/authenticate`, {
      method: "POST",
      headers: { authorization: "Bearer main-test-token-0123456789", "content-type": "application/json" },
      body: JSON.stringify({ email: "nobody@example.com", password: "x" }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ authenticated: false });
  });
});

describe("the operations endpoints of the real server", () => {
  it("answer /health, /ready and / without a token, with a request id", async () => {
    const health = await fetch(`${running.url}/health`);
    expect([health.status, await health.json()]).toEqual([200, { status: "ok" }]);
    expect(health.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const ready = await fetch(`${running.url}/ready`);
    expect([ready.status, await ready.json()]).toEqual([200, { status: "ready", database: "ok", migrations: "current", pending: [] }]);
    const root = await fetch(`${running.url}/`);
    expect([root.status, ((await root.json()) as { name: string }).name]).toEqual([200, "@service/connector"]);
  });
});

describe("loadConnectorConfig", () => {
  it("applies the handbook's defaults and reads the fixed variable names", () => {
    expect(loadConnectorConfig({})).toMatchObject({
      databaseUrl: "mysql://root@127.0.0.1:3306", dbName: "service_webshop", port: 8081, host: "127.0.0.1", seedChainId: undefined,
    });
    expect(loadConnectorConfig({ CONNECTOR_PORT: "9000", WEBSHOP_DB_NAME: "shop", HOST: "0.0.0.0", DATABASE_URL: "" }))
      .toMatchObject({ port: 9000, dbName: "shop", host: "0.0.0.0", databaseUrl: "mysql://root@127.0.0.1:3306" });
    expect(() => loadConnectorConfig({ CONNECTOR_PORT: "http" })).toThrow(/CONNECTOR_PORT/);
  });

  it("reads LOG_LEVEL (default info) and TRUSTED_PROXIES (default none), refusing bad values by name", () => {
    expect(loadConnectorConfig({})).toMatchObject({ logLevel: "info", trustedProxies: [] });
    expect(loadConnectorConfig({ LOG_LEVEL: "debug", TRUSTED_PROXIES: "10.0.0.0/8, ::1" })).toMatchObject({ logLevel: "debug", trustedProxies: ["10.0.0.0/8", "::1"] });
    expect(() => loadConnectorConfig({ LOG_LEVEL: "loud" })).toThrow(/LOG_LEVEL/);
    for (const bad of ["10.0.0.0/33", "not-an-address", "10.0.0.1/8/1", "::1/129"]) {
      expect(() => loadConnectorConfig({ TRUSTED_PROXIES: bad }), bad).toThrow(/TRUSTED_PROXIES/);
    }
  });
});
