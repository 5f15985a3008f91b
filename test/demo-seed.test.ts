/**
 * What `npm start` prints when it seeds (a secret printed to the start log is readable by anyone
 * with the log): a secret appears only when it was generated, once; one from a SEED_* variable is
 * never printed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyPassword } from "../core-api/src/crypto/passwords.ts";
import { openCoreDatabase, type CoreDatabase } from "../core-api/src/db/client.ts";
import { openConnectorDatabase, type ConnectorDatabase } from "../connector/src/db/client.ts";
import { hashIntegrationToken } from "../connector/src/http/auth.ts";
import { demoChainId, demoChainLines, parseDemoSeedVariables, seedCoreDemo, seedWebshopDemo, seedWebshopShopper, webshopDemoChainId } from "../scripts/lib/demo-seed.ts";
import { createMigratedDatabase } from "./helpers/database-templates.ts";
import { dropDatabase, TEST_DATABASE_URL, throwawayDatabaseName } from "./helpers/databases.ts";

const cores: CoreDatabase[] = [];
const shops: ConnectorDatabase[] = [];
const names: string[] = [];

async function freshCore(): Promise<{ db: CoreDatabase["db"]; name: string; database: CoreDatabase }> {
  const name = throwawayDatabaseName("seed_core");
  names.push(name);
  await createMigratedDatabase("core", name);
  const database = openCoreDatabase(TEST_DATABASE_URL, name);
  cores.push(database);
  return { db: database.db, name, database };
}

async function freshShop(): Promise<{ db: ConnectorDatabase["db"]; name: string; database: ConnectorDatabase }> {
  const name = throwawayDatabaseName("seed_shop");
  names.push(name);
  await createMigratedDatabase("connector", name);
  const database = openConnectorDatabase(TEST_DATABASE_URL, name);
  shops.push(database);
  return { db: database.db, name, database };
}

afterAll(async () => {
  await Promise.all([...cores, ...shops].map((d) => d.close()));
  await Promise.all(names.map(dropDatabase));
});

/** A generator that hands out recognisable secrets and counts its calls. */
function fakeGenerator() {
  const made: string[] = [];
  const generate = (bytes: number) => {
    const s = `generated-${made.length + 1}-${bytes}`;
    made.push(s);
    return s;
  };
  return { made, generate };
}

async function storedPasswordHash(database: CoreDatabase, table: "admin_users" | "users"): Promise<string> {
  const [rows] = (await database.pool.query(`SELECT password_hash AS h FROM ${table} ORDER BY id LIMIT 1`)) as unknown as [Array<{ h: string }>];
  return rows[0]!.h;
}

/** The ids of the database's chains, in id order. */
async function chainIds(database: CoreDatabase): Promise<number[]> {
  const [rows] = (await database.pool.query("SELECT id FROM chains ORDER BY id")) as unknown as [Array<{ id: number }>];
  return rows.map((r) => Number(r.id));
}

