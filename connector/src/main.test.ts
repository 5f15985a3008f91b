/** startConnector: a real server on an ephemeral port over a migrated, seeded database. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropDatabase, TEST_DATABASE_URL, throwawayDatabaseName } from "../../test/helpers/databases.ts";
import { loadConnectorConfig } from "./config.ts";
import { openConnectorDatabase } from "./db/client.ts";
import { migrateConnectorDatabase } from "./db/migrate.node.ts";
import { seedConnector } from "./db/seed.ts";
import { startConnector, type RunningConnector } from "./main.ts";

const name = throwawayDatabaseName("webshop_main");
let running: RunningConnector;

beforeAll(async () => {
  await migrateConnectorDatabase(TEST_DATABASE_URL, name);
  const seedDb = openConnectorDatabase(TEST_DATABASE_URL, name);
  await seedConnector(seedDb.db, { chainId: 1, integrationToken: "main-test-token-0123456789" });
  await seedDb.close();
  running = await startConnector({ databaseUrl: TEST_DATABASE_URL, dbName: name, port: 0, host: "127.0.0.1" });
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

describe("loadConnectorConfig", () => {
  it("applies the handbook's defaults and reads the fixed variable names", () => {
    expect(loadConnectorConfig({})).toMatchObject({
      databaseUrl: "mysql://root@127.0.0.1:3306", dbName: "service_webshop", port: 8081, host: "127.0.0.1", seedChainId: 1,
    });
    expect(loadConnectorConfig({ CONNECTOR_PORT: "9000", WEBSHOP_DB_NAME: "shop", HOST: "0.0.0.0", DATABASE_URL: "" }))
      .toMatchObject({ port: 9000, dbName: "shop", host: "0.0.0.0", databaseUrl: "mysql://root@127.0.0.1:3306" });
    expect(() => loadConnectorConfig({ CONNECTOR_PORT: "http" })).toThrow(/CONNECTOR_PORT/);
  });
});
