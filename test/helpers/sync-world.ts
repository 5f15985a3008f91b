/**
 * Both services for real, for the sync tests: a core API on a throwaway migrated database (a copy
 * of the run's template, database-templates.ts) served over HTTP (startCoreApi on port 0) with a
 * chain, its webshop app, a generated member-number range and the chain's identity-source service
 * client with a privileged token; and a connector store (throwaway, migrated the same way, seeded)
 * linked to that core API (linkPlatform). Shop customers are written straight into the Magento
 * tables with SQL, as Magento does on registration or account edit; members are read back through
 * get-user over HTTP.
 *
 * The services can also run as processes of their own (startCoreProcess, startConnectorProcess),
 * to be killed or to reach the database through a proxy (database-proxy.ts); close() kills those
 * still running.
 */
import { eq } from "drizzle-orm";
import { openSecretBox, type SecretBox } from "@service/shared/secret-box";
import { userInfoHash } from "@service/shared/node";
import type { UserInfo } from "@service/shared/user-info";
import { seedClient, seedToken } from "../../core-api/src/clients/client-test-support.ts";
import { loadCoreConfig } from "../../core-api/src/config.ts";
import { openCoreDatabase, type CoreDatabase } from "../../core-api/src/db/client.ts";
import { apps, memberNumberRanges } from "../../core-api/src/db/schema.ts";
import { createAppHostname, createChain } from "../../core-api/src/db/seed.ts";
import { startCoreApi, type RunningService } from "../../core-api/src/main.node.ts";
import { userInfoObject } from "../../connector/src/customers/mapping.ts";
import { loadCustomerBundle } from "../../connector/src/customers/repository.ts";
import { openConnectorDatabase, type ConnectorDatabase } from "../../connector/src/db/client.ts";
import { seedConnector } from "../../connector/src/db/seed.ts";
import { linkPlatform } from "../../connector/src/sync/platform-link.ts";
import { runReconcile, type ReconcileOptions, type ReconcileReport } from "../../connector/src/sync/reconcile.ts";
import { TEST_SECRET_KEY } from "./core.ts";
import { createMigratedDatabase } from "./database-templates.ts";
import { dropDatabase, TEST_DATABASE_URL, throwawayDatabaseName } from "./databases.ts";
import { scriptEnv, start, type Running } from "./processes.ts";

/** The webshop app's hostname in every sync world. */
export const SHOP_HOSTNAME = "shop.sync.example.test";
/** The first member number the chain hands out. */
export const FIRST_MEMBER_NUMBER = 5_000_000n;

/** A registration as Magento writes it: customer_entity, then its address as default billing and shipping. */
export interface Registration {
  email: string;
  firstname?: string | null;
  lastname?: string | null;
  dob?: string | null;
  gender?: number | null;
  /** without an address the customer has none */
  address?: { street: string; city: string; postcode: string | null; countryId: string; telephone: string };
  /** created_at (default: the database's now, as Magento's registration leaves it) */
  createdAt?: Date;
}

/**
 * The n-th of a series of Dutch registrations, `<prefix><n>@example.com`, names First<n> / Last<n>,
 * with an address: the bulk customers of the restart tests.
 */
export function numberedRegistration(prefix: string, n: number): Registration {
  return {
    email: `${prefix}${n}@example.com`, firstname: `First${n}`, lastname: `Last${n}`, dob: "1990-01-02", gender: n % 2 + 1,
    address: { street: `Kerkstraat\n${n}`, city: "Utrecht", postcode: "3511 AB", countryId: "NL", telephone: "+31612345678" },
  };
}

export interface SyncWorld {
  coreDbName: string;
  /** the core database (seeding, row checks) */
  coreDb: CoreDatabase;
  /** the running core API, null while stopped (stopCore / startCore) */
  core: RunningService | null;
  /** its base URL (kept across restarts: same port) */
  coreUrl: string;
  chainId: number;
  /** `<uuid>:<secret>` of the identity-source client */
  accessToken: string;
  shopDbName: string;
  shop: ConnectorDatabase;
  box: SecretBox;
  /** registers a customer in the Magento tables; returns its entity_id */
  register(r: Registration): Promise<number>;
  /** runs SQL on the shop database */
  shopSql(sql: string, params?: unknown[]): Promise<any[]>;
  /** get-user over HTTP with the chain's token (`user_id=..`, `authentication_point_identifier=..&chain_id=..`); null when 68 */
  member(query: string): Promise<UserInfo | null>;
  /** every user of the chain in the core database (duplicates show here) */
  memberCount(): Promise<number>;
  /** a privileged internal call over HTTP, e.g. alter-user (add-user names the webshop app) */
  coreCall(method: string, path: string, body?: Record<string, unknown>): Promise<{ status: number; body: any }>;
  /** authentication_point_identifier values and member numbers with more than one user in the chain (none: no duplicate member) */
  duplicateMembers(): Promise<unknown[]>;
  /** the customer's stored service data (last_hash, user_id, member_number) */
  serviceData(customerId: number): Promise<any>;
  /** the hash of the customer's user info as the shop holds it now */
  currentHash(customerId: number): Promise<string>;
  reconcile(options?: ReconcileOptions, fetchImpl?: typeof fetch): Promise<ReconcileReport>;
  /**
   * Forgets every customer, for a test that starts from an empty shop: the shop's customers,
   * addresses, newsletter rows and sync data, and the chain's members on the platform (member
   * numbers start again at FIRST_MEMBER_NUMBER). The link, the chain and its clients stay.
   */
  resetCustomers(): Promise<void>;
  stopCore(): Promise<void>;
  startCore(): Promise<void>;
  /**
   * A core-api process (core-api/src/main.node.ts, one serving process, outbox worker included)
   * on the world's database and port (stopCore() first); resolves once it listens.
   */
  startCoreProcess(options?: ProcessOptions): Promise<Running>;
  /**
   * A connector process (connector/src/main.ts) on the world's shop database, serving on `port`
   * and accepting integration token `token` (SEED_INTEGRATION_TOKEN); SYNC_CRON is `off` unless
   * `env` says otherwise. Resolves once it listens.
   */
  startConnectorProcess(options: ProcessOptions & { port: number; token: string }): Promise<Running>;
  /** kills the processes started above that still run, closes the pools, drops both databases */
  close(): Promise<void>;
}