describe("seedCoreDemo", () => {
  it("prints generated passwords once, and they are the stored ones", async () => {
    const { db, name, database } = await freshCore();
    const gen = fakeGenerator();
    const seed = parseDemoSeedVariables({});
    if (!seed.ok) throw new Error(seed.problems.join());
    const lines = await seedCoreDemo(db, name, seed.config, gen.generate);
    const [chainId] = await chainIds(database);
    expect(lines).toEqual([
      `demo chain ${chainId} seeded in ${name}:`,
      "  admin username     admin@demo.example",
      "  admin password     generated-1-18  (generated: shown only now)",
      "  app hostname       shop.localhost",
      "  shopper username   shopper@demo.example  (log in with X-Service-App-Hostname: shop.localhost)",
      "  shopper password   generated-2-18  (generated: shown only now)",
    ]);
    expect(await verifyPassword("generated-1-18", await storedPasswordHash(database, "admin_users"))).toBe(true);
    expect(await verifyPassword("generated-2-18", await storedPasswordHash(database, "users"))).toBe(true);
    // a second start on the same database seeds and prints nothing
    expect(await seedCoreDemo(db, name, seed.config, gen.generate)).toEqual([]);
  });

  it("never prints passwords that came from SEED_* variables", async () => {
    const { db, name, database } = await freshCore();
    const gen = fakeGenerator();
    const env = {
      SEED_ADMIN_USERNAME: "boss@example.com", SEED_ADMIN_PASSWORD: "admin-secret-from-env",
      SEED_SHOPPER_PASSWORD: "shopper-secret-from-env", SEED_APP_HOSTNAME: "shop.example",
    };
    const seed = parseDemoSeedVariables(env);
    if (!seed.ok) throw new Error(seed.problems.join());
    const lines = await seedCoreDemo(db, name, seed.config, gen.generate);
    const [chainId] = await chainIds(database);
    expect(lines).toEqual([
      `demo chain ${chainId} seeded in ${name}:`,
      "  admin username     boss@example.com",
      "  admin password     from SEED_ADMIN_PASSWORD (not shown)",
      "  app hostname       shop.example",
      "  shopper username   shopper@demo.example  (log in with X-Service-App-Hostname: shop.example)",
      "  shopper password   from SEED_SHOPPER_PASSWORD (not shown)",
    ]);
    expect(lines.join("\n")).not.toContain("secret-from-env");
    expect(gen.made).toEqual([]);
    expect(await verifyPassword("admin-secret-from-env", await storedPasswordHash(database, "admin_users"))).toBe(true);
  });

  it("numbers the demo chain as the database does (chains' AUTO_INCREMENT at 7): wired, mapped and printed by that id", async () => {
    const { db, name, database } = await freshCore();
    await database.pool.query("ALTER TABLE chains AUTO_INCREMENT = 7");
    const seed = parseDemoSeedVariables({ SEED_ADMIN_PASSWORD: "admin-password-7", SEED_SHOPPER_PASSWORD: "shopper-password-7" });
    if (!seed.ok) throw new Error(seed.problems.join());
    let wired: number | undefined;
    const lines = await seedCoreDemo(db, name, seed.config, undefined, { onSeeded: async (id) => { wired = id; return []; } });
    const [chainId] = await chainIds(database);
    // 7, or the next id this server's auto_increment_increment / _offset allow from 7
    expect(chainId).toBeGreaterThanOrEqual(7);
    expect(wired).toBe(chainId);
    expect(lines[0]).toBe(`demo chain ${chainId} seeded in ${name}:`);
    // a later start finds it by its app hostname, and prints it for the README's walkthrough
    expect(await demoChainId(db, seed.config)).toBe(chainId);
    expect(await demoChainId(db, { SEED_APP_HOSTNAME: "another.example" })).toBeUndefined();
    expect(demoChainLines(chainId!)).toEqual([`demo chain id: ${chainId}`, `CHAIN=${chainId}`]);

    // the webshop's website serves that chain, and its shopper is that chain's customer
    const shop = await freshShop();
    expect(await webshopDemoChainId(shop.db)).toBeUndefined();
    expect(await seedWebshopDemo(shop.db, shop.name, chainId, "token-for-chain-seven-0123")).toEqual([
      `webshop store seeded in ${shop.name} for chain ${chainId}:`, "  integration token  from SEED_INTEGRATION_TOKEN (not shown)",
    ]);
    expect(await webshopDemoChainId(shop.db)).toBe(chainId);
    await seedWebshopShopper(shop.db, chainId!, { username: "shopper@demo.example", password: "shopper-password-7" });
    const [mapped] = (await shop.database.pool.query(
      "SELECT m.service_chain_id AS chain FROM customer_entity c JOIN service_chain_website m ON m.website_id = c.website_id WHERE c.email = 'shopper@demo.example'",
    )) as unknown as [Array<{ chain: number }>];
    expect(mapped).toEqual([{ chain: chainId }]);
  });

  it("refuses malformed SEED_* variables, one line each, without echoing them", () => {
    const result = parseDemoSeedVariables({ SEED_ADMIN_PASSWORD: "short", SEED_APP_HOSTNAME: "not a host" });
    expect(result).toEqual({
      ok: false,
      problems: ["SEED_ADMIN_PASSWORD: must be at least 8 characters", "SEED_APP_HOSTNAME: must be a hostname, for example shop.localhost"],
    });
  });
});

describe("seedWebshopDemo", () => {
  async function tokenHashes(database: ConnectorDatabase): Promise<string[]> {
    const [rows] = (await database.pool.query("SELECT token_hash AS h FROM service_integration_token")) as unknown as [Array<{ h: string }>];
    return rows.map((r) => r.h);
  }

  it("prints a generated token once, and it is the stored one", async () => {
    const { db, name, database } = await freshShop();
    const gen = fakeGenerator();
    const lines = await seedWebshopDemo(db, name, 1, undefined, gen.generate);
    expect(lines).toEqual([`webshop store seeded in ${name} for chain 1:`, "  integration token  generated-1-24  (generated: shown only now)"]);
    expect(await tokenHashes(database)).toEqual([hashIntegrationToken("generated-1-24")]);
    expect(await seedWebshopDemo(db, name, 1, undefined, gen.generate)).toEqual([]);
    expect(gen.made).toHaveLength(1);
  });

  it("never prints a token from SEED_INTEGRATION_TOKEN", async () => {
    const { db, name, database } = await freshShop();
    const gen = fakeGenerator();
    const token = "token-from-env-0123456789";
    const lines = await seedWebshopDemo(db, name, 1, token, gen.generate);
    expect(lines).toEqual([`webshop store seeded in ${name} for chain 1:`, "  integration token  from SEED_INTEGRATION_TOKEN (not shown)"]);
    expect(lines.join("\n")).not.toContain(token);
    expect(gen.made).toEqual([]);
    expect(await tokenHashes(database)).toEqual([hashIntegrationToken(token)]);
  });
});
