/**
 * A real webshop connector for tests that need both services: a throwaway customer store
 * (migrated, seeded with the Magento skeleton, the chain's website and an integration token) and
 * `startConnector` on a free port, called over real HTTP.
 *
 * @example
 *   const shop = await startWebshop(core.chainId);
 *   const customerId = await shop.createCustomer({ username: "ann@example.com", password: "Right-pass1" });
 *   afterAll(() => shop.close());
 */
import { randomBytes } from "node:crypto";
import { openConnectorDatabase, type ConnectorDatabase } from "../../connector/src/db/client.ts";
import { seedConnector } from "../../connector/src/db/seed.ts";
import { startConnector, type RunningConnector } from "../../connector/src/main.ts";
import { createMigratedDatabase } from "./database-templates.ts";
import { dropDatabase, TEST_DATABASE_URL, throwawayDatabaseName } from "./databases.ts";

export interface TestWebshop {
  /** the connector's base URL, e.g. `http://127.0.0.1:40123` */
  url: string;
  /** the integration token the connector accepts */
  token: string;
  /** direct access to the customer store, for asserting and setting up rows */
  database: ConnectorDatabase;
  /**
   * Creates a customer through the connector's `update` (create_if_not_exists), as the platform
   * would send it; `user_info` keys as the spec names them (username is the email).
   * @returns the webshop customer id
   */
  createCustomer(userInfo: Record<string, unknown>): Promise<number>;
  /** runs SQL on the customer store */
  exec(sql: string, params?: unknown[]): Promise<void>;
  /** rows of a plain SQL query on the customer store */
  rows(sql: string, params?: unknown[]): Promise<any[]>;
  close(): Promise<void>;
}

/** How the test connector is started. */
export interface WebshopOptions {
  /**
   * the database server the connector itself reaches, e.g. a proxy's url (database-proxy.ts), to
   * take its database away; default TEST_DATABASE_URL. The test's own `database` stays on TEST_DATABASE_URL.
   */
  databaseUrl?: string;
}

/** Starts a connector serving chain `chainId` (its website is the seeded default one). */
export async function startWebshop(chainId: number, options: WebshopOptions = {}): Promise<TestWebshop> {
  const dbName = throwawayDatabaseName("webshop");
  await createMigratedDatabase("connector", dbName);
  const database = openConnectorDatabase(TEST_DATABASE_URL, dbName, { connectionLimit: 2 });
  const token = `test-shop-token-${randomBytes(12).toString("hex")}`;
  await seedConnector(database.db, { chainId, integrationToken: token });
  const running: RunningConnector = await startConnector({ databaseUrl: options.databaseUrl ?? TEST_DATABASE_URL, dbName, port: 0, host: "127.0.0.1", logLevel: "warn" });
  return {
    url: running.url,
    token,
    database,
    async createCustomer(userInfo) {
      const res = await fetch(`${running.url}/rest/V1/service/customer/update`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ user_info: userInfo, create_if_not_exists: true }),
      });
      const body = (await res.json()) as { id?: number };
      if (res.status !== 200 || typeof body.id !== "number") throw new Error(`webshop update: ${res.status} ${JSON.stringify(body)}`);
      return body.id;
    },
    async exec(sql, params = []) {
      await database.pool.query(sql, params);
    },
    async rows(sql, params = []) {
      const [rows] = await database.pool.query(sql, params);
      return rows as any[];
    },
    async close() {
      await running.close();
      await database.close();
      await dropDatabase(dbName);
    },
  };
}
