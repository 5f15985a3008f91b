/**
 * The demo chain wired both ways (handbook: "`npm start` wires the demo chain both ways"):
 * the secrets both sides need, derived from SERVICE_SECRET_KEY unless SEED_* names them; the core
 * side (authentication point, identity-source client with that token); the demo shopper as a
 * webshop customer; and `npm start` itself, after which the printed shopper logs in through the
 * app, checked by the real connector.
 */
import { openSecretBox } from "@service/shared/secret-box";
import { afterAll, describe, expect, it } from "vitest";
import { createApp } from "../core-api/src/app.ts";
import { loadCoreConfig } from "../core-api/src/config.ts";
import { openCoreDatabase, type CoreDatabase } from "../core-api/src/db/client.ts";
import { migrateCoreDatabase } from "../core-api/src/db/migrate.node.ts";
import { openConnectorDatabase, type ConnectorDatabase } from "../connector/src/db/client.ts";
import { migrateConnectorDatabase } from "../connector/src/db/migrate.node.ts";
import { verifyMagentoPassword } from "../connector/src/customers/magento-password.ts";
import { parseDemoSeedVariables, seedCoreDemo, seedWebshopDemo, seedWebshopShopper } from "../scripts/lib/demo-seed.ts";
import { demoWiring, parseDemoWiringVariables, wireCoreDemo, withRunningUrls } from "../scripts/lib/demo-wiring.ts";
import { TEST_SECRET_KEY } from "./helpers/core.ts";
import { dropDatabase, TEST_DATABASE_URL, throwawayDatabaseName } from "./helpers/databases.ts";
import { scriptEnv, start } from "./helpers/processes.ts";
import { createMigratedDatabase } from "./helpers/database-templates.ts";

const names: string[] = [];
const open: Array<CoreDatabase | ConnectorDatabase> = [];
afterAll(async () => {
  await Promise.all(open.map((d) => d.close()));
  await Promise.all(names.map(dropDatabase));
});

const PLACES = { host: "127.0.0.1", corePort: 8080, connectorPort: 8081, appHostname: "Shop.Localhost", shopperUsername: "shopper@demo.example" };

function wiringOf(env: Record<string, string>, secretKey = TEST_SECRET_KEY) {
  const variables = parseDemoWiringVariables(env);
  if (!variables.ok) throw new Error(variables.problems.join());
  return demoWiring(variables.config, { ...PLACES, secretKey, integrationToken: env.SEED_INTEGRATION_TOKEN, shopperPassword: env.SEED_SHOPPER_PASSWORD });
}

