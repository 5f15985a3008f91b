/**
 * Starting a service never rewires a chain: `npm start -- --service connector` links the demo
 * chain's webshop to the platform only when it has no link yet, at the core API's port
 * (CORE_API_PORT) when no SEED_CORE_API_URL names it; a link set with `npm run admin --
 * link-platform` survives every later start unchanged. Real processes on a throwaway database.
 */
import { afterAll, describe, expect, it } from "vitest";
import { openConnectorDatabase } from "../connector/src/db/client.ts";
import { dropDatabase, TEST_DATABASE_URL, throwawayDatabaseName } from "./helpers/databases.ts";
import { runScript, scriptEnv, start } from "./helpers/processes.ts";

const shop = throwawayDatabaseName("link_shop");
const unmapped = throwawayDatabaseName("link_shop_unmapped");
afterAll(() => Promise.all([dropDatabase(shop), dropDatabase(unmapped)]));

// Started alone, the connector is told the demo chain's id (SEED_CHAIN_ID: as core-api printed it).
const env = scriptEnv({
  DATABASE_URL: TEST_DATABASE_URL, WEBSHOP_DB_NAME: shop, CONNECTOR_PORT: "0", CORE_API_PORT: "18123", SEED_CHAIN_ID: "7",
  SERVICE_SECRET_KEY: "test-secret-key-of-at-least-32-characters", SYNC_CRON: "off", LOG_LEVEL: "warn",
});

/** Starts the connector service alone, waits until it listens, stops it (SIGTERM); returns its output. */
async function startConnectorOnce(environment = env): Promise<string> {
  const npm = start("npm", ["start", "--", "--service", "connector"], environment);
  try {
    await npm.waitFor(/connector\s+http:\/\/\S+/, 90_000);
  } finally {
    npm.child.kill("SIGTERM");
    await npm.exited();
  }
  return npm.output();
}

/** The webshop's platform links as stored. */
async function links(dbName = shop): Promise<Array<{ service_chain_id: number; core_api_url: string; app_hostname: string; access_token_sealed: string }>> {
  return rowsOf(dbName, "SELECT service_chain_id, core_api_url, app_hostname, access_token_sealed FROM service_platform_link");
}

async function rowsOf(dbName: string, query: string): Promise<any[]> {
  const database = openConnectorDatabase(TEST_DATABASE_URL, dbName, { connectionLimit: 1 });
  try {
    const [rows] = await database.pool.query(query);
    return rows as never;
  } finally {
    await database.close();
  }
}

describe("npm start -- --service connector", () => {
  it("links an unlinked chain at CORE_API_PORT, and never changes a link set with link-platform", async () => {
    const first = await startConnectorOnce();
    const seeded = await links();
    expect(seeded).toEqual([expect.objectContaining({ service_chain_id: 7, core_api_url: "http://127.0.0.1:18123", app_hostname: "shop.localhost" })]);
    expect(await rowsOf(shop, "SELECT service_chain_id FROM service_chain_website")).toEqual([{ service_chain_id: 7 }]);
    expect(first).toContain("demo chain id: 7\nCHAIN=7");
    expect(first).toContain("linked to the platform at http://127.0.0.1:18123");

    const chainId = String(seeded[0]!.service_chain_id);
    const token = `0b7c2a0e-4f4b-4a7e-9a51-3c2f1d9e8b70:${"t".repeat(40)}`;
    const linked = await runScript("scripts/admin.ts", [
      "link-platform", "--chain-id", chainId, "--core-api-url", "https://platform.example.com", "--access-token", token, "--app-hostname", "shop.example.com",
    ], env);
    expect(linked.code, linked.stderr).toBe(0);
    const set = await links();
    expect(set).toEqual([expect.objectContaining({ core_api_url: "https://platform.example.com", app_hostname: "shop.example.com" })]);

    const again = await startConnectorOnce();
    expect(await links()).toEqual(set);
    expect(again).not.toContain("linked to the platform");
  }, 180_000);

  it("without SEED_CHAIN_ID maps and links no chain (it cannot know the demo chain's id), and says so", async () => {
    const { SEED_CHAIN_ID: _unset, ...rest } = env;
    const output = await startConnectorOnce({ ...rest, WEBSHOP_DB_NAME: unmapped });
    expect(output).toContain("its website serves no chain yet: SEED_CHAIN_ID");
    expect(output).not.toContain("CHAIN=");
    expect(await rowsOf(unmapped, "SELECT * FROM service_chain_website")).toEqual([]);
    expect(await links(unmapped)).toEqual([]);
    expect(await rowsOf(unmapped, "SELECT code FROM store_website")).toEqual([{ code: "base" }]);
  }, 180_000);
});
