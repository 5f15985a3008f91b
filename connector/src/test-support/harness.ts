/**
 * Test harness for the connector's HTTP tests: a throwaway database (migrated: a copy of the run's
 * template, test/helpers/database-templates.ts; seeded), the app
 * on an ephemeral port driven by real fetch, a fake clock, and direct row access for asserting
 * what was written. One harness per test file, so files run in parallel.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createMigratedDatabase } from "../../../test/helpers/database-templates.ts";
import { dropDatabase, TEST_DATABASE_URL, throwawayDatabaseName } from "../../../test/helpers/databases.ts";
import { createApp } from "../app.ts";
import { BODY_LIMIT_BYTES } from "../config.ts";
import type { PasswordVerifier } from "../customers/authenticate.ts";
import { openConnectorDatabase, type ConnectorDatabase } from "../db/client.ts";
import { seedConnector } from "../db/seed.ts";

export const TEST_TOKEN = "test-integration-token-0123456789";
export const TEST_CHAIN_ID = 1;
export const START_TIME = new Date("2026-03-10T09:00:00Z");

export interface Harness {
  database: ConnectorDatabase;
  url: string;
  /** the seeded website `base` and its store view `default`: the ids the database handed out */
  base: { websiteId: number; storeId: number };
  /** the fake clock's current time */
  now(): Date;
  /** moves the fake clock forward */
  advance(ms: number): void;
  /** runs a request; `token: null` sends no Authorization header */
  call(method: string, path: string, body?: unknown, options?: { token?: string | null; raw?: string }): Promise<{ status: number; body: any }>;
  /** all rows of a table (plain SQL, so the test does not trust the app's schema mapping) */
  rows(table: string, where?: string): Promise<any[]>;
  /** runs SQL directly (setting up edge cases) */
  exec(sql: string, params?: unknown[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * Creates the database and starts the app; call `close()` in afterAll.
 * @param options.trustedProxies CIDRs whose X-Forwarded-For the app believes (tests that need
 *   several client addresses send it from 127.0.0.1)
 * @param options.verifyPassword authenticate's password check (tests that count its calls wrap verifyMagentoPassword)
 * @param options.requestDeadlineMs REQUEST_DEADLINE_MS of the app (default 5 s)
 */
export async function startHarness(
  prefix: string,
  options: { trustedProxies?: string[]; verifyPassword?: PasswordVerifier; requestDeadlineMs?: number } = {},
): Promise<Harness> {
  const name = throwawayDatabaseName(prefix);
  await createMigratedDatabase("connector", name);
  const database = openConnectorDatabase(TEST_DATABASE_URL, name);
  await seedConnector(database.db, { chainId: TEST_CHAIN_ID, integrationToken: TEST_TOKEN, now: START_TIME });
  const [[base]] = (await database.pool.query(
    "SELECT w.website_id AS websiteId, s.store_id AS storeId FROM store_website w JOIN store s ON s.website_id = w.website_id AND s.code = 'default' WHERE w.code = 'base'",
  )) as unknown as [Array<{ websiteId: number; storeId: number }>];
  let now = START_TIME;
  // Request lines are noise in test output: warnings and errors only.
  const app = createApp({
    db: database.db,
    clock: () => now,
    verifyPassword: options.verifyPassword,
    config: { bodyLimitBytes: BODY_LIMIT_BYTES, logLevel: "warn", trustedProxies: options.trustedProxies, requestDeadlineMs: options.requestDeadlineMs },
  });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    database,
    url,
    base: base!,
    now: () => now,
    advance: (ms) => { now = new Date(now.getTime() + ms); },
    async call(method, path, body, options = {}) {
      const token = options.token === undefined ? TEST_TOKEN : options.token;
      const headers: Record<string, string> = {};
      if (token !== null) headers.authorization = `Bearer ${token}`;
      const payload = options.raw ?? (body === undefined ? undefined : JSON.stringify(body));
      if (payload !== undefined) headers["content-type"] = "application/json";
      const res = await fetch(`${url}${path}`, { method, headers, body: payload });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    async rows(table, where = "1=1") {
      const [rows] = await database.pool.query(`SELECT * FROM \`${table}\` WHERE ${where}`);
      return rows as any[];
    },
    async exec(sql, params = []) {
      await database.pool.query(sql, params);
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await database.close();
      await dropDatabase(name);
    },
  };
}

/**
 * Whether `pair` (a service_authenticate_lockout row, undefined when there is none) is what a
 * success leaves: reset (nothing counted, no lock), or already pruned.
 */
export function isFreshPair(pair: { failures: number; locked_until: Date | null } | undefined): boolean {
  return pair === undefined || (pair.failures === 0 && pair.locked_until === null);
}

/** Snapshot of every table the connector writes, to prove a failed request changed nothing. */
export async function snapshot(h: Harness): Promise<Record<string, unknown[]>> {
  const tables = [
    "customer_entity", "customer_address_entity", "newsletter_subscriber", "service_customer_data",
    "service_chain_website", "store_website", "store", "service_integration_token", "service_platform_link", "service_job_lease",
  ];
  const out: Record<string, unknown[]> = {};
  for (const t of tables) out[t] = await h.rows(t);
  return out;
}

/**
 * Adds a website with one store group and store view (`<code>_store`), optionally serving a chain.
 * @returns the new website id and store id
 */
export async function addWebsite(h: Harness, code: string, chainId?: number): Promise<{ websiteId: number; storeId: number }> {
  await h.exec("INSERT INTO store_website (code, name) VALUES (?, ?)", [code, `${code} website`]);
  const [w] = await h.rows("store_website", `code = '${code}'`);
  await h.exec("INSERT INTO store_group (website_id, name, code) VALUES (?, ?, ?)", [w.website_id, `${code} group`, `${code}_group`]);
  const [g] = await h.rows("store_group", `code = '${code}_group'`);
  await h.exec("INSERT INTO store (code, website_id, group_id, name, is_active) VALUES (?, ?, ?, ?, 1)",
    [`${code}_store`, w.website_id, g.group_id, `${code} store view`]);
  const [s] = await h.rows("store", `code = '${code}_store'`);
  await h.exec("UPDATE store_group SET default_store_id = ? WHERE group_id = ?", [s.store_id, g.group_id]);
  await h.exec("UPDATE store_website SET default_group_id = ? WHERE website_id = ?", [g.group_id, w.website_id]);
  if (chainId !== undefined) {
    await h.exec("INSERT INTO service_chain_website (service_chain_id, website_id) VALUES (?, ?)", [chainId, w.website_id]);
  }
  return { websiteId: w.website_id, storeId: s.store_id };
}

/** Sets a Magento config value (scope default). */
export async function setConfig(h: Harness, path: string, value: string): Promise<void> {
  await h.exec(
    "INSERT INTO core_config_data (scope, scope_id, path, value) VALUES ('default', 0, ?, ?) ON DUPLICATE KEY UPDATE value = VALUES(value)",
    [path, value],
  );
}