/** How a service process of the world is started. */
export interface ProcessOptions {
  /** the database server it reaches, e.g. a proxy's url (default TEST_DATABASE_URL) */
  databaseUrl?: string;
  /** more environment variables (LOG_LEVEL is `fatal` unless given) */
  env?: Record<string, string>;
}

/** Polls `check` every `everyMs` (default 100) until it is true; the test's own timeout bounds it. */
export async function until(check: () => Promise<boolean>, everyMs = 100): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, everyMs));
}

/** Builds the world; `close()` it in afterAll. */
export async function startSyncWorld(prefix: string): Promise<SyncWorld> {
  const coreDbName = throwawayDatabaseName(`${prefix}_core`);
  await createMigratedDatabase("core", coreDbName);
  const coreDb = openCoreDatabase(TEST_DATABASE_URL, coreDbName);
  const now = new Date();
  const chainId = await createChain(coreDb.db, "Sync Chain");
  const appId = await createAppHostname(coreDb.db, chainId, SHOP_HOSTNAME);
  await coreDb.db.update(apps).set({ kind: "webshop" }).where(eq(apps.id, appId));
  await coreDb.db.insert(memberNumberRanges).values({ chainId, kind: "generated", first: FIRST_MEMBER_NUMBER, last: FIRST_MEMBER_NUMBER + 999_999n, nextNumber: FIRST_MEMBER_NUMBER });
  const client = await seedClient(coreDb.db, chainId, now, { name: "Webshop connector", isIdentitySource: true });
  const token = await seedToken(coreDb.db, chainId, client.id, now);
  const accessToken = `${token.row.id}:${token.secret}`;

  const coreConfig = (port: number) => loadCoreConfig({
    DATABASE_URL: TEST_DATABASE_URL, CORE_DB_NAME: coreDbName, CORE_API_PORT: String(port), LOG_LEVEL: "warn", SERVICE_SECRET_KEY: TEST_SECRET_KEY,
  });
  let core: RunningService | null = await startCoreApi(coreConfig(0));
  const processes: Running[] = [];
  /** `node --import tsx <entry>`: node itself serves, so a SIGKILL hits the serving process (the tsx command would serve from a child of its own). */
  const service = async (entry: string, env: Record<string, string>, listening: RegExp) => {
    const p = start(process.execPath, ["--import", "tsx", entry], scriptEnv({ LOG_LEVEL: "fatal", ...env }));
    processes.push(p);
    await p.waitFor(listening, 60_000);
    return p;
  };
  const coreUrl = core.url;
  const corePort = Number(new URL(coreUrl).port);

  const shopDbName = throwawayDatabaseName(`${prefix}_shop`);
  await createMigratedDatabase("connector", shopDbName);
  const shop = openConnectorDatabase(TEST_DATABASE_URL, shopDbName);
  await seedConnector(shop.db, { chainId });
  const box = await openSecretBox(TEST_SECRET_KEY);
  await linkPlatform(shop.db, box, { chainId, coreApiUrl: coreUrl, accessToken, appHostname: SHOP_HOSTNAME });

  const shopSql = async (sql: string, params: unknown[] = []) => (await shop.pool.query(sql, params))[0] as any[];
  const [website] = await shopSql("SELECT w.website_id, s.store_id, s.name FROM store_website w JOIN store s ON s.website_id = w.website_id WHERE w.code = 'base'");

  const world: SyncWorld = {
    coreDbName, coreDb, get core() { return core; }, coreUrl, chainId, accessToken, shopDbName, shop, box,
    async register(r) {
      const createdAt = r.createdAt ? [r.createdAt, r.createdAt] : [];
      const [res] = await shop.pool.query(
        `INSERT INTO customer_entity (website_id, email, group_id, store_id, created_in, firstname, lastname, dob, gender, password_hash, is_active${createdAt.length ? ", created_at, updated_at" : ""})
         VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?, 1${createdAt.length ? ", ?, ?" : ""})`,
        [website.website_id, r.email, website.store_id, website.name, r.firstname ?? null, r.lastname ?? null, r.dob ?? null, r.gender ?? null, "x:y:2", ...createdAt],
      );
      const id = (res as { insertId: number }).insertId;
      if (r.address) {
        const a = r.address;
        const [addr] = await shop.pool.query(
          `INSERT INTO customer_address_entity (parent_id, city, country_id, firstname, lastname, postcode, street, telephone${createdAt.length ? ", created_at, updated_at" : ""})
           VALUES (?, ?, ?, ?, ?, ?, ?, ?${createdAt.length ? ", ?, ?" : ""})`,
          [id, a.city, a.countryId, r.firstname ?? "", r.lastname ?? "", a.postcode, a.street, a.telephone, ...createdAt],
        );
        const addressId = (addr as { insertId: number }).insertId;
        await shop.pool.query(
          `UPDATE customer_entity SET default_billing = ?, default_shipping = ?${createdAt.length ? ", updated_at = updated_at" : ""} WHERE entity_id = ?`,
          [addressId, addressId, id],
        );
      }
      return id;
    },
    shopSql,
    async member(query) {
      const res = await fetch(`${coreUrl}/internal/get-user?${query}`, { headers: { authorization: `Bearer ${accessToken}` } });
      const body = await res.json() as any;
      if (res.status !== 200) {
        if (body?.error?.name === "permission_denied_or_non_existent") return null;
        throw new Error(`get-user ${query}: ${res.status} ${JSON.stringify(body)}`);
      }
      return body.results.user;
    },
    async memberCount() {
      const [rows] = await coreDb.pool.query("SELECT COUNT(*) AS n FROM users WHERE chain_id = ?", [chainId]);
      return Number((rows as Array<{ n: number }>)[0]!.n);
    },
    async coreCall(method, path, body) {
      const res = await fetch(`${coreUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${accessToken}`, "content-type": "application/json",
          ...(path === "/internal/add-user" && { "x-service-app-hostname": SHOP_HOSTNAME }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    },
    async duplicateMembers() {
      const [rows] = await coreDb.pool.query(
        `SELECT 'authentication_point_identifier' AS by_key, authentication_point_identifier AS value, COUNT(*) AS n FROM users
           WHERE chain_id = ? AND authentication_point_identifier IS NOT NULL GROUP BY authentication_point_identifier HAVING COUNT(*) > 1
         UNION ALL
         SELECT 'member_number', member_number, COUNT(*) FROM users
           WHERE chain_id = ? AND member_number IS NOT NULL GROUP BY member_number HAVING COUNT(*) > 1`,
        [chainId, chainId],
      );
      return rows as unknown[];
    },
    async serviceData(customerId) {
      const [row] = await shopSql("SELECT * FROM service_customer_data WHERE customer_id = ?", [customerId]);
      return row ?? null;
    },
    async currentHash(customerId) {
      return userInfoHash(userInfoObject((await loadCustomerBundle(shop.db, customerId))!));
    },
    reconcile(options = {}, fetchImpl) {
      return runReconcile({ db: shop.db, box, fetch: fetchImpl }, options);
    },
    async resetCustomers() {
      for (const table of ["service_customer_data", "newsletter_subscriber", "customer_address_entity", "customer_entity"]) await shopSql(`DELETE FROM ${table}`);
      await coreDb.pool.query("DELETE FROM users WHERE chain_id = ?", [chainId]);
      await coreDb.pool.query("UPDATE member_number_ranges SET next_number = first WHERE chain_id = ? AND kind = 'generated'", [chainId]);
    },
    async stopCore() {
      await core?.close();
      core = null;
    },
    async startCore() {
      core ??= await startCoreApi(coreConfig(corePort));
    },
    startCoreProcess(options = {}) {
      return service("core-api/src/main.node.ts", {
        DATABASE_URL: options.databaseUrl ?? TEST_DATABASE_URL, CORE_DB_NAME: coreDbName, CORE_API_PORT: String(corePort),
        SERVICE_SECRET_KEY: TEST_SECRET_KEY, ...options.env,
      }, /core-api listening on http:\/\/\S+/);
    },
    startConnectorProcess(options) {
      return service("connector/src/main.ts", {
        DATABASE_URL: options.databaseUrl ?? TEST_DATABASE_URL, WEBSHOP_DB_NAME: shopDbName, CONNECTOR_PORT: String(options.port),
        SERVICE_SECRET_KEY: TEST_SECRET_KEY, SEED_CHAIN_ID: String(chainId), SEED_INTEGRATION_TOKEN: options.token, SYNC_CRON: "off",
        ...options.env,
      }, /connector listening on http:\/\/\S+/);
    },
    async close() {
      for (const p of processes) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill("SIGKILL");
      await Promise.all(processes.map((p) => p.exited()));
      await core?.close();
      await coreDb.close();
      await shop.close();
      await dropDatabase(coreDbName);
      await dropDatabase(shopDbName);
    },
  };
  return world;
}