describe("demoWiring", () => {
  it("derives the shared secrets from SERVICE_SECRET_KEY: the same key gives the same ones, another key others", () => {
    const a = wiringOf({});
    expect(a).toMatchObject({
      connectorUrl: "http://127.0.0.1:8081",
      coreApiUrl: "http://127.0.0.1:8080",
      appHostname: "shop.localhost",
      integrationToken: { from: "derived" },
      identityToken: { from: "derived" },
      shopper: { username: "shopper@demo.example", password: { from: "derived" } },
    });
    expect(a.integrationToken.value).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(a.identityToken.value.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a.identityToken.value.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(a.shopper.password.value).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(wiringOf({})).toEqual(a);
    const b = wiringOf({}, "another-service-secret-key-0123456789");
    for (const secret of [b.integrationToken.value, b.identityToken.value.id, b.identityToken.value.secret, b.shopper.password.value]) {
      expect([a.integrationToken.value, a.identityToken.value.id, a.identityToken.value.secret, a.shopper.password.value]).not.toContain(secret);
    }
  });

  it("takes SEED_* values as given, URLs without a trailing slash, and the URLs of running services unless SEED_* names them", () => {
    const id = "0b9d8a3e-5c1f-4e2a-9b7c-1d2e3f4a5b6c";
    const w = wiringOf({
      SEED_INTEGRATION_TOKEN: "integration-token-from-env", SEED_IDENTITY_TOKEN: `${id.toUpperCase()}:identity-secret-from-env`,
      SEED_SHOPPER_PASSWORD: "shopper-password-from-env", SEED_CONNECTOR_URL: "http://connector:8081/",
    });
    expect(w).toMatchObject({
      connectorUrl: "http://connector:8081",
      integrationToken: { value: "integration-token-from-env", from: "SEED_INTEGRATION_TOKEN" },
      identityToken: { value: { id, secret: "identity-secret-from-env" }, from: "SEED_IDENTITY_TOKEN" },
      shopper: { password: { value: "shopper-password-from-env", from: "SEED_SHOPPER_PASSWORD" } },
    });
    const variables = parseDemoWiringVariables({ SEED_CONNECTOR_URL: "http://connector:8081" });
    if (!variables.ok) throw new Error("variables");
    const running = withRunningUrls(w, variables.config, { coreApiUrl: "http://127.0.0.1:40001", connectorUrl: "http://127.0.0.1:40002" });
    expect(running).toMatchObject({ connectorUrl: "http://connector:8081", coreApiUrl: "http://127.0.0.1:40001" });
  });

  it("refuses malformed wiring variables, one line each, without echoing them", () => {
    const result = parseDemoWiringVariables({ SEED_CONNECTOR_URL: "ftp://secret-host", SEED_CORE_API_URL: "nowhere", SEED_IDENTITY_TOKEN: "not-a-uuid:secret-value-1234567" });
    expect(result).toEqual({
      ok: false,
      problems: [
        "SEED_CONNECTOR_URL: must be an http(s) URL, for example http://127.0.0.1:8081",
        "SEED_CORE_API_URL: must be an http(s) URL, for example http://127.0.0.1:8081",
        "SEED_IDENTITY_TOKEN: must be <uuid>:<secret of 16 to 256 characters>",
      ],
    });
    expect(JSON.stringify(result)).not.toMatch(/secret-host|nowhere|secret-value/);
  });
});

describe("the core side and the webshop shopper", () => {
  it("wires the demo chain once: authentication point (token sealed), identity-source client whose token adds members as `platform`", async () => {
    const name = throwawayDatabaseName("wire_core");
    names.push(name);
    await migrateCoreDatabase(TEST_DATABASE_URL, name);
    const database = openCoreDatabase(TEST_DATABASE_URL, name);
    open.push(database);
    const box = await openSecretBox(TEST_SECRET_KEY);
    const wiring = wiringOf({});
    const seed = parseDemoSeedVariables({ SEED_ADMIN_PASSWORD: "admin-password-1" });
    if (!seed.ok) throw new Error("seed");
    let chainId = 0;
    const lines = await seedCoreDemo(database.db, name, seed.config, undefined, {
      onSeeded: (id) => {
        chainId = id;
        return wireCoreDemo(database.db, box, id, wiring);
      },
      derivedShopperPassword: wiring.shopper.password.value,
    });
    const token = `${wiring.identityToken.value.id}:${wiring.identityToken.value.secret}`;
    expect(lines).toContain(`  shopper password   ${wiring.shopper.password.value}  (derived from SERVICE_SECRET_KEY: shown only now)`);
    expect(lines.slice(-3)).toEqual([
      `demo chain ${chainId} wired to its webshop:`,
      "  authentication point  http://127.0.0.1:8081  (integration token derived from SERVICE_SECRET_KEY)",
      expect.stringMatching(new RegExp(`^  identity-source token ${token}  \\(derived from SERVICE_SECRET_KEY: shown only now\\)  \\(client \\d+, "Webshop connector"\\)$`)),
    ]);

    const [[point]] = (await database.pool.query("SELECT chain_id, base_url, integration_token_sealed AS sealed FROM authentication_points")) as any;
    expect(point).toMatchObject({ chain_id: chainId, base_url: "http://127.0.0.1:8081" });
    expect(await box.open(point.sealed, `chain.integration_token:${chainId}`)).toBe(wiring.integrationToken.value);

    const app = createApp({ db: database.db, config: loadCoreConfig({ DATABASE_URL: TEST_DATABASE_URL, CORE_DB_NAME: name, SERVICE_SECRET_KEY: TEST_SECRET_KEY, LOG_LEVEL: "warn" }) });
    const added = await app.request("/internal/add-user", {
      method: "POST",
      headers: { "content-type": "application/json", Authorization: `Bearer ${token}`, "X-Service-App-Hostname": "shop.localhost" },
      body: JSON.stringify({ username: "registered-in-the-shop@example.com" }),
    });
    expect(added.status).toBe(200);
    expect(((await added.json()) as any).results.user.signup_channel).toBe("platform");

    // Once only: a chain that has an authentication point is left alone.
    expect(await wireCoreDemo(database.db, box, chainId, { ...wiring, connectorUrl: "http://elsewhere.example" })).toEqual([]);
    const [[again]] = (await database.pool.query("SELECT base_url FROM authentication_points")) as any;
    expect(again.base_url).toBe("http://127.0.0.1:8081");
  });

  it("never prints wiring secrets that came from SEED_* variables", async () => {
    const name = throwawayDatabaseName("wire_core_env");
    names.push(name);
    await migrateCoreDatabase(TEST_DATABASE_URL, name);
    const database = openCoreDatabase(TEST_DATABASE_URL, name);
    open.push(database);
    const env = {
      SEED_INTEGRATION_TOKEN: "integration-token-from-env", SEED_IDENTITY_TOKEN: "0b9d8a3e-5c1f-4e2a-9b7c-1d2e3f4a5b6c:identity-secret-from-env",
      SEED_SHOPPER_PASSWORD: "shopper-password-from-env",
    };
    const wiring = wiringOf(env);
    const lines = await wireCoreDemo(database.db, await openSecretBox(TEST_SECRET_KEY), (await seedOne(database, name)), wiring);
    expect(lines.join("\n")).not.toMatch(/from-env/);
    expect(lines).toContain("  authentication point  http://127.0.0.1:8081  (integration token from SEED_INTEGRATION_TOKEN)");
    expect(lines[2]).toMatch(/^ {2}identity-source token from SEED_IDENTITY_TOKEN \(not shown\)/);
  });

  it("makes the demo shopper a webshop customer with the same password, once", async () => {
    const name = throwawayDatabaseName("wire_shop");
    names.push(name);
    await migrateConnectorDatabase(TEST_DATABASE_URL, name);
    const database = openConnectorDatabase(TEST_DATABASE_URL, name);
    open.push(database);
    const wiring = wiringOf({});
    const tokenLines = await seedWebshopDemo(database.db, name, 1, { derived: wiring.integrationToken.value });
    expect(tokenLines[1]).toBe(`  integration token  ${wiring.integrationToken.value}  (derived from SERVICE_SECRET_KEY: shown only now)`);
    const lines = await seedWebshopShopper(database.db, 1, { username: "shopper@demo.example", password: wiring.shopper.password.value });
    expect(lines).toEqual([expect.stringMatching(/^ {2}webshop customer {3}shopper@demo\.example \(id \d+\): the demo shopper/)]);
    const [[customer]] = (await database.pool.query("SELECT email, password_hash FROM customer_entity")) as any;
    expect(customer.email).toBe("shopper@demo.example");
    expect(await verifyMagentoPassword(wiring.shopper.password.value, customer.password_hash)).toBe(true);
    expect(await seedWebshopShopper(database.db, 1, { username: "shopper@demo.example", password: "another-password" })).toEqual([]);
    const [rows] = (await database.pool.query("SELECT COUNT(*) AS n FROM customer_entity")) as any;
    expect(rows[0].n).toBe(1);
  });
});

describe("npm start", () => {
  it("wires the demo chain both ways by the id the database handed out (chains' AUTO_INCREMENT at 7): the printed shopper logs in through the app (checked by the webshop) and a member added in the platform reaches the shop", async () => {
    const core = throwawayDatabaseName("wired_core");
    const shop = throwawayDatabaseName("wired_shop");
    names.push(core, shop);
    // Migrated already, its chains numbered from 7 (as a Galera node or a server with
    // auto_increment_offset numbers them): npm start seeds, wires and maps that id, not 1.
    await createMigratedDatabase("core", core);
    const coreDb = openCoreDatabase(TEST_DATABASE_URL, core);
    open.push(coreDb);
    await coreDb.pool.query("ALTER TABLE chains AUTO_INCREMENT = 7");
    const npm = start("npm", ["start"], scriptEnv({
      DATABASE_URL: TEST_DATABASE_URL, CORE_DB_NAME: core, WEBSHOP_DB_NAME: shop, CORE_API_PORT: "0", CONNECTOR_PORT: "0",
      SERVICE_SECRET_KEY: "test-secret-key-of-at-least-32-characters", LOG_LEVEL: "warn", SEED_ADMIN_PASSWORD: "wired-admin-password",
    }));
    try {
      const coreUrl = (await npm.waitFor(/core-api\s+(http:\/\/\S+)/, 90_000))[1]!;
      const connectorUrl = (await npm.waitFor(/connector\s+(http:\/\/\S+)/))[1]!;
      const output = npm.output();
      const [[chain]] = (await coreDb.pool.query("SELECT id FROM chains")) as any;
      expect(chain.id).toBeGreaterThanOrEqual(7);
      expect(output).toContain(`demo chain id: ${chain.id}\nCHAIN=${chain.id}\n`);
      expect(output).toContain(`demo chain ${chain.id} wired to its webshop:`);
      expect(output).toContain(`webshop of chain ${chain.id} linked to the platform`);
      expect(output).toContain(`  authentication point  ${connectorUrl}  (integration token derived from SERVICE_SECRET_KEY)`);
      const password = /shopper password\s+(\S+)\s+\(derived from SERVICE_SECRET_KEY: shown only now\)/.exec(output)?.[1];
      expect(password).toBeDefined();

      const login = await fetch(`${coreUrl}/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json", "X-Service-App-Hostname": "shop.localhost" },
        body: JSON.stringify({ username: "shopper@demo.example", password }),
      });
      expect(login.status).toBe(200);
      const session = ((await login.json()) as any).results.session_info;
      const me = await fetch(`${coreUrl}/internal/get-user`, {
        headers: { "X-Service-Session-User-ID": String(session.session_user_id), "X-Service-Session-Key": session.session_key, "X-Service-App-Hostname": "shop.localhost" },
      });
      const user = ((await me.json()) as any).results.user;
      const customerId = /webshop customer\s+shopper@demo\.example \(id (\d+)\)/.exec(output)?.[1];
      expect(user).toMatchObject({ username: "shopper@demo.example", authentication_point_identifier: customerId });

      // The webshop decides: a wrong password is refused.
      const wrong = await fetch(`${coreUrl}/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json", "X-Service-App-Hostname": "shop.localhost" },
        body: JSON.stringify({ username: "shopper@demo.example", password: "not-the-password" }),
      });
      expect(wrong.status).toBe(401);

      // Platform -> webshop: a member added by the admin reaches the shop through npm start's outbox worker.
      const adminLogin = await fetch(`${coreUrl}/auth/login`, {
        method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: "admin@demo.example", password: "wired-admin-password" }),
      });
      const adminSession = ((await adminLogin.json()) as any).results.session_info;
      const added = await fetch(`${coreUrl}/internal/add-user`, {
        method: "POST",
        headers: { "content-type": "application/json", "X-Service-Session-User-ID": String(adminSession.session_user_id), "X-Service-Session-Key": adminSession.session_key },
        body: JSON.stringify({ chain_id: chain.id, username: "added-in-the-platform@example.com", first_name: "Platform" }),
      });
      expect(added.status).toBe(200);
      const integrationToken = /integration token\s+(\S+)\s+\(derived from SERVICE_SECRET_KEY: shown only now\)/.exec(output)?.[1];
      const inShop = await eventually(async () => {
        const res = await fetch(`${connectorUrl}/rest/V1/service/customer/user_info_by_email/${chain.id}/added-in-the-platform@example.com`, {
          headers: { authorization: `Bearer ${integrationToken}` },
        });
        return res.status === 200 ? ((await res.json()) as any) : undefined;
      });
      expect(inShop).toMatchObject({ username: "added-in-the-platform@example.com", first_name: "Platform" });
    } finally {
      npm.child.kill("SIGTERM");
      await npm.exited();
    }
  }, 120_000);
});

/** The first value `probe` gives within 20 s (checked every 100 ms); throws when there is none. */
async function eventually<T>(probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("the condition never held");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Seeds the demo chain on a fresh core database; returns its id. */
async function seedOne(database: CoreDatabase, name: string): Promise<number> {
  const seed = parseDemoSeedVariables({ SEED_ADMIN_PASSWORD: "admin-password-1", SEED_SHOPPER_PASSWORD: "shopper-password-1" });
  if (!seed.ok) throw new Error("seed");
  let id = 0;
  await seedCoreDemo(database.db, name, seed.config, undefined, { onSeeded: async (chainId) => { id = chainId; return []; } });
  return id;
}
