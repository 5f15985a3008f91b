/** seedConnector on a real, freshly migrated database: the Magento skeleton, mapping, token; idempotent. */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { dropDatabase, TEST_DATABASE_URL, throwawayDatabaseName } from "../../../test/helpers/databases.ts";
import { openConnectorDatabase, type ConnectorDatabase } from "./client.ts";
import { migrateConnectorDatabase } from "./migrate.node.ts";
import { seedConnector } from "./seed.ts";
import { openSecretBox } from "@service/shared/secret-box";

const name = throwawayDatabaseName("webshop_seed");
let database: ConnectorDatabase;
const rows = async (table: string) => (await database.pool.query(`SELECT * FROM \`${table}\``))[0] as any[];

beforeAll(async () => {
  await migrateConnectorDatabase(TEST_DATABASE_URL, name);
  await migrateConnectorDatabase(TEST_DATABASE_URL, name); // migrating twice is harmless
  database = openConnectorDatabase(TEST_DATABASE_URL, name);
});
afterAll(async () => {
  await database?.close();
  await dropDatabase(name);
});

/** Every table seedConnector writes. */
const SEEDED_TABLES = [
  "store_website", "store_group", "store", "customer_group", "service_chain_website", "service_integration_token", "service_platform_link",
];

// Each test starts from the empty store the migrations leave; the ones about a seeded store seed it first.
beforeEach(async () => {
  for (const table of SEEDED_TABLES) await database.pool.query(`DELETE FROM \`${table}\``);
});

/** The store as the first run leaves it: the skeleton, chain 1 mapped, one token. */
const seedOnce = () => seedConnector(database.db, { chainId: 1, integrationToken: "seed-token-0123456789" });

describe("seedConnector", () => {
  it("creates website base, its group, store view default and customer group General in an empty store", async () => {
    const result = await seedConnector(database.db, { chainId: 1, integrationToken: "seed-token-0123456789" });
    const [website] = await rows("store_website");
    // the id the database handed out (not necessarily 1: auto_increment_offset, a Galera node)
    expect(result).toEqual({ websiteId: website.website_id, createdStore: true, mappedChain: true, storedToken: true, linkedPlatform: false });
    const [group] = await rows("store_group");
    const [view] = await rows("store");
    expect(website).toMatchObject({ code: "base", is_default: 1, default_group_id: group.group_id });
    expect(group).toMatchObject({ website_id: website.website_id, default_store_id: view.store_id });
    expect(view).toMatchObject({ code: "default", website_id: website.website_id, group_id: group.group_id, is_active: 1 });
    expect(await rows("customer_group")).toEqual([{ customer_group_id: 1, customer_group_code: "General", tax_class_id: 3 }]);
    expect(await rows("service_chain_website")).toEqual([{ service_chain_id: 1, website_id: website.website_id }]);
    const [token] = await rows("service_integration_token");
    expect(token.token_hash).toBe(createHash("sha256").update("seed-token-0123456789").digest("hex"));
  });

  it("is idempotent: a second run writes nothing and returns null", async () => {
    await seedOnce();
    const before = await Promise.all(["store_website", "store", "service_chain_website", "service_integration_token"].map(rows));
    expect(await seedConnector(database.db, { chainId: 1, integrationToken: "seed-token-0123456789" })).toBeNull();
    expect(await Promise.all(["store_website", "store", "service_chain_website", "service_integration_token"].map(rows))).toEqual(before);
  });

  it("stores a new token for an existing store, and refuses to map a second chain onto a taken website", async () => {
    await seedOnce();
    const [website] = await rows("store_website");
    expect(await seedConnector(database.db, { chainId: 1, integrationToken: "another-token-0123456789" }))
      .toEqual({ websiteId: website.website_id, createdStore: false, mappedChain: false, storedToken: true, linkedPlatform: false });
    expect(await rows("service_integration_token")).toHaveLength(2);
    await expect(seedConnector(database.db, { chainId: 2 })).rejects.toThrow(/already serves chain 1/);
  });

  it("calls a token generator only when no active token exists", async () => {
    let calls = 0;
    const generate = () => { calls++; return `generated-token-${calls}-0123456789`; };
    await seedOnce();
    expect(await seedConnector(database.db, { chainId: 1, integrationToken: generate })).toBeNull();
    expect(calls).toBe(0);
    await database.pool.query("UPDATE service_integration_token SET is_active = 0");
    expect((await seedConnector(database.db, { chainId: 1, integrationToken: generate }))?.storedToken).toBe(true);
    expect(calls).toBe(1);
  });

  it("links the chain to the platform when it has no link; never changes a link, even one whose token no longer opens", async () => {
    const box = await openSecretBox("seed-test-secret-key-0123456789abcdef");
    await seedOnce();
    const platform = { box, coreApiUrl: "http://core.example:8080", accessToken: `${"1".repeat(8)}-2222-3333-4444-${"5".repeat(12)}:${"s".repeat(64)}`, appHostname: "shop.localhost" };
    expect(await seedConnector(database.db, { chainId: 1, platform })).toMatchObject({ linkedPlatform: true, storedToken: false });
    const [link] = await rows("service_platform_link");
    expect(link).toMatchObject({ service_chain_id: 1, core_api_url: "http://core.example:8080", app_hostname: "shop.localhost" });
    expect(await seedConnector(database.db, { chainId: 1, platform })).toBeNull();
    expect(await seedConnector(database.db, { chainId: 1, platform: { ...platform, coreApiUrl: "http://core2.example:8080", appHostname: "other.localhost" } })).toBeNull();
    const otherKey = await openSecretBox("another-secret-key-0123456789abcdefgh");
    expect(await seedConnector(database.db, { chainId: 1, platform: { ...platform, box: otherKey, coreApiUrl: "http://core3.example:8080" } })).toBeNull();
    expect(await rows("service_platform_link")).toEqual([link]);
  });
});
